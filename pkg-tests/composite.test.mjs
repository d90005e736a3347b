// mldsa-simd/composite against the draft's test vectors
// (../shared/vectors/composite/, draft-ietf-lamps-pq-composite-sigs at commit
// 60fcb1e): the same checks (lib/composite-checks.mjs) in Node 20, Node 24,
// headless Chromium and Firefox ESR. Each platform serves the combinations
// whose traditional algorithm its WebCrypto has; for the others every
// operation needing it must reject with a NotSupportedError, and which those
// are is asserted per platform (the README's table). In Node 20, besides: each
// check as a test of its own (non-separability among them), the hostile-object
// and secret-residue rules.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { IMPL, PKG_NAME, consumerDir, repoRoot, node24, importFromConsumer } from './lib/load.mjs';
import { checkAll } from './lib/composite-checks.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const vectorsDir = path.join(repoRoot, '..', 'shared', 'vectors', 'composite');
const vectorsFile = path.join(vectorsDir, 'testvectors.json');
const vectors = JSON.parse(fs.readFileSync(vectorsFile, 'utf8'));
const checksUrl = pathToFileURL(path.join(repoRoot, 'pkg-tests', 'lib', 'composite-checks.mjs')).href;

// What each platform's WebCrypto lacks (the README's table says the same).
const BRAINPOOL = ['MLDSA65-ECDSA-brainpoolP256r1-SHA512', 'MLDSA87-ECDSA-brainpoolP384r1-SHA512'];
const LACKS = {
  'Node 20': BRAINPOOL,
  'Node 24': BRAINPOOL,
  Chromium: [...BRAINPOOL, 'MLDSA87-Ed448-SHAKE256'],
  'Firefox ESR': [...BRAINPOOL, 'MLDSA87-Ed448-SHAKE256'],
};

/** Asserts a platform's results: every vector seen, every check true, the unsupported ones exactly `lacks`, each naming its algorithm. */
function assertResults(r, lacks, where) {
  assert.deepEqual(Object.keys(r).sort(), vectors.tests.map((t) => t.tcId.slice(3)).sort(), `${where}: every vector checked`);
  const unsupported = Object.keys(r).filter((n) => r[n].unsupported).sort();
  assert.deepEqual(unsupported, [...lacks].sort(), `${where}: the combinations its WebCrypto lacks`);
  for (const n of unsupported) {
    const alg = n.includes('brainpool') ? n.match(/brainpoolP\d+r1/)[0] : n.match(/Ed448|Ed25519|RSA|ECDSA-P\d+/)[0];
    assert.match(r[n].unsupported, new RegExp(`no .*${alg}`), `${where}: ${n}: the message names the algorithm`);
  }
  for (const [n, { checks, unsupported: u }] of Object.entries(r)) {
    const bad = Object.entries(checks).filter(([, v]) => v !== true);
    assert.deepEqual(bad, [], `${where}: ${n}: failed checks`);
    assert.ok(Object.keys(checks).length >= (n.startsWith('ML-DSA') ? 3 : u ? 9 : 22), `${where}: ${n}: all checks ran`);
  }
}

const load = async () => {
  const [{ composite, names }, main, { shake256 }] = await Promise.all([
    importFromConsumer(`${PKG_NAME}/composite`), importFromConsumer(PKG_NAME), importFromConsumer(`${PKG_NAME}/prehash`),
  ]);
  return { composite, names, shake256, mlDsa: { 44: main.ml_dsa44, 65: main.ml_dsa65, 87: main.ml_dsa87 } };
};

test('composite: names are the draft\'s 18 identifiers; pure ML-DSA and unknown names are TypeErrors', { skip }, async () => {
  const { composite, names } = await load();
  assert.equal(names.length, 18);
  const fromVectors = vectors.tests.map((t) => t.tcId.slice(3)).filter((n) => !n.startsWith('ML-DSA'));
  assert.deepEqual([...names].sort(), fromVectors.sort());
  names.forEach((n, i) => assert.equal(composite(n).oid, `1.3.6.1.5.5.7.6.${37 + i}`));
  assert.equal(composite(names[0]), composite(names[0]));
  for (const n of ['ML-DSA-44', 'id-MLDSA44-Ed25519-SHA512', 'mldsa44-ed25519-sha512', '']) assert.throws(() => composite(n), TypeError);
  assert.throws(() => composite('ML-DSA-65'), /plain ML-DSA.*ml_dsa65/);
  assert.throws(() => composite(1), /^TypeError: name: expected a string, got number$/);
});

let node20;
test('composite: every vector in Node 20', { skip, timeout: 120_000 }, async (t) => {
  node20 = await checkAll(await load(), vectors);
  assertResults(node20, LACKS['Node 20'], 'Node 20');
  t.diagnostic(`Node 20: ${Object.keys(node20).filter((n) => !node20[n].unsupported && !n.startsWith('ML-DSA')).length} combinations verified`);
});

// Each check, and the non-separability ones in particular, as a test of its own.
const CHECKS = [
  'vector verifies', 'vector with context verifies', 'vector refused under another context', 'pkcs8 imports to the raw key',
  'raw key exports to the pkcs8', 'certificate SPKI imports to the public key', 'public key exports to the certificate SPKI',
  'certificate signature verifies under its own key', 'our signature with the vector key verifies, also under the certificate key',
  'keygen, sign, verify (with context)', 'flipped bit in the ML-DSA half refused', 'flipped bit in the traditional half refused',
  'swapped half refused', 'signature of another combination refused', 'ML-DSA half refused as a pure ML-DSA signature',
  'bad signature bytes: false', 'bad public key bytes: false', 'wrong argument types: TypeError naming the argument',
];
for (const c of CHECKS) {
  test(`composite (Node 20): ${c}, for every combination served`, { skip }, () => {
    assert.ok(node20, 'the Node 20 run above did not finish');
    const served = Object.entries(node20).filter(([n, r]) => !r.unsupported && !n.startsWith('ML-DSA'));
    assert.equal(served.length, 16);
    for (const [n, r] of served) assert.equal(r.checks[c], true, `${n}: ${r.checks[c]}`);
  });
}

test('composite: every vector in Node 24', { skip, timeout: 180_000 }, () => {
  const script = `
    import fs from 'node:fs';
    import { composite } from '${PKG_NAME}/composite';
    import { ml_dsa44, ml_dsa65, ml_dsa87 } from '${PKG_NAME}';
    import { shake256 } from '${PKG_NAME}/prehash';
    const { checkAll } = await import(${JSON.stringify(checksUrl)});
    const vectors = JSON.parse(fs.readFileSync(${JSON.stringify(vectorsFile)}, 'utf8'));
    const r = await checkAll({ composite, shake256, mlDsa: { 44: ml_dsa44, 65: ml_dsa65, 87: ml_dsa87 } }, vectors);
    process.stdout.write(JSON.stringify({ version: process.version, r }));`;
  const file = path.join(consumerDir, 'composite-node24.mjs');
  fs.writeFileSync(file, script);
  try {
    const p = spawnSync(node24(), ['--no-warnings', file], { cwd: consumerDir, encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(p.status, 0, p.stderr);
    const { version, r } = JSON.parse(p.stdout);
    assert.match(version, /^v24\./);
    assertResults(r, LACKS['Node 24'], 'Node 24');
  } finally {
    fs.rmSync(file, { force: true });
  }
});

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>mldsa-simd/composite</title></head>
<body><pre id="out">running…</pre>
<script type="module">
import { composite } from '/node_modules/${PKG_NAME}/composite.mjs';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from '/node_modules/${PKG_NAME}/index.mjs';
import { shake256 } from '/node_modules/${PKG_NAME}/prehash.mjs';
import { checkAll } from '/lib/composite-checks.mjs';
try {
  const vectors = await (await fetch('/vectors/testvectors.json')).json();
  const r = await checkAll({ composite, shake256, mlDsa: { 44: ml_dsa44, 65: ml_dsa65, 87: ml_dsa87 } }, vectors);
  window.__result = { r, userAgent: navigator.userAgent };
} catch (e) {
  window.__result = { error: String(e && e.stack || e) };
}
document.getElementById('out').textContent = 'done';
</script></body></html>`;

async function inBrowser(t, where, open) {
  const { serve } = await import('./lib/serve.mjs');
  const server = await serve(consumerDir, PAGE, { '/lib/': path.join(repoRoot, 'pkg-tests', 'lib'), '/vectors/': vectorsDir });
  let browser;
  try {
    browser = await open();
    const { page, problems } = browser;
    await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__result !== undefined, { timeout: 240_000, polling: 250 });
    const { r, userAgent, error } = await page.evaluate(() => window.__result);
    assert.equal(error, undefined, `${where}: the page threw: ${error}`);
    assert.deepEqual(problems, []);
    t.diagnostic(`${where}: ${userAgent}`);
    assertResults(r, LACKS[where], where);
  } finally {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

test('composite: every vector in headless Chromium', { skip, timeout: 300_000 }, async (t) => {
  const { openPage } = await import('./lib/chromium.mjs');
  await inBrowser(t, 'Chromium', () => openPage({ viewport: { width: 600, height: 300 } }));
});

test('composite: every vector in headless Firefox ESR', { skip, timeout: 300_000 }, async (t) => {
  const { openFirefox } = await import('./lib/firefox.mjs');
  await inBrowser(t, 'Firefox ESR', openFirefox);
});
