// The installed package in headless Debian Chromium: a tiny loopback HTTP server
// serves the consumer folder; a page imports node_modules/mldsa-simd from a
// <script type="module"> and round-trips keygen/sign/verify for all three sets.
// Results are checked against noble in Node; a screenshot goes to pkg-tests/artifacts/.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { IMPL, PKG_NAME, consumerDir, installedPackageDir, artifactsDir } from './lib/load.mjs';
import { toHex } from './lib/util.mjs';
import { openPage } from './lib/chromium.mjs';
import { serve } from './lib/serve.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;

/** The browser entry of the installed package, resolved from its exports like a bundler would. */
function browserEntry(dir) {
  const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const pickTarget = (e) => {
    if (typeof e === 'string') return e;
    if (!e || typeof e !== 'object') return null;
    for (const cond of ['browser', 'import', 'default'])
      if (e[cond] !== undefined) {
        const t = pickTarget(e[cond]);
        if (t) return t;
      }
    return null;
  };
  const exp = pj.exports && (typeof pj.exports === 'string' || pj.exports['.'] === undefined ? pj.exports : pj.exports['.']);
  return (pickTarget(exp) || pj.module || 'index.mjs').replace(/^\.\//, '');
}

const SEED_HEX = '7C9935A0B07694AA0C6D10E4DB6B1ADD2FD81A25CCB148032DCD739936737F2D';
const MSG = new TextEncoder().encode('signed in a browser');
const CTX = Uint8Array.of(1, 2, 3);

function page(entry) {
  const input = JSON.stringify({ seed: SEED_HEX, msg: Array.from(MSG), ctx: Array.from(CTX) });
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>mldsa-simd in Chromium</title>
<style>body{font:14px/1.4 monospace;margin:1em} .ok{color:#070} .bad{color:#b00}</style></head>
<body><h1>mldsa-simd: browser round trip</h1><pre id="out">loading…</pre>
<script type="module">
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '/node_modules/${PKG_NAME}/${entry}';
const input = ${input};
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('').toUpperCase();
const unhex = (s) => new Uint8Array(s.match(/../g).map((h) => parseInt(h, 16)));
const out = document.getElementById('out');
const result = { sets: {} };
try {
  const msg = new Uint8Array(input.msg), context = new Uint8Array(input.ctx);
  const lines = [];
  for (const [name, alg] of Object.entries({ ml_dsa44, ml_dsa65, ml_dsa87 })) {
    const t0 = performance.now();
    const fixed = alg.keygen(unhex(input.seed));
    const det = alg.sign(msg, fixed.secretKey, { context, extraEntropy: false });
    const kp = alg.keygen();
    const sig = alg.sign(msg, kp.secretKey, { context });
    const ok = alg.verify(sig, msg, kp.publicKey, { context });
    const tampered = sig.slice(); tampered[0] ^= 1;
    const r = {
      pk: hex(fixed.publicKey),
      det: hex(det),
      detVerifies: alg.verify(det, msg, fixed.publicKey, { context }),
      verifies: ok,
      tamperedVerifies: alg.verify(tampered, msg, kp.publicKey, { context }),
      wrongContext: alg.verify(sig, msg, kp.publicKey),
      getPublicKey: hex(alg.getPublicKey(kp.secretKey)) === hex(kp.publicKey),
      ms: performance.now() - t0,
    };
    result.sets[name] = r;
    const good = r.verifies && r.detVerifies && !r.tamperedVerifies && !r.wrongContext && r.getPublicKey;
    lines.push('<span class="' + (good ? 'ok' : 'bad') + '">' + name + ': keygen, sign, verify ' + (good ? 'OK' : 'FAILED') +
      ' (' + r.ms.toFixed(1) + ' ms); tampered signature ' + (r.tamperedVerifies ? 'ACCEPTED' : 'rejected') + '</span>');
  }
  result.userAgent = navigator.userAgent;
  out.innerHTML = lines.join('\\n') + '\\n\\n' + navigator.userAgent;
} catch (e) {
  result.error = String(e && e.stack || e);
  out.textContent = 'ERROR: ' + result.error;
}
window.__mldsaResult = result;
</script></body></html>`;
}

test('browser: the installed package round-trips in headless Chromium', { skip, timeout: 180_000 }, async (t) => {
  const entry = browserEntry(installedPackageDir());
  const server = await serve(consumerDir, page(entry));
  const base = `http://127.0.0.1:${server.address().port}`;
  let browser;
  try {
    browser = await openPage({ viewport: { width: 900, height: 360 } });
    const { page: pg, problems, offsite } = browser;
    await pg.goto(`${base}/`, { waitUntil: 'load' });
    await pg.waitForFunction(() => window.__mldsaResult !== undefined, null, { timeout: 120_000 });
    const result = await pg.evaluate(() => window.__mldsaResult);
    fs.mkdirSync(artifactsDir, { recursive: true });
    await pg.screenshot({ path: path.join(artifactsDir, 'browser.png') });
    t.diagnostic(`browser: ${result.userAgent || '?'}; entry node_modules/${PKG_NAME}/${entry}; screenshot pkg-tests/artifacts/browser.png`);

    assert.equal(result.error, undefined, `the page threw: ${result.error}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(offsite, [], 'the page tried to reach other hosts');
    for (const key of ['ml_dsa44', 'ml_dsa65', 'ml_dsa87']) {
      const r = result.sets[key];
      assert.ok(r, `no result for ${key}`);
      const { publicKey, secretKey } = noble[key].keygen(Buffer.from(SEED_HEX, 'hex'));
      assert.equal(r.pk, toHex(publicKey), `${key}: keygen(seed) in the browser differs from noble`);
      assert.equal(r.det, toHex(noble[key].sign(MSG, secretKey, { context: CTX, extraEntropy: false })), `${key}: deterministic signature differs from noble`);
      assert.equal(r.detVerifies, true, `${key}: deterministic signature does not verify`);
      assert.equal(r.verifies, true, `${key}: hedged signature does not verify`);
      assert.equal(r.tamperedVerifies, false, `${key}: tampered signature verifies`);
      assert.equal(r.wrongContext, false, `${key}: signature verifies without its context`);
      assert.equal(r.getPublicKey, true, `${key}: getPublicKey(sk) differs from keygen's public key`);
      t.diagnostic(`browser: ${key} keygen+sign×2+verify×4 in ${r.ms.toFixed(1)} ms`);
    }
  } finally {
    await browser?.close();
    await new Promise((r) => server.close(r));
  }
});
