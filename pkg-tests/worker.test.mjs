// mldsa-simd/worker on the installed package: the operations as promises, off the
// main thread. Every result is compared with the synchronous API of the same package
// (deterministic signatures byte for byte), every refusal with the error the
// synchronous API throws (class and message); then concurrency, close() with calls
// in flight, a closed pool, freed prepared keys, what is transferred and what is
// copied, workers that die, the task module in a piscina pool of the test's own
// (and its wiping of secrets), the CommonJS entry, processes that end, and a
// module Web Worker pool in Chromium and Firefox.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { IMPL, PKG_NAME, lib, consumerDir, repoRoot, installedPackageDir, importFromConsumer, consumerRequire, SETS } from './lib/load.mjs';
import { Rng, toHex } from './lib/util.mjs';
import { openPage } from './lib/chromium.mjs';
import { openFirefox } from './lib/firefox.mjs';
import { serve } from './lib/serve.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const worker = skip ? undefined : await importFromConsumer(`${PKG_NAME}/worker`);
const rng = new Rng('worker');
const enc = (s) => new TextEncoder().encode(s);
const hexOf = (b) => toHex(b);

/** The settled outcome of a sync call or a promise, as something deepEqual can compare. */
function outcome(fn) {
  try {
    const value = fn();
    return { ok: true, value: value instanceof Uint8Array ? hexOf(value) : value };
  } catch (e) {
    return { ok: false, error: e.constructor.name, message: e.message };
  }
}
async function outcomeOf(fn) {
  try {
    const value = await fn();
    return { ok: true, value: value instanceof Uint8Array ? hexOf(value) : value };
  } catch (e) {
    return { ok: false, error: e.constructor.name, message: e.message };
  }
}

// One pool for the tests that do not end it (two workers, as on this machine).
let shared;
const pool = () => (shared ??= worker.createPool({ size: 2 }));
test.after(async () => {
  await shared?.close();
});

test('createPool: size option and its errors', { skip }, async () => {
  assert.throws(() => worker.createPool({ size: 0 }), { name: 'RangeError', message: 'size: expected 1 to 256 workers, got 0' });
  assert.throws(() => worker.createPool({ size: 1.5 }), { name: 'TypeError', message: 'size: expected a whole number, got 1.5' });
  assert.throws(() => worker.createPool({ threads: 2 }), TypeError);
  assert.throws(() => worker.createPool('2'), TypeError);
  const p = worker.createPool({ size: 1 });
  assert.equal(p.size, 1);
  assert.equal(await p.ml_dsa44.verify(new Uint8Array(2420), new Uint8Array(0), new Uint8Array(1312)), false);
  await p.close();
});

for (const set of SETS) {
  test(`${set.name}: results equal the synchronous API`, { skip, timeout: 120_000 }, async () => {
    const sync = lib[set.key];
    const api = pool()[set.key];
    assert.deepEqual(api.lengths, sync.lengths);
    const seed = rng.bytes(32);
    const context = rng.bytes(7);
    const msg = rng.bytes(100);
    const kp = await api.keygen(seed);
    const want = sync.keygen(seed);
    assert.equal(hexOf(kp.publicKey), hexOf(want.publicKey));
    assert.equal(hexOf(kp.secretKey), hexOf(want.secretKey));
    assert.equal(hexOf(await api.getPublicKey(want.secretKey)), hexOf(want.publicKey));

    const det = sync.sign(msg, want.secretKey, { context, extraEntropy: false });
    assert.equal(hexOf(await api.sign(msg, want.secretKey, { context, extraEntropy: false })), hexOf(det));
    const rnd = rng.bytes(32);
    assert.equal(hexOf(await api.sign(msg, want.secretKey, { extraEntropy: rnd })), hexOf(sync.sign(msg, want.secretKey, { extraEntropy: rnd })));
    const hedged = await api.sign(msg, want.secretKey);
    assert.equal(sync.verify(hedged, msg, want.publicKey), true, 'a hedged signature made in a worker verifies');

    assert.equal(await api.verify(det, msg, want.publicKey, { context }), true);
    assert.equal(await api.verify(det, enc('another message'), want.publicKey, { context }), false, 'wrong message');
    assert.equal(await api.verify(det, msg, want.publicKey), false, 'missing context');
    assert.equal(await api.verify(det.subarray(1), msg, want.publicKey, { context }), false, 'short signature');
    const fresh = await api.keygen();
    assert.equal(fresh.publicKey.length, set.pk);
    assert.equal(hexOf(sync.getPublicKey(fresh.secretKey)), hexOf(fresh.publicKey), 'keygen() with fresh randomness');

    const signer = await api.signer(want.secretKey);
    const fromSeed = await api.signer(seed);
    const verifier = await api.verifier(want.publicKey);
    try {
      assert.equal(hexOf(await signer.sign(msg, { context, extraEntropy: false })), hexOf(det));
      assert.equal(hexOf(await fromSeed.sign(msg, { context, extraEntropy: false })), hexOf(det));
      for (let i = 0; i < 3; i++) {
        assert.equal(await verifier.verify(det, msg, { context }), true);
        assert.equal(await verifier.verify(det, msg), false);
      }
    } finally {
      signer.free();
      fromSeed.free();
      verifier.free();
    }
  });
}

test('errors keep their class and message (as the synchronous API throws them)', { skip, timeout: 60_000 }, async () => {
  const sync = lib.ml_dsa65;
  const api = pool().ml_dsa65;
  const { publicKey, secretKey } = sync.keygen(rng.bytes(32));
  const msg = enc('m');
  const sig = sync.sign(msg, secretKey);
  const malformed = new Uint8Array(4032).fill(0xff); // refused inside the worker, by the wasm
  const cases = [
    ['verify: msg a string', (a) => a.verify(sig, 'm', publicKey)],
    ['verify: short publicKey', (a) => a.verify(sig, msg, publicKey.subarray(1))],
    ['verify: signature a number[]', (a) => a.verify([...sig], msg, publicKey)],
    ['verify: unknown option', (a) => a.verify(sig, msg, publicKey, { ctx: msg })],
    ['verify: context of 256 bytes', (a) => a.verify(sig, msg, publicKey, { context: new Uint8Array(256) })],
    ['verify: options an array', (a) => a.verify(sig, msg, publicKey, [])],
    ['sign: extraEntropy of 31 bytes', (a) => a.sign(msg, secretKey, { extraEntropy: new Uint8Array(31) })],
    ['sign: extraEntropy true', (a) => a.sign(msg, secretKey, { extraEntropy: true })],
    ['sign: secretKey an Int8Array', (a) => a.sign(msg, new Int8Array(4032))],
    ['sign: malformed secretKey', (a) => a.sign(msg, malformed)],
    ['keygen: seed of 33 bytes', (a) => a.keygen(new Uint8Array(33))],
    ['getPublicKey: null', (a) => a.getPublicKey(null)],
    ['signer: 31 bytes', (a) => a.signer(new Uint8Array(31))],
    ['signer: malformed secretKey', (a) => a.signer(malformed)],
    ['verifier: DataView', (a) => a.verifier(new DataView(new ArrayBuffer(1952)))],
  ];
  for (const [what, call] of cases) {
    const want = outcome(() => call(sync));
    assert.equal(want.ok, false, `${what}: the synchronous API refuses it`);
    // The pool's calls know one more option, and say so.
    if (/unknown option/.test(want.message)) want.message += ', transfer';
    assert.deepEqual(await outcomeOf(() => call(api)), want, what);
  }
  // The worker-only option is checked too.
  assert.deepEqual(await outcomeOf(() => api.verify(sig, msg, publicKey, { transfer: 1 })), {
    ok: false,
    error: 'TypeError',
    message: 'transfer: expected boolean, got number',
  });
  // A prepared key's methods refuse as the synchronous prepared key's do.
  const signer = await api.signer(secretKey);
  const syncSigner = sync.signer(secretKey);
  try {
    for (const opts of [{ extraEntropy: new Uint8Array(1) }, { context: 'x' }])
      assert.deepEqual(
        await outcomeOf(() => signer.sign(msg, opts)),
        outcome(() => syncSigner.sign(msg, opts)),
      );
  } finally {
    signer.free();
    syncSigner.free();
  }
});

test('a Uint8Array subclass whose length lies: the same answer as the synchronous API', { skip, timeout: 60_000 }, async () => {
  const sync = lib.ml_dsa65;
  const api = pool().ml_dsa65;
  const { publicKey, secretKey } = sync.keygen(rng.bytes(32));
  const msg = enc('lying lengths');
  const sig = sync.sign(msg, secretKey, { extraEntropy: false });
  const lying = (bytes, claim) => {
    class Liar extends Uint8Array {
      get length() {
        return claim;
      }
      get byteLength() {
        return claim;
      }
      subarray() {
        return new Uint8Array(claim);
      }
      slice() {
        return new Uint8Array(claim);
      }
    }
    const x = new Liar(bytes.length);
    x.set(bytes);
    return x;
  };
  // 1951 real bytes that claim 1952: refused, naming the real length.
  const shortPk = lying(publicKey.subarray(0, 1951), 1952);
  const want = outcome(() => sync.verify(sig, msg, shortPk));
  assert.deepEqual(want, { ok: false, error: 'RangeError', message: 'publicKey: expected 1952 bytes, got 1951' });
  assert.deepEqual(await outcomeOf(() => api.verify(sig, msg, shortPk)), want);
  assert.deepEqual(
    await outcomeOf(() => api.verifier(shortPk)),
    outcome(() => sync.verifier(shortPk)),
  );
  // A whole key that claims to be short: computed on its real bytes, as the sync API does.
  const wholePk = lying(publicKey, 12);
  assert.equal(sync.verify(sig, msg, wholePk), true);
  assert.equal(await api.verify(sig, msg, wholePk), true);
  const liarSk = lying(secretKey, 4);
  assert.equal(hexOf(await api.sign(msg, liarSk, { extraEntropy: false })), hexOf(sig));
  // A Proxy of a Uint8Array is no Uint8Array.
  const proxy = new Proxy(publicKey, {});
  assert.deepEqual(
    await outcomeOf(() => api.verify(sig, msg, proxy)),
    outcome(() => sync.verify(sig, msg, proxy)),
  );
});

test('concurrency: many calls in flight, each result matched to its call', { skip, timeout: 120_000 }, async () => {
  const sync = lib.ml_dsa44;
  const api = pool().ml_dsa44;
  const { publicKey, secretKey } = sync.keygen(rng.bytes(32));
  const verifier = await api.verifier(publicKey);
  const malformed = new Uint8Array(2560).fill(0xff);
  const refusal = outcome(() => sync.sign(new Uint8Array(1), malformed));
  const calls = [];
  // Calls made together travel in batches: one that fails in the worker must
  // fail alone, its neighbours' results unchanged.
  for (let i = 0; i < 100; i++) {
    const msg = rng.bytes(1 + rng.int(300));
    const kind = i % 10 === 9 ? 3 : i % 3;
    if (kind === 3) {
      calls.push([outcomeOf(() => api.sign(msg, malformed)), refusal, `refused ${i}`]);
    } else if (kind === 0) {
      calls.push([api.sign(msg, secretKey, { extraEntropy: false }), hexOf(sync.sign(msg, secretKey, { extraEntropy: false })), `sign ${i}`]);
    } else {
      const sig = sync.sign(msg, secretKey);
      const good = rng.bool();
      const m = good ? msg : Uint8Array.of(...msg, 1);
      const p = kind === 1 ? api.verify(sig, m, publicKey) : verifier.verify(sig, m);
      calls.push([p, good, `verify ${i}`]);
    }
  }
  const got = await Promise.all(calls.map(([p]) => p));
  calls.forEach(([, want, what], i) => assert.deepEqual(got[i] instanceof Uint8Array ? hexOf(got[i]) : got[i], want, what));
  verifier.free();
});

test('close() with calls in flight: they settle with their results; then the pool refuses', { skip, timeout: 120_000 }, async () => {
  const sync = lib.ml_dsa65;
  const p = worker.createPool({ size: 2 });
  const { publicKey, secretKey } = sync.keygen(rng.bytes(32));
  const msg = enc('pending');
  const sig = sync.sign(msg, secretKey);
  const verifier = await p.ml_dsa65.verifier(publicKey);
  const pending = [];
  for (let i = 0; i < 40; i++) pending.push(i % 2 ? p.ml_dsa65.verify(sig, msg, publicKey) : verifier.verify(sig, i % 4 ? msg : enc('x')));
  const closed = p.close();
  assert.equal(p.close(), closed, 'close() is idempotent');
  const refused = outcomeOf(() => p.ml_dsa65.verify(sig, msg, publicKey));
  const results = await Promise.all(pending);
  assert.deepEqual(
    results,
    pending.map((_, i) => (i % 2 ? true : i % 4 !== 0)),
  );
  await closed;
  const closedError = { name: 'Error', message: 'mldsa-simd/worker: the pool is closed' };
  assert.deepEqual(await refused, { ok: false, error: 'Error', message: closedError.message });
  await assert.rejects(p.ml_dsa65.sign(msg, secretKey), closedError);
  await assert.rejects(p.ml_dsa65.keygen(), closedError);
  await assert.rejects(verifier.verify(sig, msg), closedError);
  await assert.rejects(p.ml_dsa65.verifier(publicKey), closedError);
  // Argument errors still come first, as they are found on this thread.
  await assert.rejects(p.ml_dsa65.verify(sig, msg, publicKey.subarray(1)), RangeError);
  verifier.free();
  await p.close();
});

test('prepared keys: used after free() reject with the message of the synchronous API', { skip, timeout: 60_000 }, async () => {
  const sync = lib.ml_dsa87;
  const api = pool().ml_dsa87;
  const { publicKey, secretKey } = sync.keygen(rng.bytes(32));
  const msg = enc('freed');
  const sig = sync.sign(msg, secretKey);
  const verifier = await api.verifier(publicKey);
  const signer = await api.signer(secretKey);
  assert.equal(await verifier.verify(sig, msg), true);
  const inFlight = verifier.verify(sig, msg); // sent before free(): still answered
  verifier.free();
  verifier.free(); // idempotent
  signer.free();
  assert.equal(await inFlight, true);
  const syncV = sync.verifier(publicKey);
  syncV.free();
  const syncS = sync.signer(secretKey);
  syncS.free();
  assert.deepEqual(
    await outcomeOf(() => verifier.verify(sig, msg)),
    outcome(() => syncV.verify(sig, msg)),
  );
  assert.deepEqual(
    await outcomeOf(() => signer.sign(msg)),
    outcome(() => syncS.sign(msg)),
  );
  assert.deepEqual(await outcomeOf(() => verifier.verify(sig, msg)), { ok: false, error: 'Error', message: 'verifier: used after free()' });
  // A new prepared key of the same bytes works (the workers forgot the old one).
  const again = await api.verifier(publicKey);
  assert.equal(await again.verify(sig, msg), true);
  again.free();
});

test('bytes: copied by default (caller untouched), moved with { transfer: true } when a whole buffer', { skip, timeout: 60_000 }, async () => {
  const sync = lib.ml_dsa44;
  const api = pool().ml_dsa44;
  const { publicKey, secretKey } = sync.keygen(rng.bytes(32));
  const msg = rng.bytes(64);
  const sig = sync.sign(msg, secretKey, { extraEntropy: false });
  const copies = [msg, sig, publicKey, secretKey].map((b) => b.slice());
  assert.equal(await api.verify(sig, msg, publicKey), true);
  assert.equal(hexOf(await api.sign(msg, secretKey, { extraEntropy: false })), hexOf(sig));
  [msg, sig, publicKey, secretKey].forEach((b, i) => assert.equal(hexOf(b), hexOf(copies[i]), 'the caller’s bytes are unchanged'));

  // A view into a larger buffer: only its bytes are used, the buffer is never moved.
  const big = new Uint8Array(1 << 20);
  big.set(sig, 1000);
  const sigView = big.subarray(1000, 1000 + sig.length);
  assert.equal(await api.verify(sigView, msg.slice(), publicKey.slice(), { transfer: true }), true);
  assert.equal(big.buffer.byteLength, 1 << 20, 'a partial view’s buffer is not detached');
  const pooled = Buffer.from(msg); // Node's pooled Buffers share one ArrayBuffer
  assert.equal(await api.verify(sig.slice(), pooled, publicKey.slice(), { transfer: true }), true);
  assert.equal(pooled.length, msg.length, 'a pooled Buffer is not detached');

  // Whole buffers move: the caller's copies are detached, the result is right.
  const s2 = sig.slice(),
    m2 = msg.slice(),
    p2 = publicKey.slice();
  assert.equal(await api.verify(s2, m2, p2, { transfer: true }), true);
  assert.deepEqual([s2.byteLength, m2.byteLength, p2.byteLength], [0, 0, 0], 'moved with { transfer: true }');
  const sk2 = secretKey.slice(),
    m3 = msg.slice();
  assert.equal(hexOf(await api.sign(m3, sk2, { extraEntropy: false, transfer: true })), hexOf(sig));
  assert.equal(sk2.byteLength, 0);
  // The same buffer twice is moved once.
  const both = sig.slice();
  assert.equal(await api.verify(both, both, publicKey.slice(), { transfer: true }), false);
  assert.equal(both.byteLength, 0);
  // Shared memory is copied, never moved.
  const shared = new Uint8Array(new SharedArrayBuffer(msg.length));
  shared.set(msg);
  assert.equal(await api.verify(sig.slice(), shared, publicKey.slice(), { transfer: true }), true);
  assert.equal(shared.length, msg.length);
  // Results arrive as their own whole buffers.
  const out = await api.sign(msg, secretKey);
  assert.equal(out.byteOffset, 0);
  assert.equal(out.buffer.byteLength, sync.lengths.signature);
});

// What a call that may lose its bytes to the caller is allowed to do: give the
// right answer, or reject with the TypeError of a detached argument. (A call
// that does neither never settles, and the test's timeout reports it.)
async function rightOrDetached(p, want, name) {
  const got = await outcomeOf(() => p);
  if (got.ok) assert.deepEqual(got.value, want);
  else assert.deepEqual(got, { ok: false, error: 'TypeError', message: `${name}: its ArrayBuffer is detached` });
  return got;
}

test('{ transfer: true } with one buffer in several calls: moved by the first, refused by the others', { skip, timeout: 60_000 }, async () => {
  const sync = lib.ml_dsa44;
  const p = worker.createPool({ size: 2 });
  const { publicKey, secretKey } = sync.keygen(rng.bytes(32));
  const msgs = Array.from({ length: 6 }, () => rng.bytes(40));
  const sigs = msgs.map((m) => sync.sign(m, secretKey));
  const samePk = publicKey.slice();
  const calls = msgs.map((m, i) => p.ml_dsa44.verify(sigs[i].slice(), m.slice(), samePk, { transfer: true }));
  assert.equal(samePk.byteLength, 0, 'moved when the call was made');
  const got = await Promise.all(calls.map((c) => rightOrDetached(c, true, 'publicKey')));
  assert.deepEqual(
    got.map((g) => g.ok),
    [true, false, false, false, false, false],
  );
  // The same for the secret key of sign, and for a prepared verifier's message.
  const sameSk = secretKey.slice();
  const signs = msgs.slice(0, 3).map((m) => p.ml_dsa44.sign(m.slice(), sameSk, { extraEntropy: false, transfer: true }));
  const signed = await Promise.all(signs.map((c, i) => rightOrDetached(c, hexOf(sync.sign(msgs[i], secretKey, { extraEntropy: false })), 'secretKey')));
  assert.deepEqual(
    signed.map((g) => g.ok),
    [true, false, false],
  );
  const verifier = await p.ml_dsa44.verifier(publicKey);
  const sameMsg = msgs[0].slice();
  const prepared = [0, 1, 2].map(() => verifier.verify(sigs[0].slice(), sameMsg, { transfer: true }));
  assert.deepEqual(
    (await Promise.all(prepared.map((c) => rightOrDetached(c, true, 'msg')))).map((g) => g.ok),
    [true, false, false],
  );
  verifier.free();
  await p.close();
});

test('a buffer detached by the caller right after the call: no call hangs, close() completes', { skip, timeout: 60_000 }, async () => {
  const sync = lib.ml_dsa65;
  const p = worker.createPool({ size: 2 });
  const { publicKey, secretKey } = sync.keygen(rng.bytes(32));
  const msg = enc('detached after the call');
  const sig = sync.sign(msg, secretKey);
  const detach = (view) => {
    try {
      structuredClone(view.buffer, { transfer: [view.buffer] });
    } catch {} // already moved by the call
    assert.equal(view.byteLength, 0);
  };
  // Unrelated calls in the same batch as the ones whose buffers are detached.
  const before = Array.from({ length: 4 }, () => p.ml_dsa65.verify(sig, msg, publicKey));
  const moved = [sig.slice(), msg.slice(), publicKey.slice()];
  const movedCall = p.ml_dsa65.verify(...moved, { transfer: true });
  moved.forEach(detach);
  const copied = [sig.slice(), msg.slice(), publicKey.slice()];
  const copiedCall = p.ml_dsa65.verify(...copied);
  copied.forEach(detach);
  const sk = secretKey.slice();
  const signCall = p.ml_dsa65.sign(msg.slice(), sk, { extraEntropy: false, transfer: true });
  detach(sk);
  const after = Array.from({ length: 4 }, () => p.ml_dsa65.verify(sig, msg, publicKey));
  assert.deepEqual(await Promise.all([...before, ...after]), Array(8).fill(true));
  await rightOrDetached(movedCall, true, 'signature');
  await rightOrDetached(copiedCall, true, 'signature');
  await rightOrDetached(signCall, hexOf(sync.sign(msg, secretKey, { extraEntropy: false })), 'secretKey');
  await p.close();
});

test('mldsa-simd/worker-task: a task module for piscina pools of your own, which wipes the secrets it gets', { skip, timeout: 60_000 }, async () => {
  // piscina is no dependency of the package: the repository's devDependency, as a user's own.
  const { Piscina } = createRequire(path.join(repoRoot, 'package.json'))('piscina');
  const filename = consumerRequire().resolve(`${PKG_NAME}/worker-task`);
  assert.match(filename, /worker-task\.mjs$/, 'the node condition picks the piscina task module');
  const own = new Piscina({ filename, maxThreads: 1 });
  try {
    const sync = lib.ml_dsa65;
    const { publicKey, secretKey } = sync.keygen(rng.bytes(32));
    const msg = enc('own pool');
    const sig = sync.sign(msg, secretKey, { extraEntropy: false });
    assert.equal(await own.run({ set: 65, op: 'verify', args: [sig, msg, publicKey] }), true);
    assert.equal(await own.run({ set: 65, op: 'verify', args: [sig, enc('other'), publicKey] }), false);
    assert.equal(hexOf(await own.run({ set: 65, op: 'sign', args: [msg, secretKey, { extraEntropy: false }] })), hexOf(sig));
    await assert.rejects(own.run({ set: 65, op: 'verify', args: [sig, msg, publicKey.subarray(2)] }), {
      name: 'RangeError',
      message: 'publicKey: expected 1952 bytes, got 1950',
    });
    await assert.rejects(own.run({ set: 66, op: 'verify', args: [] }), { name: 'RangeError', message: 'set: expected 44, 65 or 87' });
    await assert.rejects(own.run({ set: 65, op: 'encrypt', args: [] }), {
      name: 'TypeError',
      message: 'op: expected "keygen", "getPublicKey", "sign" or "verify"',
    });
    const batch = await own.run({
      op: 'batch',
      tasks: [
        { set: 65, op: 'verify', args: [sig, msg, publicKey] },
        { set: 65, op: 'getPublicKey', args: [msg] },
      ],
    });
    assert.deepEqual(batch, [{ value: true }, { error: { name: 'RangeError', message: 'secretKey: expected 4032 bytes, got 8' } }]);
  } finally {
    await own.close();
  }
  // The task function on this thread: its secret inputs are zero afterwards.
  const { default: task } = await import(filename);
  const sync = lib.ml_dsa44;
  const seed = rng.bytes(32);
  const { secretKey } = sync.keygen(seed);
  const sk = secretKey.slice();
  const rnd = rng.bytes(32);
  const seedCopy = seed.slice();
  task({ set: 44, op: 'sign', args: [enc('x'), sk, { extraEntropy: rnd }] });
  task({ set: 44, op: 'keygen', args: [seedCopy] });
  const key = { pool: 'test', id: 1, kind: 'signer', bytes: secretKey.slice() };
  task({ set: 44, op: 'sign', args: [enc('y'), { extraEntropy: false }], key });
  assert.ok(
    sk.every((b) => b === 0),
    'secretKey wiped',
  );
  assert.ok(
    rnd.every((b) => b === 0),
    'extraEntropy wiped',
  );
  assert.ok(
    seedCopy.every((b) => b === 0),
    'seed wiped',
  );
  assert.ok(
    key.bytes.every((b) => b === 0),
    'prepared key bytes wiped',
  );
  assert.equal(task({ op: 'forgetPool', key: { pool: 'test' } }), 1, 'the cached signer is dropped');
  // An id reused for another key never picks up the cached one.
  const a = sync.keygen(rng.bytes(32)),
    b = sync.keygen(rng.bytes(32));
  const m = enc('ids');
  const sigA = sync.sign(m, a.secretKey);
  const as = (pk) => ({ pool: 'ids', id: 7, kind: 'verifier', bytes: pk.slice() });
  assert.equal(task({ set: 44, op: 'verify', args: [sigA, m], key: as(a.publicKey) }), true);
  assert.equal(task({ set: 44, op: 'verify', args: [sigA, m], key: as(b.publicKey) }), false);
  assert.equal(task({ set: 44, op: 'verify', args: [sync.sign(m, b.secretKey), m], key: as(b.publicKey) }), true);
  assert.equal(task({ op: 'forgetPool', key: { pool: 'ids' } }), 1);
});

// A child process in which the test holds the pool's worker threads (node:worker_threads'
// Worker, replaced before the package is imported, records each one made) and ends them.
test('workers that die: the calls they held reject with an Error, the others go on; then every call rejects', { skip, timeout: 120_000 }, () => {
  const code = `import { syncBuiltinESMExports } from 'node:module';
import threads from 'node:worker_threads';
const made = [];
threads.Worker = class extends threads.Worker {
  constructor(...args) {
    super(...args);
    made.push(this);
  }
};
syncBuiltinESMExports();
const { createPool } = await import('${PKG_NAME}/worker');
const settle = (p) => p.then((value) => ({ value }), (e) => ({ error: e.constructor.name + ': ' + e.message }));
const pool = createPool({ size: 2 });
const out = { made: made.length };
const api = pool.ml_dsa87;
const calls = Array.from({ length: 64 }, () => settle(api.keygen()));
await null; // the calls have been posted, half to each worker
await made[0].terminate();
const first = await Promise.all(calls);
out.first = { kept: first.filter((r) => r.value?.publicKey.length === 2592).length, errors: [...new Set(first.flatMap((r) => r.error ?? []))] };
const after = await Promise.all(Array.from({ length: 8 }, () => settle(api.verify(new Uint8Array(4627), new Uint8Array(1), new Uint8Array(2592)))));
out.after = after.map((r) => r.value ?? r.error);
await made[1].terminate();
out.none = (await settle(api.keygen())).error;
await pool.close();
out.closed = (await settle(api.keygen())).error;
console.log(JSON.stringify(out));`;
  const file = path.join(consumerDir, `worker-die-${process.pid}.mjs`);
  fs.writeFileSync(file, code);
  try {
    const r = spawnSync(process.execPath, [file], { cwd: consumerDir, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.signal, null, 'the process did not end by itself');
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.made, 2);
    const stopped = /^Error: mldsa-simd\/worker: a worker stopped \(exit code \d+\)$/;
    // Each worker got a batch of 32: the first's calls rejected, the second's made key pairs.
    assert.equal(out.first.kept, 32);
    assert.equal(out.first.errors.length, 1);
    assert.match(out.first.errors[0], stopped);
    assert.deepEqual(out.after, Array(8).fill(false), 'the worker left answers every call');
    assert.match(out.none, stopped, 'with no worker left, a call rejects at once');
    assert.equal(out.closed, 'Error: mldsa-simd/worker: the pool is closed');
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test('CommonJS: require("mldsa-simd/worker")', { skip, timeout: 60_000 }, async () => {
  const w = consumerRequire()(`${PKG_NAME}/worker`);
  const p = w.createPool({ size: 1 });
  try {
    const sync = lib.ml_dsa44;
    const { publicKey, secretKey } = sync.keygen(rng.bytes(32));
    const msg = enc('cjs');
    assert.equal(await p.ml_dsa44.verify(sync.sign(msg, secretKey), msg, publicKey), true);
  } finally {
    await p.close();
  }
});

test('processes end: with a pool never closed, and after close() with calls pending', { skip, timeout: 120_000 }, () => {
  const scripts = {
    'never closed': `import { createPool } from '${PKG_NAME}/worker';
const pool = createPool({ size: 2 });
const { publicKey } = await pool.ml_dsa44.keygen();
console.log(publicKey.length);`,
    'closed with calls pending': `import { createPool } from '${PKG_NAME}/worker';
const pool = createPool({ size: 2 });
const calls = Array.from({ length: 8 }, () => pool.ml_dsa44.keygen());
await pool.close();
console.log((await Promise.all(calls)).length);`,
  };
  for (const [what, code] of Object.entries(scripts)) {
    const file = path.join(consumerDir, `worker-exit-${process.pid}.mjs`);
    fs.writeFileSync(file, code);
    try {
      const r = spawnSync(process.execPath, [file], { cwd: consumerDir, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.signal, null, `${what}: the process did not end by itself`);
      assert.equal(r.status, 0, `${what}: ${r.stderr}`);
      assert.equal(r.stdout.trim(), what === 'never closed' ? '1312' : '8');
    } finally {
      fs.rmSync(file, { force: true });
    }
  }
});

// ---------------------------------------------------------------- Chromium

/** The browser target of the package's ./worker export, resolved as a bundler would. */
function browserWorkerEntry(dir) {
  const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  let e = pj.exports['./worker'];
  while (typeof e === 'object') e = e.browser ?? e.default;
  return e.replace(/^\.\//, '');
}

function page(entry, input) {
  return `<!doctype html><meta charset="utf-8"><title>mldsa-simd/worker</title><pre id="out">running…</pre>
<script type="module">
import { createPool } from '/node_modules/${PKG_NAME}/${entry}';
const input = ${JSON.stringify(input)};
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('').toUpperCase();
const unhex = (s) => new Uint8Array(s.match(/../g).map((h) => parseInt(h, 16)));
const result = {};
try {
  const pool = createPool({ size: 2 });
  result.size = pool.size;
  const api = pool.ml_dsa65;
  const msg = unhex(input.msg), context = unhex(input.ctx);
  const kp = await api.keygen(unhex(input.seed));
  result.pk = hex(kp.publicKey);
  result.det = hex(await api.sign(msg, kp.secretKey, { context, extraEntropy: false }));
  const sig = unhex(result.det);
  result.verifies = await api.verify(sig, msg, kp.publicKey, { context });
  result.wrongMessage = await api.verify(sig, msg.subarray(1), kp.publicKey, { context });
  const verifier = await api.verifier(kp.publicKey);
  const many = await Promise.all(Array.from({ length: 16 }, (_, i) => verifier.verify(sig, i % 2 ? msg : msg.subarray(1), { context })));
  result.many = many.map((x) => (x ? 1 : 0)).join('');
  verifier.free();
  try { await verifier.verify(sig, msg); } catch (e) { result.afterFree = e.constructor.name + ': ' + e.message; }
  try { await api.verify(sig, msg, kp.publicKey.subarray(1)); } catch (e) { result.rangeError = e.constructor.name + ': ' + e.message; }
  try { await api.sign(msg, new Uint8Array(4032).fill(255)); } catch (e) { result.workerError = e.constructor.name + ': ' + e.message; }
  const own = sig.slice();
  result.ownVerifies = await api.verify(own, msg.slice(), kp.publicKey.slice(), { context: context.slice(), transfer: true });
  result.transferred = own.byteLength;
  const samePk = kp.publicKey.slice();
  const shared = [0, 1, 2, 3].map(() => api.verify(sig.slice(), msg.slice(), samePk, { context: context.slice(), transfer: true }));
  result.sharedTransfer = await Promise.all(shared.map((c) => c.then(String, (e) => e.constructor.name + ': ' + e.message)));
  const pending = api.verify(sig, msg, kp.publicKey, { context });
  await pool.close();
  result.pending = await pending;
  try { await api.verify(sig, msg, kp.publicKey); } catch (e) { result.closed = e.constructor.name + ': ' + e.message; }
} catch (e) {
  result.error = String(e && e.stack || e);
}
document.getElementById('out').textContent = JSON.stringify(result, null, 1);
window.__result = result;
</script>`;
}

test('Chromium: a pool of module Web Workers gives the synchronous API’s results', { skip, timeout: 180_000 }, async (t) => {
  const entry = browserWorkerEntry(installedPackageDir());
  assert.equal(entry, 'worker-browser.mjs');
  const sync = lib.ml_dsa65;
  const seed = rng.bytes(32),
    msg = rng.bytes(50),
    ctx = rng.bytes(3);
  const input = { seed: hexOf(seed), msg: hexOf(msg), ctx: hexOf(ctx) };
  const server = await serve(consumerDir, page(entry, input));
  let browser;
  try {
    browser = await openPage({ viewport: { width: 800, height: 400 } });
    const { page: pg, problems, offsite } = browser;
    await pg.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: 'load' });
    await pg.waitForFunction(() => window.__result !== undefined, null, { timeout: 120_000 });
    const r = await pg.evaluate(() => window.__result);
    assert.equal(r.error, undefined, `the page threw: ${r.error}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(offsite, []);
    const { publicKey, secretKey } = sync.keygen(seed);
    assert.equal(r.size, 2);
    assert.equal(r.pk, hexOf(publicKey));
    assert.equal(r.det, hexOf(sync.sign(msg, secretKey, { context: ctx, extraEntropy: false })));
    assert.equal(r.verifies, true);
    assert.equal(r.wrongMessage, false);
    assert.equal(r.many, '01'.repeat(8));
    assert.equal(r.afterFree, 'Error: verifier: used after free()');
    assert.equal(r.rangeError, 'RangeError: publicKey: expected 1952 bytes, got 1951');
    assert.equal(r.workerError, `Error: ${outcome(() => sync.sign(msg, new Uint8Array(4032).fill(255))).message}`);
    assert.equal(r.transferred, 0);
    assert.equal(r.ownVerifies, true);
    assert.deepEqual(
      r.sharedTransfer,
      ['true', ...Array(3).fill('TypeError: publicKey: its ArrayBuffer is detached')],
      'one buffer moved by the first of several calls',
    );
    assert.equal(r.pending, true);
    assert.equal(r.closed, 'Error: mldsa-simd/worker: the pool is closed');
    t.diagnostic(`worker: Chromium module Web Worker pool (size ${r.size}) matches the synchronous API`);
  } finally {
    await browser?.close();
    await new Promise((res) => server.close(res));
  }
});

// The browser pool on a page whose script replaces, after the import, the
// built-ins that carry tasks and results (Worker's postMessage, terminate and
// handler setters, MessageEvent's data, a `then` on Object.prototype) and
// those code reaches for on bytes and lists (typed-array accessors and
// methods, Array, Map, Set, FinalizationRegistry, Object): none is handed a
// seed, a secret key (its K) or the signing randomness.
function hookedPage(entry, input) {
  return `<!doctype html><meta charset="utf-8"><title>mldsa-simd/worker, hooked</title>
<script type="module">
import { createPool } from '/node_modules/${PKG_NAME}/${entry}';
const input = ${JSON.stringify(input)};
const unhex = (s) => new Uint8Array(s.match(/../g).map((h) => parseInt(h, 16)));
const secrets = Object.entries(input.secrets).map(([name, hex]) => ({ name, bytes: unhex(hex) }));
const [seed, secretKey, rnd, msg] = [unhex(input.seed), unhex(input.secretKey), unhex(input.rnd), unhex(input.msg)];
const leaks = {};
let busy = false;
const { apply, construct, defineProperty, getOwnPropertyDescriptor, ownKeys } = Reflect;
const restores = [];
const holds = (bytes, s) => {
  outer: for (let i = 0; i + s.length <= bytes.length; i++) {
    for (let j = 0; j < s.length; j++) if (bytes[i + j] !== s[j]) continue outer;
    return true;
  }
  return false;
};
function find(value, depth = 0, seen = new Set()) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) return undefined;
  seen.add(value);
  let bytes;
  try {
    if (ArrayBuffer.isView(value)) bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    else if (value instanceof ArrayBuffer) bytes = new Uint8Array(value);
  } catch { return undefined; }
  if (bytes) return secrets.find((s) => holds(bytes, s.bytes))?.name;
  if (depth >= 5) return undefined;
  for (const key of ownKeys(value)) {
    const d = getOwnPropertyDescriptor(value, key);
    const found = d && 'value' in d ? find(d.value, depth + 1, seen) : undefined;
    if (found) return found;
  }
  return undefined;
}
function record(hook, values) {
  busy = true;
  try {
    const what = find(values);
    if (what) {
      const file = /\\/([\\w.-]+\\.m?js)/.exec(new Error().stack.split('\\n').slice(3).join('\\n'))?.[1] ?? 'page';
      const key = hook + ' (called from ' + file + '): ' + what;
      leaks[key] = (leaks[key] ?? 0) + 1;
    }
  } finally { busy = false; }
}
function spy(object, owner, key) {
  const d = getOwnPropertyDescriptor(object, key);
  if (!d || !d.configurable) return;
  const name = owner + '.' + String(key);
  const next = { ...d };
  if (typeof d.value === 'function' && key !== 'constructor') {
    const original = d.value;
    next.value = function (...args) {
      if (busy) return new.target ? construct(original, args, new.target) : apply(original, this, args);
      record(name, [this, args]);
      const result = new.target ? construct(original, args, new.target) : apply(original, this, args);
      record(name + ' (result)', [result]);
      return result;
    };
  } else if (d.get || d.set) {
    if (d.get) next.get = function () { const r = apply(d.get, this, []); if (!busy) record(name, [this, r]); return r; };
    if (d.set) next.set = function (v) { if (!busy) record(name + ' (set)', [this, v]); return apply(d.set, this, [v]); };
  } else return;
  defineProperty(object, key, next);
  restores.push(() => defineProperty(object, key, d));
}
function spyLookup(object, owner, key) {
  const d = getOwnPropertyDescriptor(object, key);
  if (d && !d.configurable) return;
  defineProperty(object, key, {
    configurable: true,
    get() { if (!busy) record(owner + '.' + key + ' (lookup)', [this]); return d?.value; },
    set(v) { if (!busy) record(owner + '.' + key + ' (store)', [this, v]); defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true }); },
  });
  restores.push(() => (d ? defineProperty(object, key, d) : delete object[key]));
}
const all = (o) => ownKeys(o).filter((k) => k !== 'constructor');
const TA = Object.getPrototypeOf(Uint8Array.prototype);
const result = {};
try {
  const pool = createPool({ size: 1 });
  const api = pool.ml_dsa65;
  for (const [o, owner, keys] of [
    [Worker.prototype, 'Worker.prototype', all(Worker.prototype)],
    [MessageEvent.prototype, 'MessageEvent.prototype', ['data']],
    [EventTarget.prototype, 'EventTarget.prototype', ['addEventListener', 'dispatchEvent']],
    [TA, '%TypedArray%.prototype', all(TA)],
    [Uint8Array.prototype, 'Uint8Array.prototype', all(Uint8Array.prototype).filter((k) => k !== 'BYTES_PER_ELEMENT')],
    [ArrayBuffer.prototype, 'ArrayBuffer.prototype', all(ArrayBuffer.prototype)],
    [Array.prototype, 'Array.prototype', all(Array.prototype)],
    [Array, 'Array', ['isArray', 'from', 'of']],
    [Object.getPrototypeOf([][Symbol.iterator]()), '%ArrayIteratorPrototype%', ['next']],
    [Map.prototype, 'Map.prototype', all(Map.prototype)],
    [Set.prototype, 'Set.prototype', all(Set.prototype)],
    [FinalizationRegistry.prototype, 'FinalizationRegistry.prototype', ['register', 'unregister']],
    [Object, 'Object', ownKeys(Object).filter((k) => typeof Object[k] === 'function')],
    [Object.prototype, 'Object.prototype', ['hasOwnProperty']],
    [Reflect, 'Reflect', ownKeys(Reflect).filter((k) => typeof Reflect[k] === 'function')],
    [Function.prototype, 'Function.prototype', ['apply', 'call', 'bind']],
    [globalThis, 'globalThis', ['structuredClone', 'queueMicrotask']],
  ]) for (const key of keys) spy(o, owner, key);
  // (Not 'value', 'get' or 'set', which every property descriptor would then have.)
  for (const key of ['then', 'error', 'lost', 'id', 'extraEntropy', 'bytes', 'args', 'tasks', 'publicKey', 'secretKey'])
    spyLookup(Object.prototype, 'Object.prototype', key);
  for (const key of ['0', '1', '2', '3']) spyLookup(Array.prototype, 'Array.prototype', key);
  result.hooks = restores.length;
  const kp = await api.keygen(seed);
  const sig = await api.sign(msg, secretKey, { extraEntropy: rnd });
  const signer = await api.signer(seed);
  await signer.sign(msg);
  await signer.sign(msg, { extraEntropy: rnd });
  signer.free();
  await pool.close();
  busy = true;
  result.pk = Array.from(kp.publicKey, (x) => x.toString(16).padStart(2, '0')).join('').toUpperCase();
  result.sigLength = sig.length;
} catch (e) {
  busy = true;
  result.error = String(e && e.stack || e);
} finally {
  busy = true;
  for (const restore of restores.reverse()) restore();
}
result.leaks = Object.entries(leaks).map(([k, n]) => k + ' x' + n);
window.__result = result;
</script>`;
}

// Chromium hands a transfer list to no script; Firefox reads it with the array
// iterator, which the page replaces too.
test('browsers: built-ins replaced after the import see no secret through the Web Worker pool', { skip, timeout: 240_000 }, async (t) => {
  const entry = browserWorkerEntry(installedPackageDir());
  const sync = lib.ml_dsa65;
  const seed = rng.bytes(32),
    rnd = rng.bytes(32),
    msg = rng.bytes(50);
  const { publicKey, secretKey } = sync.keygen(seed);
  const other = sync.keygen(rng.bytes(32)).secretKey;
  // K is bytes 32..63 of a secret key (FIPS 204 Algorithm 24).
  const secrets = {
    seed: hexOf(seed),
    'K (keygen result)': hexOf(secretKey.subarray(32, 64)),
    'K (signing key)': hexOf(other.subarray(32, 64)),
    rnd: hexOf(rnd),
  };
  const input = { seed: hexOf(seed), secretKey: hexOf(other), rnd: hexOf(rnd), msg: hexOf(msg), secrets };
  const server = await serve(consumerDir, hookedPage(entry, input));
  try {
    for (const [name, open] of [
      ['Chromium', () => openPage({ viewport: { width: 800, height: 400 } })],
      ['Firefox ESR', openFirefox],
    ]) {
      await t.test(name, async (t) => {
        const browser = await open();
        try {
          const { page: pg, problems } = browser;
          await pg.goto(`http://127.0.0.1:${server.address().port}/`);
          let r;
          for (const until = Date.now() + 120_000; !(r = await pg.evaluate(() => window.__result)) && Date.now() < until; )
            await new Promise((res) => setTimeout(res, 100));
          assert.ok(r, 'the page did not finish');
          assert.equal(r.error, undefined, `the page threw: ${r.error}`);
          assert.deepEqual(problems, []);
          assert.equal(r.pk, hexOf(publicKey));
          assert.ok(r.hooks > 150, `only ${r.hooks} built-ins replaced`);
          t.diagnostic(`worker: ${r.hooks} built-ins replaced in ${name}`);
          assert.deepEqual(r.leaks, []);
        } finally {
          await browser.close();
        }
      });
    }
  } finally {
    await new Promise((res) => server.close(res));
  }
});
