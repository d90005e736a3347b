// A script of the same realm that replaces built-ins after the package was
// imported never sees a seed, K or the wasm memory (which holds every live
// prepared signer's expanded key). lib/webcrypto-builtins-child.mjs replaces
// them with recording spies, then generates, imports (pkcs8, raw-seed, jwk),
// uses and drops non-extractable WebCrypto keys, and runs the main API's
// signers, signing and key-format imports and exports; it attributes each
// recorded value that holds a seed (or K, or a view of the wasm memory) to
// the source file of the code that called the built-in. Then it runs the Node
// pool of mldsa-simd/worker (keygen, sign, prepared signers, close): the
// modules of the calling thread must hand no spy a secret either; what
// piscina (a dependency) and Node's internals under it do with a task is
// reported, not failed.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { IMPL, consumerDir, pkgTestsDir, importFromConsumer } from './lib/load.mjs';

const skip = IMPL === 'noble' ? 'mldsa-simd/webcrypto is not part of the noble API (MLDSA_IMPL=noble)' : false;

/** The child's report: { leaks: [{ hook, caller, what, count }], hits: { hook: count }, hooks, collected }. */
function run() {
  // Modules in the consumer folder that re-export the installed package (resolved as a user's import is).
  const url = (name, specifier) => {
    const file = path.join(consumerDir, `${name}-${process.pid}.mjs`);
    fs.writeFileSync(file, `export * from ${JSON.stringify(specifier)};\n`);
    return file;
  };
  const files = [url('builtins-webcrypto', 'mldsa-simd/webcrypto'), url('builtins-main', 'mldsa-simd'), url('builtins-worker', 'mldsa-simd/worker')];
  try {
    const child = path.join(pkgTestsDir, 'lib', 'webcrypto-builtins-child.mjs');
    const r = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', child, ...files.map((f) => pathToFileURL(f).href)], {
      cwd: consumerDir, encoding: 'utf8', maxBuffer: 1 << 24, timeout: 120_000,
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  } finally {
    for (const f of files) fs.rmSync(f, { force: true });
  }
}

const report = skip ? undefined : run();
const list = (leaks) => leaks.map((l) => `${l.hook} (called from ${l.caller}): ${l.what} ×${l.count}`);

test('built-ins replaced after the import never see a seed through mldsa-simd/webcrypto', { skip }, (t) => {
  const { leaks, hits, hooks, collected } = report;
  t.diagnostic(`webcrypto-builtins: ${hooks} built-ins replaced, ${Object.values(hits).reduce((a, b) => a + b, 0)} calls recorded`);
  // The spies were live: the package's calls reached some of them.
  assert.ok(hooks > 250, `only ${hooks} built-ins replaced`);
  assert.ok(Object.values(hits).reduce((a, b) => a + b, 0) > 0, 'no spy saw a call');
  assert.ok(collected, 'the dropped keys were collected (their finalizers ran with the spies in place)');
  assert.deepEqual(list(leaks.filter((l) => l.caller === 'webcrypto')), [], 'built-ins that webcrypto.js called with key material');
  assert.deepEqual(list(leaks.filter((l) => l.caller === 'unknown' || l.caller === 'node')), [], 'built-ins called by the platform with key material');
});

test('nor through the main API and its wasm glue', { skip }, (t) => {
  const theirs = report.leaks.filter((l) => l.caller.startsWith('main'));
  for (const line of list(theirs)) t.diagnostic(line);
  assert.deepEqual(list(theirs), []);
});

test('nor through the calling thread\'s side of mldsa-simd/worker', { skip }, (t) => {
  const { leaks, hits } = report;
  // The pool ran with the spies in place: its postMessage reached them.
  assert.ok(hits['MessagePort.prototype.postMessage'] > 0, 'no task was posted while the spies were live');
  // One forget for the freed signer, one from the finalizer of the dropped one, one forgetPool at close.
  assert.ok(hits['BroadcastChannel.prototype.postMessage'] >= 3, 'the pool\'s finalizer did not run while the spies were live');
  // piscina's own calls (and Node's under them, or with no package code on
  // the stack while the pool runs) are outside the package's code: reported.
  for (const line of list(leaks.filter((l) => !/^(worker|main|webcrypto|test$|node$|unknown$)/.test(l.caller))))
    t.diagnostic(`not ours: ${line}`);
  assert.deepEqual(list(leaks.filter((l) => l.caller.startsWith('worker'))), [], 'built-ins that the worker modules called with secrets');
});
