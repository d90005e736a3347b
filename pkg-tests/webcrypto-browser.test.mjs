// mldsa-simd/webcrypto in headless Chromium. Debian's Chromium 156 has native
// ML-DSA, so a plain install() leaves crypto.subtle alone, and
// install({ force: true }) puts ours in its place; then jose (the
// repository's dev dependency, its browser build) generates an ML-DSA-65
// key, signs and verifies a JWT and a JWS, and exports and imports the JWK,
// all through crypto.subtle, and the same in a module Worker. The keys are
// the platform's own where it has ML-DSA (they clone), else ours (which pass
// the checks jose makes on CryptoKeys, and which structuredClone and
// postMessage refuse with a DataCloneError). Where the platform has ML-DSA,
// signatures also cross between it and ours, both ways.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IMPL, PKG_NAME, consumerDir, artifactsDir, repoRoot } from './lib/load.mjs';
import { openPage } from './lib/chromium.mjs';
import { serve } from './lib/serve.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>mldsa-simd/webcrypto + jose</title></head>
<body><pre id="out">loading…</pre>
<script type="module">
import { install, CryptoKey as OurKey } from '/node_modules/${PKG_NAME}/webcrypto.mjs';
import * as jose from '/jose/dist/webapi/index.js';
const result = {};
try {
  const data = new TextEncoder().encode('across');
  const ctx = { name: 'ML-DSA-65', context: new Uint8Array([5]) };
  const nativeVerify = SubtleCrypto.prototype.verify, nativeImport = SubtleCrypto.prototype.importKey;
  let nativeSide;
  try {
    const k = await crypto.subtle.generateKey('ML-DSA-65', true, ['sign', 'verify']);
    nativeSide = { spki: await crypto.subtle.exportKey('spki', k.publicKey), sig: await crypto.subtle.sign(ctx, k.privateKey, data) };
    result.before = 'native';
  } catch (e) {
    result.before = e.name;
  }
  result.plain = await install();
  result.forced = await install({ force: true });
  const { publicKey, privateKey } = await jose.generateKeyPair('ML-DSA-65', { extractable: true });
  result.keysInJose = [privateKey, publicKey].map((k) => (k instanceof OurKey ? 'ours' : 'platform'));
  const jwt = await new jose.SignJWT({ sub: 'browser' }).setProtectedHeader({ alg: 'ML-DSA-65' }).setIssuedAt().sign(privateKey);
  const { payload } = await jose.jwtVerify(jwt, publicKey);
  result.sub = payload.sub;
  const jwk = await jose.exportJWK(privateKey);
  result.jwkKeys = Object.keys(jwk).sort();
  const imported = await jose.importJWK(jwk, 'ML-DSA-65');
  const jws = await new jose.CompactSign(new TextEncoder().encode('payload')).setProtectedHeader({ alg: 'ML-DSA-65' }).sign(imported);
  const verified = await jose.compactVerify(jws, await jose.importJWK(await jose.exportJWK(publicKey), 'ML-DSA-65'));
  result.payload = new TextDecoder().decode(verified.payload);
  const parts = jws.split('.');
  const bad = parts[0] + '.' + parts[1] + '.' + (parts[2][0] === 'A' ? 'B' : 'A') + parts[2].slice(1);
  result.tampered = await jose.compactVerify(bad, publicKey).then(() => 'accepted', (e) => e.code);
  result.ours = privateKey instanceof CryptoKey;
  // Where the platform has ML-DSA, the keys are its own and clone; elsewhere ours
  // cannot be cloned: a DataCloneError, never a copy as {}.
  const refused = (f) => { try { f(); return 'no error'; } catch (e) { return e.name; } };
  const port = new MessageChannel().port1;
  result.cloned = [refused(() => structuredClone(privateKey)), refused(() => port.postMessage(publicKey))];
  port.close();
  const ec = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  result.native = ec.privateKey instanceof CryptoKey && !(ec.privateKey instanceof OurKey);
  result.supports = SubtleCrypto.supports('sign', 'ML-DSA-65');
  if (nativeSide) {
    // The platform's signature, verified by ours; ours, verified by the platform.
    const theirs = await crypto.subtle.importKey('spki', nativeSide.spki, 'ML-DSA-65', true, ['verify']);
    result.nativeSigInOurs = await crypto.subtle.verify(ctx, theirs, nativeSide.sig, data);
    const mine = await crypto.subtle.generateKey('ML-DSA-65', true, ['sign', 'verify']);
    const sig = await crypto.subtle.sign(ctx, mine.privateKey, data);
    const spki = await crypto.subtle.exportKey('spki', mine.publicKey);
    const inNative = await nativeImport.call(crypto.subtle, 'spki', spki, 'ML-DSA-65', true, ['verify']);
    result.ourSigInNative = !(inNative instanceof OurKey) && (await nativeVerify.call(crypto.subtle, ctx, inNative, sig, data));
  }
  // The same in a module Worker: install() there, then sign and verify through its crypto.subtle.
  const workerCode = [
    "import { install, CryptoKey as OurKey } from '" + location.origin + "/node_modules/${PKG_NAME}/webcrypto.mjs';",
    "const forced = await install({ force: true });",
    "const k = await crypto.subtle.generateKey('ML-DSA-44', false, ['sign', 'verify']);",
    "const d = new Uint8Array([1, 2, 3]);",
    "const sig = await crypto.subtle.sign('ML-DSA-44', k.privateKey, d);",
    "let cloned = 'no error';",
    "const channel = new MessageChannel();",
    "try { channel.port1.postMessage(k.privateKey); } catch (e) { cloned = e.name; }",
    "channel.port1.close();",
    "postMessage({ forced, ours: k.privateKey instanceof OurKey, ok: await crypto.subtle.verify('ML-DSA-44', k.publicKey, sig, d),",
    "  bad: await crypto.subtle.verify('ML-DSA-44', k.publicKey, sig, new Uint8Array(3)), cloned });",
  ].join('\\n');
  const worker = new Worker(URL.createObjectURL(new Blob([workerCode], { type: 'text/javascript' })), { type: 'module' });
  result.worker = await new Promise((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => reject(new Error('worker: ' + e.message));
  });
  worker.terminate();
  result.userAgent = navigator.userAgent;
} catch (e) {
  result.error = String(e && e.stack || e);
}
document.getElementById('out').textContent = JSON.stringify(result, null, 2);
window.__result = result;
</script></body></html>`;

test('webcrypto: install() and jose in headless Chromium', { skip, timeout: 180_000 }, async (t) => {
  const server = await serve(consumerDir, PAGE, { '/jose/': path.join(repoRoot, 'node_modules', 'jose') });
  let browser;
  try {
    browser = await openPage({ viewport: { width: 900, height: 420 } });
    const { page, problems, offsite } = browser;
    await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 120_000 });
    const r = await page.evaluate(() => window.__result);
    fs.mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: path.join(artifactsDir, 'webcrypto-jose.png') });
    t.diagnostic(`webcrypto-browser: ${r.userAgent}`);
    assert.equal(r.error, undefined, `the page threw: ${r.error}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(offsite, []);
    const native = r.before === 'native';
    t.diagnostic(`webcrypto-browser: native ML-DSA in this Chromium: ${native}; install() ${r.plain}, install({ force: true }) ${r.forced}`);
    const { userAgent, ...seen } = r;
    assert.deepEqual(seen, {
      before: native ? 'native' : 'NotSupportedError',
      plain: !native,
      forced: true,
      keysInJose: Array(2).fill(native ? 'platform' : 'ours'),
      sub: 'browser',
      jwkKeys: ['alg', 'kty', 'priv', 'pub'],
      payload: 'payload',
      tampered: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      ours: true,
      cloned: Array(2).fill(native ? 'no error' : 'DataCloneError'),
      native: true,
      supports: true,
      worker: { forced: true, ours: !native, ok: true, bad: false, cloned: native ? 'no error' : 'DataCloneError' },
      ...(native ? { nativeSigInOurs: true, ourSigInNative: true } : {}),
    });
  } finally {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
