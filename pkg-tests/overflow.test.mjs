// A call that runs out of JavaScript stack part-way (a caller deep in its own
// recursion) leaves no instance in an unknown state and no secret behind. Each
// secret-handling operation is run at every recursion depth from the deepest
// one at which it can be entered down to one at which it always completes: at
// some of those depths the stack runs out in the package's JavaScript, at
// some in the glue and at some inside wasm, half-way through Rust code. After
// each, the memory of every instance the package made is searched for the
// secrets of the call (ξ, K, rnd, windows of s1 ‖ s2 ‖ t0, the PKCS#8 DER),
// and the next calls must give the right answers (a deterministic signature
// equal to the one made before the sweep, a verification, a prepared signer
// made before the sweep).
import test from 'node:test';
import assert from 'node:assert/strict';
import { lib as shared, keys as sharedKeys, IMPL } from './lib/load.mjs';
import { Rng, equalBytes } from './lib/util.mjs';
import { importWatched, occurrences, forgetReplaced, forgetAll } from './lib/instance.mjs';

const skip = IMPL === 'noble' ? 'looks inside the package instance' : false;
const rng = new Rng('overflow');

/** Runs `fn` under `depth` frames of recursion; returns { ok, value } or { ok: false, error }. */
function atDepth(depth, fn) {
  let value;
  const go = (n) => {
    if (n === 0) {
      value = fn();
      return 0;
    }
    return go(n - 1) + 1;
  };
  try {
    go(depth);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * The deepest recursion (in frames of atDepth) at which a trivial call still
 * runs; measured until two measures agree, since the frames shrink once the
 * JIT has compiled the recursion.
 */
function deepest() {
  for (let last = -1; ; ) {
    const now = measureDeepest();
    if (now === last) return now;
    last = now;
  }
}
function measureDeepest() {
  let lo = 0;
  let hi = 1 << 16;
  while (atDepth(hi, () => 0).ok) hi *= 2;
  while (lo + 1 < hi) {
    const mid = (lo + hi) >> 1;
    if (atDepth(mid, () => 0).ok) lo = mid;
    else hi = mid;
  }
  return lo;
}

test('a stack overflow at any depth inside a call leaves no broken instance and no secret', { skip, timeout: 600_000 }, async (t) => {
  const { lib, keys, instances } = await importWatched('overflow');
  const { importSecretKey, exportSecretKey } = keys;
  const P = lib.ml_dsa65;
  const seed = rng.bytes(32);
  const { publicKey, secretKey } = P.keygen(seed);
  const K = secretKey.subarray(32, 64);
  const msg = rng.bytes(100);
  const rnd = rng.bytes(32);
  const der = exportSecretKey(P, seed, 'pkcs8', { form: 'both' });
  const pem = exportSecretKey(P, seed, 'pem');
  const expected = shared.ml_dsa65.sign(msg, secretKey, { extraEntropy: rnd });
  const signer = P.signer(seed); // made before the sweep: it must keep working through every replacement
  const seeded = () => P.signer(seed);
  const secrets = [
    ['ξ', seed],
    ['K', K],
    ['rnd', rnd],
    ...[0, 640, 1280, 2560, 3200].map((i) => [`s1 ‖ s2 ‖ t0 [${i}..]`, secretKey.subarray(128 + i, 128 + i + 16)]),
    ['PKCS#8 DER (seed part)', der.subarray(der.length - P.lengths.secretKey - 40, der.length - P.lengths.secretKey - 8)],
  ];
  const operations = [
    // First, so that its sweep also warms the recursion up: until the JIT has
    // compiled it, each depth is a larger step of stack.
    ['verify', () => P.verify(expected, msg, publicKey)],
    ['sign', () => P.sign(msg, secretKey, { extraEntropy: rnd })],
    // A signer made at depth is freed by the test afterwards (when it was made);
    // one made by the test is freed at depth, and again by the test when that failed.
    ['signer(seed)', () => seeded(), (r) => r.ok && r.value.free()],
    ['signer.free', (s) => s.free(), (r, s) => s.free(), () => seeded()],
    ['signer.sign', () => signer.sign(msg, { extraEntropy: rnd })],
    ['importSecretKey(pkcs8)', () => importSecretKey(P, der, 'pkcs8')],
    ['importSecretKey(pem)', () => importSecretKey(P, pem, 'pem')],
    ['exportSecretKey(pem)', () => exportSecretKey(P, seed, 'pem', { form: 'both' })],
    ['keygen(seed)', () => P.keygen(seed)],
  ];

  let failures = 0;
  let depths = 0;
  for (const [what, operation, after = () => {}, before = () => undefined] of operations) {
    // From above the deepest depth at which anything runs (so that the sweep
    // starts where the operation cannot even be entered, whatever the JIT has
    // made of the frames meanwhile) down to where it completes 40 times in a row.
    let entered = false;
    let input;
    const entering = () => {
      entered = true;
      return operation(input);
    };
    const top = deepest() + 64;
    let completedInARow = 0;
    let failedHere = 0;
    for (let depth = top; depth > 0 && completedInARow < 40; depth--) {
      entered = false;
      input = before();
      const r = atDepth(depth, entering);
      after(r, input);
      if (!entered) continue;
      depths++;
      if (r.ok) {
        completedInARow++;
      } else {
        completedInARow = 0;
        failedHere++;
        assert.ok(r.error instanceof Error, `${what} at depth ${depth}: threw ${r.error}`);
      }
      // No secret in any instance the package made, replaced ones included.
      // A live prepared signer holds K once, in the current instance.
      const all = instances();
      for (const [index, instance] of all.entries()) {
        const memory = new Uint8Array(instance.exports.memory.buffer);
        for (const [name, bytes] of secrets) {
          const found = occurrences(memory, bytes).length;
          const allowed = name === 'K' && index === all.length - 1 ? 1 : 0;
          assert.ok(
            found <= allowed,
            `${what} at depth ${depth} (${r.ok ? 'completed' : r.error.message.slice(0, 60)}): ${name} found ${found} times in instance ${index + 1} of ${all.length}`,
          );
        }
      }
      forgetReplaced(); // searched once after they were replaced; not kept alive by the test
      if (!r.ok) {
        // The next calls are right: a signer made before, a one-shot signature, a verification.
        assert.ok(equalBytes(signer.sign(msg, { extraEntropy: rnd }), expected), `${what} at depth ${depth}: the signer made before signs as before`);
        assert.ok(equalBytes(P.sign(msg, secretKey, { extraEntropy: rnd }), expected), `${what} at depth ${depth}: sign after it`);
        assert.equal(P.verify(expected, msg, publicKey), true, `${what} at depth ${depth}: verify after it`);
      }
    }
    assert.ok(failedHere > 0, `${what}: no depth made it run out of stack (the sweep did not reach it)`);
    failures += failedHere;
    t.diagnostic(`${what}: ran out of stack at ${failedHere} depths below ${top}; memory clean and the next calls right after each`);
  }
  t.diagnostic(`${depths} depths, ${failures} calls that ran out of stack`);
  signer.free();
});

// Where V8 runs out of stack depends on what is compiled: a function's first
// call compiles it, which needs tens of KB of headroom, so in warm code the
// overflow comes at the first call of the operation (above), while in code
// that runs for the first time it can come in any function on the way,
// glue and wasm imports included: there a failure can leave Rust code
// stopped half-way. Each attempt here is made with a fresh copy of the package
// (nothing of it compiled but what the set-up ran), at every depth around the
// deepest one at which the operation completes.
test('a stack overflow in code that runs for the first time leaves no broken instance and no secret', { skip, timeout: 600_000 }, async (t) => {
  const P0 = shared.ml_dsa65;
  const { exportSecretKey } = sharedKeys;
  const seed = rng.bytes(32);
  const { publicKey, secretKey } = P0.keygen(seed);
  const K = secretKey.subarray(32, 64);
  const msg = rng.bytes(100);
  const rnd = rng.bytes(32);
  const pem = exportSecretKey(P0, seed, 'pem', { form: 'both' });
  const expected = P0.sign(msg, secretKey, { extraEntropy: rnd });
  const secrets = [
    ['ξ', seed],
    ['K', K],
    ['rnd', rnd],
    ['s1 ‖ s2 ‖ t0', secretKey.subarray(1000, 1016)],
  ];
  // [what, set-up with the fresh copy (at the top), the operation at depth, what a live result holds]
  const operations = [
    ['keygen(seed)', () => undefined, (P) => P.keygen(seed)],
    ['sign', () => undefined, (P) => P.sign(msg, secretKey, { extraEntropy: rnd })],
    ['signer(seed)', () => undefined, (P) => P.signer(seed)],
    ['signer.sign', (P) => P.signer(seed), (P, s) => s.sign(msg, { extraEntropy: rnd })],
    ['importSecretKey(pem)', () => undefined, (P, input, keys) => keys.importSecretKey(P, pem, 'pem')],
    ['exportSecretKey(pem)', () => undefined, (P, input, keys) => keys.exportSecretKey(P, seed, 'pem', { form: 'both' })],
  ];
  let copies = 0;
  let replaced = 0;
  for (const [what, setUp, operation] of operations) {
    // attempt(depth): a fresh copy, set up, the operation at `depth`; then its
    // instances searched, the next calls checked, everything dropped.
    const attempt = async (depth, check) => {
      forgetAll();
      const { lib, keys, instances } = await importWatched(`cold-${copies++}`);
      const P = lib.ml_dsa65;
      const input = setUp(P);
      let entered = false;
      const r = atDepth(depth, () => {
        entered = true;
        return operation(P, input, keys);
      });
      if (check && entered) {
        if (instances().length > 1) replaced++;
        for (const [index, instance] of instances().entries()) {
          const memory = new Uint8Array(instance.exports.memory.buffer);
          for (const [name, bytes] of secrets) {
            const found = occurrences(memory, bytes).length;
            // A live signer (made by the set-up, or by a completed signer(seed)) holds K once.
            const live = name === 'K' && index === instances().length - 1 && (input || (r.ok && what === 'signer(seed)')) ? 1 : 0;
            assert.ok(
              found <= live,
              `${what} at depth ${depth}, a first run (${r.ok ? 'completed' : String(r.error?.message).slice(0, 60)}): ${name} found ${found} times in instance ${index + 1} of ${instances().length}`,
            );
          }
        }
        assert.ok(equalBytes(P.sign(msg, secretKey, { extraEntropy: rnd }), expected), `${what} at depth ${depth}, a first run: sign after it`);
        assert.equal(P.verify(expected, msg, publicKey), true, `${what} at depth ${depth}, a first run: verify after it`);
        if (input) assert.ok(equalBytes(input.sign(msg, { extraEntropy: rnd }), expected), `${what} at depth ${depth}, a first run: the signer made before`);
      }
      return entered && r.ok;
    };
    // The deepest depth at which a first run completes (a first run that fails
    // deeper fails at every depth deeper still).
    let lo = 0;
    let hi = deepest();
    while (await attempt(hi, false)) hi += 256;
    while (lo + 1 < hi) {
      const mid = (lo + hi) >> 1;
      if (await attempt(mid, false)) lo = mid;
      else hi = mid;
    }
    let failed = 0;
    for (let depth = lo + 80; depth >= lo - 10; depth--) if (!(await attempt(depth, true))) failed++;
    assert.ok(failed > 0, `${what}: no first run failed`);
    t.diagnostic(`${what}: first runs at 91 depths around ${lo}, ${failed} ran out of stack; memory clean and the next calls right after each`);
  }
  forgetAll();
  t.diagnostic(`${copies} fresh copies; ${replaced} attempts replaced the instance`);
  assert.ok(replaced > 0, 'no attempt failed inside the instance: the sweep does not reach the code it is for');
});
