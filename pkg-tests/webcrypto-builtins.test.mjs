// A script of the same realm that replaces built-ins after the package was
// imported never sees a seed, K or the wasm memory (which holds every live
// prepared signer's expanded key). lib/webcrypto-builtins-child.mjs replaces
// them with recording spies, then generates, imports (pkcs8, raw-seed, jwk),
// uses and drops non-extractable WebCrypto keys, and runs the main API's
// signers, signing and the key-format imports and exports of mldsa-simd/keys;
// it attributes each recorded value that holds a seed (or K, or a view of the
// wasm memory) to the source file of the code that called the built-in. Then it runs the Node
// pool of mldsa-simd/worker (keygen, sign, prepared signers, close), with
// spies also on what carries messages between threads: while it runs, no spy
// may be handed a secret by anything on the calling thread (the package's
// modules, Node's internals under them, or a library they would use).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { IMPL, consumerDir, pkgTestsDir } from './lib/load.mjs';

const skip = IMPL === 'noble' ? 'mldsa-simd/webcrypto is not part of the noble API (MLDSA_IMPL=noble)' : false;

/** The child's report: { leaks: [{ hook, caller, what, phase, count }], hits: { hook: count }, workerHits, spied: [hook], hooks, collected }. */
function run() {
  // Modules in the consumer folder that re-export the installed package (resolved as a user's import is).
  const url = (name, specifier) => {
    const file = path.join(consumerDir, `${name}-${process.pid}.mjs`);
    fs.writeFileSync(file, `export * from ${JSON.stringify(specifier)};\n`);
    return file;
  };
  const files = [
    url('builtins-webcrypto', 'mldsa-simd/webcrypto'),
    url('builtins-main', 'mldsa-simd'),
    url('builtins-worker', 'mldsa-simd/worker'),
    url('builtins-keys', 'mldsa-simd/keys'),
    url('builtins-prehash', 'mldsa-simd/prehash'),
  ];
  try {
    const child = path.join(pkgTestsDir, 'lib', 'webcrypto-builtins-child.mjs');
    const r = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', child, ...files.map((f) => pathToFileURL(f).href)], {
      cwd: consumerDir,
      encoding: 'utf8',
      maxBuffer: 1 << 24,
      timeout: 120_000,
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

test('nor through the main API, mldsa-simd/keys and the wasm glue', { skip }, (t) => {
  const theirs = report.leaks.filter((l) => l.caller.startsWith('main'));
  for (const line of list(theirs)) t.diagnostic(line);
  assert.deepEqual(list(theirs), []);
});

test("nor through the calling thread's side of mldsa-simd/worker", { skip }, (t) => {
  const { leaks, workerHits, spied } = report;
  // The pool started and ran with the spies in place, on what carries messages too
  // (the pool calls none of them as they are now: it captured them at load).
  for (const hook of ['MessagePort.prototype.postMessage', 'Worker.prototype.postMessage', 'EventEmitter.prototype.emit', 'MessageEvent.prototype.data'])
    assert.ok(spied.includes(hook), `${hook} was not replaced`);
  assert.ok(workerHits > 0, 'no spy saw a call while the pool ran');
  t.diagnostic(`webcrypto-builtins: ${workerHits} calls recorded while the pool ran`);
  // Whoever called the built-in: the worker modules, Node's internals, a library.
  const theirs = leaks.filter((l) => l.phase === 'worker');
  for (const line of list(theirs)) t.diagnostic(line);
  assert.deepEqual(list(theirs), [], 'built-ins handed a secret while the pool ran');
});
