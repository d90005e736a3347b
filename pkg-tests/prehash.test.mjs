// mldsa-simd/prehash: the twelve pre-hash functions of HashML-DSA (FIPS 204
// §5.4) as hash functions. lib/prehash-checks.mjs checks them (against
// node:crypto, @noble/hashes and NIST's examples, on every length up to 300
// bytes, around every block size and the 64 KiB piece, a 3 MiB message and
// fast-check's random messages cut at random points; hostile and changing
// arguments; the life of a hasher; HashML-DSA against @noble/post-quantum) in
// a child process for each path a function can take (lib/prehash-child.mjs):
// node:crypto's native hash (Node, Bun, Deno), our JavaScript (a browser: the
// child's process.getBuiltinModule gives nothing), and a node:crypto that
// differs from FIPS 202/180-4 for some functions, which must then fall back to
// JavaScript. And the CommonJS entry gives the same functions.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { IMPL, pkgTestsDir, consumerModuleUrl, consumerRequire, prehash as PH } from './lib/load.mjs';
import { Rng, toHex } from './lib/util.mjs';

const skip = IMPL === 'noble' ? 'tests mldsa-simd/prehash itself (MLDSA_IMPL=noble)' : false;
const rng = new Rng('prehash');
const seed = rng.int(2 ** 31);
test('random seed', (t) => t.diagnostic(`prehash: MLDSA_TEST_SEED=${rng.seedHex} (fast-check seed ${seed}; impl: ${IMPL})`));

// node:crypto's names of the exports: sha512_224 → sha512-224, sha3_256 → sha3-256.
const NODE_NAMES = Object.keys(PH).map((n) => n.replace('_', '-'));

/** The report of lib/prehash-child.mjs in `mode`. */
function child(mode) {
  const args = [path.join(pkgTestsDir, 'lib', 'prehash-child.mjs'), mode, consumerModuleUrl('mldsa-simd/prehash'), consumerModuleUrl(), String(seed)];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 10 * 60_000 });
  assert.equal(r.status, 0, `the ${mode} child failed: ${r.error ?? r.stderr}`);
  return JSON.parse(r.stdout);
}

/** One subtest per section of the child's report. */
async function sections(t, report) {
  for (const [name, problems, count, ms] of report.sections) {
    await t.test(`${name} (${ms} ms)`, () => assert.deepEqual(problems, [], `${count} problems (the first ${problems.length} listed)`));
  }
}

test('node:crypto path: every function hashes with node:crypto, and every check passes', { skip, timeout: 10 * 60_000 }, async (t) => {
  const report = child('platform');
  assert.deepEqual(report.asked, ['node:crypto'], 'node:crypto is looked up once');
  assert.deepEqual(Object.keys(report.made).sort(), [...NODE_NAMES].sort(), 'the hashes asked of node:crypto');
  // Two for the look-up and its probe; more: the function hashed with it.
  for (const n of NODE_NAMES) assert.ok(report.made[n] > 2, `${n}: node:crypto made ${report.made[n]} hashes: the probe's only`);
  await sections(t, report);
});

test('JavaScript path (no node:crypto): every check passes', { skip, timeout: 10 * 60_000 }, async (t) => {
  const report = child('js');
  assert.deepEqual(report.asked, ['node:crypto'], 'node:crypto is looked up once');
  assert.deepEqual(report.made, {});
  await sections(t, report);
});

test('a node:crypto that differs from FIPS for some functions: those hash in JavaScript, the others not', { skip, timeout: 10 * 60_000 }, async (t) => {
  const report = child('lying');
  const wrong = ['shake128', 'shake256', 'sha3-256', 'sha512-224']; // (lib/prehash-child.mjs)
  for (const n of NODE_NAMES) {
    if (wrong.includes(n)) assert.ok((report.made[n] ?? 0) <= 2, `${n}: used although it gives another digest (${report.made[n]} hashes)`);
    else assert.ok(report.made[n] > 2, `${n}: not used (${report.made[n] ?? 0} hashes)`);
  }
  await sections(t, report);
});

test('CommonJS: require("mldsa-simd/prehash") gives the same functions', { skip }, () => {
  const cjs = consumerRequire()('mldsa-simd/prehash');
  assert.deepEqual(Object.keys(cjs).sort(), Object.keys(PH).sort());
  const msg = rng.bytes(1000);
  for (const [name, f] of Object.entries(PH)) {
    assert.equal(toHex(cjs[name](msg)), toHex(f(msg)), name);
    assert.equal(toHex(cjs[name].oid), toHex(f.oid), name);
    assert.equal(cjs[name].outputLen, f.outputLen, name);
  }
});
