// Protocol libraries on mldsa-simd/webcrypto's install(), where the platform
// has no ML-DSA of its own: Node 20 (in this process) and headless Firefox
// ESR (a page; the libraries bundled for it by esbuild). The same scenarios
// (lib/protocols-scenarios.mjs) run in both, and each step's outcome must be
// the one expected here:
// - jose: keys of all three sets from generateKeyPair (through
//   crypto.subtle), JWTs and compact JWSs signed and verified, JWKs exported
//   and imported back; flipped signature bytes, changed payloads, another
//   key and a JWK whose pub is not its priv's are refused;
// - @peculiar/x509: RFC 9881's example certificates (data/rfc9881) parsed,
//   their self-signatures verified, their keys the ones the RFC's seed gives;
//   a flipped signature byte or a changed signed byte refused; an ML-DSA-87
//   CA issues an ML-DSA-44 leaf, the chain builder finds the CA (and not
//   another CA of the same name), a leaf signed by that other CA does not
//   verify under the CA;
// - @simplewebauthn/server: registrations (attestation "none" and "packed"
//   self attestation) and authentications of COSE AKP credentials -48, -49,
//   -50 made by lib/authenticator.mjs accepted; another challenge, flipped
//   signature bytes and a signature by another credential refused.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IMPL, PKG_NAME, consumerDir, importFromConsumer, pkgTestsDir } from './lib/load.mjs';
import { openFirefox } from './lib/firefox.mjs';
import { serve } from './lib/serve.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const SETS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
const CERT_DIR = path.join(pkgTestsDir, 'data', 'rfc9881');
const certs = Object.fromEntries(SETS.map((alg) => [alg, fs.readFileSync(path.join(CERT_DIR, `${alg}.crt`), 'utf8')]));

/** What every step of lib/protocols-scenarios.mjs must give. */
function expected() {
  const e = {};
  const BAD_JWS = 'throws JWSSignatureVerificationFailed ERR_JWS_SIGNATURE_VERIFICATION_FAILED';
  const PUBLIC = { 'ML-DSA-44': 1312, 'ML-DSA-65': 1952, 'ML-DSA-87': 2592 };
  for (const alg of SETS) {
    const j = `jose ${alg}`;
    Object.assign(e, {
      [`${j} keys are CryptoKeys, and the package's`]: 'true, true',
      [`${j} JWT verified`]: `${alg} alice ${alg}`,
      [`${j} JWT with a flipped signature byte`]: BAD_JWS,
      [`${j} JWT with a changed payload`]: BAD_JWS,
      [`${j} JWT under another key`]: BAD_JWS,
      [`${j} compact JWS verified`]: 'a compact JWS',
      [`${j} compact JWS with the last signature byte flipped`]: BAD_JWS,
      [`${j} compact JWS with another payload`]: BAD_JWS,
      [`${j} JWK export and import`]: `AKP ${alg} pub ${PUBLIC[alg]} B, priv 32 B; public alg,kty,pub; imported, original`,
      [`${j} JWK with another pub refused`]: 'throws DataError',
    });
  }
  for (const alg of SETS) {
    const x = `x509 RFC 9881 ${alg}`;
    Object.assign(e, {
      [`${x} parsed`]: `O=IETF, CN=LAMPS WG; O=IETF, CN=LAMPS WG; ${alg}; ${alg}`,
      [`${x} self-signature verifies`]: true,
      [`${x} verifies (signature and dates)`]: true,
      [`${x} is self-signed`]: true,
      [`${x} key from the RFC's seed`]: true,
      [`${x} public key length`]: PUBLIC[alg],
      [`${x} with a flipped signature byte`]: false,
      [`${x} with a changed signed part`]: false,
    });
  }
  Object.assign(e, {
    // Our verify refuses a key of another set (the draft's InvalidAccessError).
    'x509 RFC 9881 ML-DSA-44 under the ML-DSA-65 key': 'throws InvalidAccessError 15',
    'x509 CA ML-DSA-87 self-signed': 'ML-DSA-87 true',
    'x509 leaf ML-DSA-44 under the CA': 'ML-DSA-44 signed ML-DSA-87: true',
    'x509 leaf under the other CA': false,
    'x509 chain of the leaf': '03 01',
    'x509 leaf of another CA under the CA': false,
    'x509 chain of the leaf of another CA': '04',
  });
  for (const [alg, name] of [
    [-48, 'ML-DSA-44'],
    [-49, 'ML-DSA-65'],
    [-50, 'ML-DSA-87'],
  ]) {
    for (const attestation of ['none', 'packed']) {
      const w = `webauthn ${alg} (${name}) ${attestation}`;
      e[`${w} registration`] = `true ${attestation} the COSE key`;
      e[`${w} registration for another challenge`] = 'throws Error';
      if (attestation === 'packed') e[`${w} registration with a flipped attestation signature byte`] = 'false';
      e[`${w} authentication`] = 'true counter 1';
      for (const where of ['first', 'middle', 'last']) e[`${w} authentication with the ${where} signature byte flipped`] = 'false';
      e[`${w} authentication signed by another credential`] = 'false';
    }
  }
  // ML-DSA-44 (-48) first: the library offers it when SubtleCrypto.supports('verify', 'ML-DSA-44'), which install() provides.
  e['webauthn default algorithms'] = '-48 -8 -7 -257';
  return e;
}

function check(t, where, { results, errors }) {
  for (const message of new Set(errors.map((m) => m.replace(/"[A-Za-z0-9_-]{20,}"/g, '"…"'))))
    t.diagnostic(`protocols (${where}): expected refusal: ${message.slice(0, 160)}`);
  const want = expected();
  const differ = Object.keys({ ...want, ...results }).filter((k) => !(k in results) || !(k in want) || results[k] !== want[k]);
  assert.deepEqual(
    Object.fromEntries(differ.map((k) => [k, results[k]])),
    Object.fromEntries(differ.map((k) => [k, want[k]])),
    `${where}: steps with another outcome than expected`,
  );
  assert.ok(Object.keys(results).length >= 100, `only ${Object.keys(results).length} steps`);
}

test('protocols: jose, @peculiar/x509, @simplewebauthn/server on install() in Node', { skip, timeout: 60_000 }, async (t) => {
  const { install, CryptoKey: OurCryptoKey } = await importFromConsumer(`${PKG_NAME}/webcrypto`);
  const native = typeof globalThis.SubtleCrypto?.supports === 'function' && SubtleCrypto.supports('sign', 'ML-DSA-65');
  assert.equal(await install(), !native, 'install() replaces crypto.subtle exactly where the platform has no ML-DSA');
  if (native) await install({ force: true });
  // The libraries after install(), as an application would load them (x509 needs a Reflect polyfill).
  await import('reflect-metadata');
  const [jose, x509, webauthn, { run }] = await Promise.all([
    import('jose'),
    import('@peculiar/x509'),
    import('@simplewebauthn/server'),
    import('./lib/protocols-scenarios.mjs'),
  ]);
  const t0 = performance.now();
  const out = await run({ jose, x509, webauthn, certs, OurCryptoKey });
  t.diagnostic(
    `protocols: Node ${process.version}${native ? ' (native ML-DSA, install({ force: true }))' : ''}: ${Object.keys(out.results).length} steps in ${Math.round(performance.now() - t0)} ms`,
  );
  check(t, `Node ${process.version}`, out);
});

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>mldsa-simd/webcrypto + protocol libraries</title></head>
<body><pre id="out">running…</pre>
<script type="module">
import { install, CryptoKey as OurCryptoKey } from '/node_modules/${PKG_NAME}/webcrypto.mjs';
let result;
try {
  const installed = await install();
  const { jose, x509, webauthn, run } = await import('/bundle/protocols.js');
  const certs = {};
  for (const alg of ${JSON.stringify(SETS)}) certs[alg] = await (await fetch('/rfc9881/' + alg + '.crt')).text();
  const t0 = performance.now();
  const out = await run({ jose, x509, webauthn, certs, OurCryptoKey });
  result = { installed, ms: Math.round(performance.now() - t0), ...out, userAgent: navigator.userAgent };
} catch (e) {
  result = { error: String((e && e.stack) || e) };
}
document.getElementById('out').textContent = JSON.stringify(result, null, 1);
window.__result = result;
</script></body></html>`;

test('protocols: the same in headless Firefox ESR (no native ML-DSA), libraries bundled by esbuild', { skip, timeout: 120_000 }, async (t) => {
  const { build } = await import('esbuild');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mldsa-protocols-'));
  let server;
  let browser;
  try {
    const t0 = performance.now();
    await build({
      stdin: {
        contents: [
          "import 'reflect-metadata';",
          "export * as jose from 'jose';",
          "export * as x509 from '@peculiar/x509';",
          "export * as webauthn from '@simplewebauthn/server';",
          "export { run } from './protocols-scenarios.mjs';",
        ].join('\n'),
        resolveDir: path.join(pkgTestsDir, 'lib'),
        sourcefile: 'protocols-entry.mjs',
      },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      outfile: path.join(dir, 'protocols.js'),
      logLevel: 'error',
    });
    t.diagnostic(`protocols: esbuild bundle ${fs.statSync(path.join(dir, 'protocols.js')).size} bytes in ${Math.round(performance.now() - t0)} ms`);
    server = await serve(consumerDir, PAGE, { '/bundle/': dir, '/rfc9881/': CERT_DIR });
    browser = await openFirefox();
    const { page, problems } = browser;
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    let r;
    for (const until = Date.now() + 90_000; !(r = await page.evaluate(() => window.__result)) && Date.now() < until; )
      await new Promise((res) => setTimeout(res, 100));
    assert.ok(r, 'the page did not finish');
    assert.equal(r.error, undefined, `the page threw: ${r.error}`);
    assert.deepEqual(problems, []);
    t.diagnostic(`protocols: Firefox ${browser.version} (${r.userAgent}): install() ${r.installed}, ${Object.keys(r.results).length} steps in ${r.ms} ms`);
    assert.equal(r.installed, true, 'Firefox ESR has no ML-DSA of its own: install() replaces crypto.subtle');
    check(t, `Firefox ${browser.version}`, r);
  } finally {
    await browser?.close();
    if (server) await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
