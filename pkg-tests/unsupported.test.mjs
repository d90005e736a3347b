// Where the platform refuses WebAssembly, importing the package still succeeds:
// a page served with `Content-Security-Policy: script-src 'self'` (no
// 'wasm-unsafe-eval') in headless Chromium, and Node child processes with no
// WebAssembly (deleted before the import, or --jitless) or with a compile that
// throws as a refusing browser's does. There isSupported() is false, every call
// that needs wasm throws an Error saying why and what to add to the policy,
// with the platform's error as its cause; mldsa-simd/webcrypto's install()
// leaves crypto.subtle alone and its ML-DSA operations reject with
// NotSupportedError. The same page with 'wasm-unsafe-eval' works.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { IMPL, PKG_NAME, consumerDir, installedPackageDir } from './lib/load.mjs';
import { openPage } from './lib/chromium.mjs';
import { serve } from './lib/serve.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;

const WHAT_TO_ADD = "add script-src 'wasm-unsafe-eval'";
const NO_WASM = 'this JavaScript environment has no WebAssembly';

// What a page or a child reports, after importing the main entry as `m`,
// mldsa-simd/webcrypto as `w` and mldsa-simd/keys as `k` (the same code in both).
// The key formats are plain JavaScript: what needs no algorithm (reading DER)
// runs where WebAssembly does not; what does (the key pair of a seed) says why not.
const PROBE = `
const caught = (f) => {
  try {
    f();
    return null;
  } catch (e) {
    return { kind: e.constructor.name, message: e.message, cause: e.cause && { name: e.cause.name, message: String(e.cause.message) } };
  }
};
async function probe(m, w, k) {
  const r = { supported: m.isSupported(), exports: Object.keys(m).sort() };
  const seed = new Uint8Array(32).fill(7);
  const msg = new TextEncoder().encode('hello');
  r.calls = {
    keygen: caught(() => m.ml_dsa65.keygen(seed)),
    keygenAgain: caught(() => m.ml_dsa65.keygen()),
    verify: caught(() => m.ml_dsa44.verify(new Uint8Array(2420), msg, new Uint8Array(1312))),
    signer: caught(() => m.ml_dsa87.signer(seed)),
    seedImport: caught(() => k.importSecretKey(m.ml_dsa65, seed, 'raw-seed')),
    memory: caught(() => m.wasmMemoryBytes()),
  };
  r.spki = caught(() => k.importPublicKey(m.ml_dsa65, new Uint8Array(1974), 'spki')); // not DER, wherever it runs
  if (r.supported) {
    const { publicKey, secretKey } = m.ml_dsa65.keygen(seed);
    const sig = m.ml_dsa65.sign(msg, secretKey);
    r.roundTrip = m.ml_dsa65.verify(sig, msg, publicKey) && !m.ml_dsa65.verify(sig, msg.subarray(1), publicKey);
  }
  r.webcrypto = { supports: w.subtle.supports('sign', 'ML-DSA-65') };
  try {
    await w.subtle.generateKey('ML-DSA-65', false, ['sign', 'verify']);
    r.webcrypto.generateKey = 'ok';
  } catch (e) {
    r.webcrypto.generateKey = { name: e.name, message: e.message, cause: e.cause && e.cause.name };
  }
  try {
    await w.subtle.importKey('spki', new Uint8Array(100000), 'ML-DSA-65', false, ['verify']);
    r.webcrypto.importKey = 'ok';
  } catch (e) {
    r.webcrypto.importKey = { name: e.name, message: e.message, cause: e.cause && e.cause.name };
  }
  r.webcrypto.installed = await w.install({ force: true });
  r.webcrypto.digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(0)))[0];
  try {
    await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
    r.webcrypto.platformEcdsa = 'ok';
  } catch (e) {
    r.webcrypto.platformEcdsa = e.name;
  }
  return r;
}
`;

/** The checks of a probe's report where the package cannot run; `why` is in every message. */
// `platformMlDsa`: the platform has ML-DSA of its own (Chromium), which then
// makes and imports the keys of mldsa-simd/webcrypto's subtle.
function checkUnsupported(r, why, causeName, what, { platformMlDsa = false } = {}) {
  assert.equal(r.supported, false, `${what}: isSupported()`);
  assert.ok(r.exports.includes('isSupported') && r.exports.includes('ml_dsa65'), `${what}: exports ${r.exports}`);
  for (const [call, e] of Object.entries(r.calls)) {
    assert.ok(e, `${what}: ${call} did not throw`);
    assert.equal(e.kind, 'Error', `${what}: ${call} threw ${e.kind}: ${e.message}`);
    assert.match(e.message, /^mldsa-simd cannot run here: /, `${what}: ${call}`);
    assert.ok(e.message.includes(why), `${what}: ${call}: ${e.message}`);
    assert.equal(e.cause?.name, causeName, `${what}: ${call}: cause ${JSON.stringify(e.cause)}`);
  }
  // Later calls throw the same error as the first.
  assert.equal(r.calls.keygenAgain.message, r.calls.keygen.message, what);
  assert.match(r.spki?.message, /^spki: not a DER/, `${what}: reading DER needs no WebAssembly`);
  const wc = r.webcrypto;
  if (platformMlDsa) {
    assert.equal(wc.supports, true, `${what}: subtle.supports('sign', 'ML-DSA-65') (the platform's)`);
    assert.equal(wc.generateKey, 'ok', `${what}: subtle.generateKey, by the platform`);
    assert.equal(wc.importKey?.name, 'DataError', `${what}: subtle.importKey of bad bytes, by the platform: ${JSON.stringify(wc.importKey)}`);
  } else {
    assert.equal(wc.supports, false, `${what}: subtle.supports('sign', 'ML-DSA-65')`);
    checkCannotRun(wc, why, causeName, what);
  }
  assert.equal(wc.installed, false, `${what}: install({ force: true }) installed`);
  assert.equal(wc.digest, 0xe3, `${what}: the platform's crypto.subtle.digest after install()`);
  assert.equal(wc.platformEcdsa, 'ok', `${what}: the platform's ECDSA after install()`);
}

function checkCannotRun(wc, why, causeName, what) {
  assert.equal(wc.generateKey.name, 'NotSupportedError', `${what}: subtle.generateKey: ${JSON.stringify(wc.generateKey)}`);
  assert.ok(
    wc.generateKey.message.startsWith('generateKey: mldsa-simd cannot run here: ') && wc.generateKey.message.includes(why),
    `${what}: ${wc.generateKey.message}`,
  );
  assert.equal(wc.generateKey.cause, causeName, `${what}: subtle.generateKey's cause`);
  // (Before any check of the key data, which would have been a RangeError, then a DataError.)
  assert.deepEqual(wc.importKey, { ...wc.generateKey, message: wc.generateKey.message.replace('generateKey', 'importKey') }, `${what}: subtle.importKey`);
}

// ---------------------------------------------------------------- Node

// Each child runs `setup`, then imports (or requires) an entry and prints its probe.
const REFUSE =
  'WebAssembly.Module = function Module() { throw new WebAssembly.CompileError(' +
  '"WebAssembly.Module(): Refused to compile or instantiate WebAssembly module (as a browser with such a policy)"); };';

/** Writes the child into the consumer folder (where the package resolves), runs it, and returns its probe. */
function runChild({ setup = '', entry, cjs = false, flags = [] }) {
  const file = path.join(consumerDir, `.check-unsupported.${cjs ? 'cjs' : 'mjs'}`);
  // mldsa-simd/keys of the same runtime as the entry (it takes that entry's parameter-set objects).
  const keys = JSON.stringify(entry === PKG_NAME ? `${PKG_NAME}/keys` : entry.replace(/index(\.\w+)$/, 'keys$1'));
  const load = cjs
    ? `const m = require(${JSON.stringify(entry)}); const w = require('${PKG_NAME}/webcrypto'); const k = require(${keys});`
    : `const m = await import(${JSON.stringify(entry)}); const w = await import('${PKG_NAME}/webcrypto'); const k = await import(${keys});`;
  const print = "console.log('RESULT ' + JSON.stringify(await probe(m, w, k)));";
  fs.writeFileSync(file, `${setup}\n${PROBE}\n${cjs ? `(async () => {\n${load}\n${print}\n})();` : `${load}\n${print}`}\n`);
  try {
    const r = spawnSync(process.execPath, [...flags, file], { cwd: consumerDir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } });
    const line = (r.stdout || '').split('\n').find((l) => l.startsWith('RESULT '));
    assert.ok(r.status === 0 && line, `child failed (status ${r.status}):\n${r.stderr}\n${r.stdout}`);
    return JSON.parse(line.slice(7));
  } finally {
    fs.rmSync(file, { force: true });
  }
}

test('Node: with no WebAssembly, or a compile that is refused, the import succeeds and calls say why', { skip, timeout: 180_000 }, () => {
  const pkgDir = installedPackageDir();
  const noWasm = 'delete globalThis.WebAssembly;';
  const cases = [
    ['ESM, node entry, WebAssembly deleted', { setup: noWasm, entry: PKG_NAME }, NO_WASM, 'ReferenceError'],
    ['CommonJS, node entry, WebAssembly deleted', { setup: noWasm, entry: PKG_NAME, cjs: true }, NO_WASM, 'ReferenceError'],
    [
      'ESM, browser entry (index.mjs), WebAssembly deleted',
      { setup: noWasm, entry: pathToFileURL(path.join(pkgDir, 'index.mjs')).href },
      NO_WASM,
      'ReferenceError',
    ],
    ['ESM, node entry, --jitless', { entry: PKG_NAME, flags: ['--jitless'] }, NO_WASM, 'ReferenceError'],
    ['ESM, node entry, compile refused', { setup: REFUSE, entry: PKG_NAME }, WHAT_TO_ADD, 'CompileError'],
    ['CommonJS, browser entry (index.cjs), compile refused', { setup: REFUSE, entry: path.join(pkgDir, 'index.cjs'), cjs: true }, WHAT_TO_ADD, 'CompileError'],
  ];
  for (const [what, child, why, causeName] of cases) checkUnsupported(runChild(child), why, causeName, what);
  // An instance refused once at import (memory, say), not the compile: the
  // package can run, and the first call makes the instance.
  const once =
    'const I = WebAssembly.Instance; let refused = false;' +
    'WebAssembly.Instance = new Proxy(I, { construct(t, a, n) { if (!refused) { refused = true; throw new WebAssembly.RuntimeError("refused once"); } return Reflect.construct(t, a, n); } });';
  const late = runChild({ setup: once, entry: PKG_NAME });
  assert.equal(late.supported, true, 'an instance refused once at import: isSupported()');
  assert.equal(late.roundTrip, true, 'an instance refused once at import: the first call makes it and signs');
  // And where nothing is refused:
  const r = runChild({ entry: PKG_NAME });
  assert.equal(r.supported, true);
  assert.equal(r.roundTrip, true);
  assert.deepEqual(
    Object.values(r.calls).filter((e) => e !== null),
    [],
  );
  assert.match(r.spki.message, /^spki: not a DER/);
  assert.equal(r.webcrypto.supports, true);
  assert.equal(r.webcrypto.generateKey, 'ok');
});

// ---------------------------------------------------------------- Chromium

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>mldsa-simd under a Content-Security-Policy</title></head>
<body><pre id="out">loading…</pre><script type="module" src="/csp-test/page.mjs"></script></body></html>`;

// An external module script: the policy (script-src 'self') refuses inline ones.
const PAGE_SCRIPT = `
import * as m from '/node_modules/${PKG_NAME}/index.mjs';
import * as w from '/node_modules/${PKG_NAME}/webcrypto.mjs';
import * as k from '/node_modules/${PKG_NAME}/keys.mjs';
${PROBE}
const r = await probe(m, w, k);
document.getElementById('out').textContent = JSON.stringify(r, null, 1);
window.__cspResult = r;
`;

test("Chromium: under script-src 'self' the import succeeds, isSupported() is false and calls say what to add; with 'wasm-unsafe-eval' it works", {
  skip,
  timeout: 180_000,
}, async (t) => {
  const scriptDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mldsa-csp-'));
  fs.writeFileSync(path.join(scriptDir, 'page.mjs'), PAGE_SCRIPT);
  try {
    for (const policy of ["script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"]) {
      const server = await serve(consumerDir, PAGE, { '/csp-test/': scriptDir }, { 'content-security-policy': policy });
      let browser;
      try {
        browser = await openPage({ viewport: { width: 900, height: 600 } });
        const { page, problems, offsite } = browser;
        await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: 'load' });
        await page
          .waitForFunction(() => window.__cspResult !== undefined, null, { timeout: 60_000 })
          .catch((e) => {
            throw new Error(`no result from the page under "${policy}" (the import failed?): ${problems.join('; ')}`, { cause: e });
          });
        const r = await page.evaluate(() => window.__cspResult);
        const refusals = problems.filter((p) => /wasm-unsafe-eval|Content Security Policy/i.test(p));
        assert.deepEqual(
          problems.filter((p) => !refusals.includes(p)),
          [],
          `"${policy}": page errors`,
        );
        assert.deepEqual(offsite, []);
        if (policy.includes('wasm-unsafe-eval')) {
          assert.deepEqual(refusals, [], `"${policy}": the browser refused something`);
          assert.equal(r.supported, true);
          assert.equal(r.roundTrip, true);
          assert.deepEqual(
            Object.values(r.calls).filter((e) => e !== null),
            [],
            `"${policy}": a call threw`,
          );
          assert.match(r.spki.message, /^spki: not a DER/);
          assert.equal(r.webcrypto.supports, true);
          assert.equal(r.webcrypto.generateKey, 'ok');
          assert.equal(r.webcrypto.installed, true);
        } else {
          checkUnsupported(r, WHAT_TO_ADD, 'CompileError', `Chromium, "${policy}"`, { platformMlDsa: true });
          t.diagnostic(`Chromium, "${policy}": ${r.calls.keygen.message} (cause: ${r.calls.keygen.cause.name}: ${r.calls.keygen.cause.message})`);
        }
      } finally {
        await browser?.close();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  } finally {
    fs.rmSync(scriptDir, { recursive: true, force: true });
  }
});
