// Thousands of malformed calls across every function, in one process and one wasm
// instance. Each call must return a well-formed result or throw a TypeError,
// RangeError or Error, never trap (WebAssembly.RuntimeError: a Rust panic or an out
// of bounds access; it would leave the instance unusable). A canary checks the
// instance every few hundred calls, and at the end keygen/sign/verify must still
// give the right answers (ACVP keyGen vectors, noble's deterministic signatures).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { shake256, shake256_64, sha3_256 } from '@noble/hashes/sha3.js';
import { lib, SETS, IMPL, acvpDir, prehash as PH } from './lib/load.mjs';
import { Rng, attempt, isTrap, describeError, toHex, hex, equalBytes } from './lib/util.mjs';

const CALLS = Number(process.env.MLDSA_HAMMER_CALLS || 4000);
if (!Number.isSafeInteger(CALLS) || CALLS < 1) throw new Error(`MLDSA_HAMMER_CALLS must be a positive integer, got ${process.env.MLDSA_HAMMER_CALLS}`);
const CANARY_EVERY = 250;
const rng = new Rng('hammer');

// mldsa-simd/prehash's functions, and their names (which prehash() took before it
// took only functions: a TypeError now).
const HASH_FNS = Object.values(PH);
const HASH_NAMES = Object.keys(PH);

/** A fake "hash function": right shape, wrong behaviour. */
const fakeHash = (outputLen, oid, impl) => Object.assign((m) => impl(m), { oid, outputLen, blockLen: 64, create: () => ({}) });

function setup(P) {
  const alg = lib[P.key];
  const ref = noble[P.key];
  const { publicKey: pk, secretKey: sk } = ref.keygen(rng.bytes(32));
  const msg = rng.bytes(100);
  const context = rng.bytes(10);
  const sig = ref.sign(msg, sk, { context, extraEntropy: false });
  return { P, alg, ref, pk, sk, msg, context, sig };
}

// ---------------------------------------------------------------- argument generators
function wrongType(n) {
  return rng.pick([
    () => 'x'.repeat(n),
    () => Array.from(rng.bytes(Math.min(n, 64))),
    () => n,
    () => -1,
    () => NaN,
    () => null,
    () => undefined,
    () => true,
    () => 1n,
    () => ({}),
    () => ({ length: n, 0: 1 }),
    () => new ArrayBuffer(n),
    () => new Uint16Array(n >> 1),
    () => new Int8Array(n),
    () => new Float64Array(4),
    () => new Uint8ClampedArray(n),
    () => new DataView(new ArrayBuffer(n)),
    () => Symbol('s'),
    () => () => {},
    () => [new Uint8Array(n)],
  ])();
}

/** Bytes in the role of an argument whose valid form is `good` (length `n`). */
function bytesArg(good, n) {
  const r = rng.int(100);
  if (r < 30 && good) return good; // the real thing, so later arguments get exercised
  if (r < 45) return rng.bytes(n); // right length, random content
  if (r < 60) return rng.bytes(rng.int(2 * n + 10)); // random length
  if (r < 65) return new Uint8Array(0);
  if (r < 70) {
    const big = rng.bytes(n + 17);
    return big.subarray(9, 9 + n);
  }
  if (r < 73) return Buffer.from(rng.bytes(n));
  if (r < 75) {
    const s = new Uint8Array(new SharedArrayBuffer(n));
    s.set(rng.bytes(n));
    return s;
  }
  if (r < 76) return new Proxy(rng.bytes(n), {});
  if (r < 77) return rng.bytes(1 << (16 + rng.int(5))); // 64 KiB .. 1 MiB
  if (r < 80 && good) {
    const s = good.slice();
    s[rng.int(s.length) || 0] ^= 1 + rng.int(255);
    return s;
  }
  return wrongType(n);
}

function optsArg(kind) {
  const r = rng.int(100);
  if (r < 25) return undefined;
  if (r < 30) return {};
  const o = {};
  if (kind !== 'internal-sign' && kind !== 'internal-verify' && rng.bool()) {
    o.context = rng.int(4) ? rng.bytes(rng.pick([0, 1, 32, 255, 256, 300, 1000])) : wrongType(8);
  }
  if ((kind === 'sign' || kind === 'internal-sign') && rng.bool()) {
    o.extraEntropy = rng.pick([false, false, true, null, 0, undefined, rng.bytes(32), rng.bytes(31), rng.bytes(33), rng.bytes(0), wrongType(32)]);
  }
  if (kind.startsWith('internal') && rng.bool()) o.externalMu = rng.pick([true, false, true, 'true', 1, null, undefined]);
  if (r < 40) o[rng.pick(['ctx', 'entropy', 'externalMu', 'extraEntropy', 'context', 'hash', '__proto__', 'constructor'])] = rng.bytes(4);
  if (r < 43) {
    Object.defineProperty(o, 'context', {
      enumerable: true,
      get() {
        throw new Error('getter boom');
      },
    });
  }
  if (r < 46) return rng.pick([null, 'opts', 7, [], new Uint8Array(3), Object.create({ context: new Uint8Array(2) }), new Map()]);
  if (r < 48) return Object.assign(Object.create(null), o);
  return o;
}

function hashArg() {
  const r = rng.int(100);
  if (r < 50) return rng.pick(HASH_FNS);
  if (r < 70) return rng.pick([sha256, sha512, sha3_256, shake256_64]);
  if (r < 75) return rng.pick(HASH_NAMES);
  return rng.pick([
    'SHA-256',
    'md5',
    '',
    'sha1',
    'shake256_64',
    'constructor',
    '__proto__',
    'toString',
    shake256, // 32-byte output under the 64-byte SHAKE256 OID
    fakeHash(32, sha256.oid, () => new Uint8Array(5)), // returns the wrong length
    fakeHash(32, sha256.oid, () => 'not bytes'),
    fakeHash(32, sha256.oid, () => {
      throw new Error('hash boom');
    }),
    fakeHash(2 ** 31, sha256.oid, (m) => sha256(m)),
    fakeHash(32, new Uint8Array([6, 9, 1, 2, 3]), (m) => sha256(m)),
    fakeHash(32, 'oid', (m) => sha256(m)),
    fakeHash(64, new Uint8Array(11), (m) => sha512(m)),
    Object.assign(() => new Uint8Array(32), { oid: sha256.oid }), // no outputLen
    null,
    undefined,
    42,
    {},
    new Uint8Array(32),
  ]);
}

// ---------------------------------------------------------------- one call
/**
 * Makes one random call. Returns { what, run, check } where check(value) validates
 * a normal return and `strictFalse` marks calls whose only defect is the signature
 * bytes (verify must return false, not throw).
 */
function randomCall(F) {
  const { P, alg, pk, sk, msg, context, sig } = F;
  const op = rng.pick([
    'keygen',
    'getPublicKey',
    'sign',
    'verify',
    'verify',
    'verify-sig-only',
    'prehash.sign',
    'prehash.verify',
    'internal.sign',
    'internal.verify',
    'internal.verify-sig-only',
  ]);
  const isSig = (v) => ArrayBuffer.isView(v) && v instanceof Uint8Array && v.length === P.sig;
  switch (op) {
    case 'keygen': {
      const seed = rng.int(5) ? bytesArg(undefined, 32) : undefined;
      return { op, run: () => alg.keygen(seed), check: (v) => v && v.publicKey?.length === P.pk && v.secretKey?.length === P.sk };
    }
    case 'getPublicKey': {
      const a = bytesArg(sk, P.sk);
      return { op, run: () => alg.getPublicKey(a), check: (v) => v instanceof Uint8Array && v.length === P.pk };
    }
    case 'sign': {
      const m = bytesArg(msg, 100),
        k = bytesArg(sk, P.sk),
        o = optsArg('sign');
      return { op, run: () => alg.sign(m, k, o), check: isSig };
    }
    case 'verify': {
      const s = bytesArg(sig, P.sig),
        m = bytesArg(msg, 100),
        k = bytesArg(pk, P.pk),
        o = optsArg('verify');
      return { op, run: () => alg.verify(s, m, k, o), check: (v) => typeof v === 'boolean' };
    }
    case 'verify-sig-only': {
      // Only the signature is hostile (any bytes, any length): false, never an exception.
      let s = bytesArg(sig, P.sig);
      if (!(ArrayBuffer.isView(s) && s instanceof Uint8Array) || equalBytes(s, sig)) s = rng.bytes(rng.int(P.sig + 3));
      return { op, strictFalse: true, run: () => alg.verify(s, msg, pk, { context }), check: (v) => v === false };
    }
    case 'prehash.sign': {
      const h = hashArg(),
        m = bytesArg(msg, 100),
        k = bytesArg(sk, P.sk),
        o = optsArg('sign');
      return { op, run: () => alg.prehash(h).sign(m, k, o), check: isSig };
    }
    case 'prehash.verify': {
      const h = hashArg(),
        s = bytesArg(sig, P.sig),
        m = bytesArg(msg, 100),
        k = bytesArg(pk, P.pk),
        o = optsArg('verify');
      return { op, run: () => alg.prehash(h).verify(s, m, k, o), check: (v) => typeof v === 'boolean' };
    }
    case 'internal.sign': {
      const m = rng.bool() ? bytesArg(msg.subarray(0, 64), 64) : bytesArg(msg, 100),
        k = bytesArg(sk, P.sk),
        o = optsArg('internal-sign');
      return { op, run: () => alg.internal.sign(m, k, o), check: isSig };
    }
    case 'internal.verify': {
      const s = bytesArg(sig, P.sig),
        m = bytesArg(msg.subarray(0, 64), 64),
        k = bytesArg(pk, P.pk),
        o = optsArg('internal-verify');
      return { op, run: () => alg.internal.verify(s, m, k, o), check: (v) => typeof v === 'boolean' };
    }
    case 'internal.verify-sig-only': {
      let s = bytesArg(sig, P.sig);
      if (!(ArrayBuffer.isView(s) && s instanceof Uint8Array)) s = rng.bytes(rng.int(P.sig + 3));
      const mu = msg.subarray(0, 64);
      return { op, strictFalse: true, run: () => alg.internal.verify(s, mu, pk, { externalMu: true }), check: (v) => v === false };
    }
  }
  throw new Error(`internal: op ${op}`);
}

// ---------------------------------------------------------------- correctness probes
const keyGenVectors = (() => {
  const dir = path.join(acvpDir, 'ML-DSA-keyGen-FIPS204');
  const prompt = JSON.parse(fs.readFileSync(path.join(dir, 'prompt.json'), 'utf8'));
  const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expectedResults.json'), 'utf8'));
  const out = {};
  for (const g of prompt.testGroups) {
    const t = g.tests[0];
    const e = expected.testGroups.find((x) => x.tgId === g.tgId).tests.find((x) => x.tcId === t.tcId);
    out[g.parameterSet] = { seed: hex(t.seed), pk: e.pk.toUpperCase(), sk: e.sk.toUpperCase() };
  }
  return out;
})();

/** Throws (with a precise message) if the instance no longer computes right. */
function probe(F, when) {
  const { P, alg, ref, pk, sk, msg, context, sig } = F;
  assert.equal(alg.verify(sig, msg, pk, { context }), true, `${when}: ${P.name} verify(valid) is no longer true`);
  const s2 = sig.slice();
  s2[5] ^= 1;
  assert.equal(alg.verify(s2, msg, pk, { context }), false, `${when}: ${P.name} verify(tampered) is no longer false`);
  assert.equal(toHex(alg.sign(msg, sk, { context, extraEntropy: false })), toHex(sig), `${when}: ${P.name} deterministic sign changed`);
  const v = keyGenVectors[P.name];
  const kp = alg.keygen(v.seed);
  assert.equal(toHex(kp.publicKey), v.pk, `${when}: ${P.name} keygen(ACVP seed) public key wrong`);
  assert.equal(toHex(kp.secretKey), v.sk, `${when}: ${P.name} keygen(ACVP seed) secret key wrong`);
  const m2 = rng.bytes(33);
  const hedged = alg.sign(m2, kp.secretKey);
  assert.equal(ref.verify(hedged, m2, kp.publicKey), true, `${when}: ${P.name} noble rejects a fresh signature`);
  assert.equal(alg.verify(hedged, m2, kp.publicKey), true, `${when}: ${P.name} fresh signature does not verify`);
}

test(`hammer: ${CALLS} malformed calls, then keygen/sign/verify still correct`, { timeout: 10 * 60_000 }, (t) => {
  const fixtures = SETS.map(setup);
  for (const F of fixtures) probe(F, 'before the hammer');
  const tally = { returned: 0, TypeError: 0, RangeError: 0, Error: 0, strictFalse: 0 };
  const byOp = {};
  const recent = [];
  const problems = [];
  for (let i = 0; i < CALLS; i++) {
    const F = rng.pick(fixtures);
    const call = randomCall(F);
    const label = `#${i} ${F.P.name} ${call.op}`;
    recent.push(label);
    if (recent.length > 8) recent.shift();
    byOp[call.op] = (byOp[call.op] || 0) + 1;
    const r = attempt(call.run);
    if (r.ok) {
      tally.returned++;
      if (call.strictFalse) tally.strictFalse++;
      if (!call.check(r.value))
        problems.push(`${label}: returned an unexpected value ${Object.prototype.toString.call(r.value)} ${String(r.value).slice(0, 30)}`);
    } else {
      const e = r.error;
      if (isTrap(e)) {
        // A trap may have broken the instance: stop here with the context.
        assert.fail(`${label}: wasm trap ${describeError(e)}\n  last calls: ${recent.join(', ')}`);
      }
      if (call.strictFalse) problems.push(`${label}: threw ${describeError(e)} for signature bytes (must return false)`);
      else if (!(e instanceof Error)) problems.push(`${label}: threw a non-Error ${String(e)}`);
      else if (!['TypeError', 'RangeError', 'Error'].includes(e.constructor.name)) problems.push(`${label}: threw ${describeError(e)}`);
      else if (typeof e.message !== 'string' || e.message.length === 0) problems.push(`${label}: ${e.constructor.name} without a message`);
      else tally[e.constructor.name]++;
    }
    if (problems.length > 20) break;
    if ((i + 1) % CANARY_EVERY === 0) {
      try {
        for (const G of fixtures) probe(G, `after call #${i}`);
      } catch (e) {
        assert.fail(`${describeError(e)}\n  last calls: ${recent.join(', ')}`);
      }
    }
  }
  assert.equal(problems.length, 0, `${problems.length} bad outcomes:\n  ${problems.join('\n  ')}`);
  for (const F of fixtures) probe(F, 'after the hammer');
  const n = Object.values(byOp).reduce((a, b) => a + b, 0);
  t.diagnostic(
    `hammer: ${n} calls (${tally.returned} returned, ${tally.TypeError} TypeError, ${tally.RangeError} RangeError, ${tally.Error} Error; ` +
      `${tally.strictFalse} hostile signatures → false), 0 traps; MLDSA_TEST_SEED=${rng.seedHex} (impl: ${IMPL})`,
  );
  t.diagnostic(`hammer: per operation ${JSON.stringify(byOp)}`);
  assert.equal(n, CALLS);
});

// wasm32 cannot hold an allocation of 2 GiB or more (Rust limits one allocation to
// isize::MAX). A message that large must be refused with an exception naming it,
// or handled; it must not trap. (The JS buffer is zero-filled lazily: little RSS.)
test('oversized message (2 GiB + 16 bytes): no trap, and the instance still works', {
  timeout: 10 * 60_000,
  skip: IMPL === 'noble' ? 'wasm-only concern (MLDSA_IMPL=noble)' : false,
}, (t) => {
  let big;
  try {
    big = new Uint8Array(2 ** 31 + 16);
  } catch (e) {
    t.skip(`cannot allocate 2 GiB in this process: ${describeError(e)}`);
    return;
  }
  const F = setup(SETS[0]);
  const { alg, pk, sk, sig } = F;
  const isSig = (v) => v instanceof Uint8Array && v.length === F.P.sig;
  const isFalse = (v) => v === false; // sig signs another message
  const calls = {
    sign: [() => alg.sign(big, sk), isSig],
    verify: [() => alg.verify(sig, big, pk), isFalse],
    'prehash(sha256).sign': [() => alg.prehash(PH.sha256).sign(big, sk), isSig],
    'prehash(sha256).verify': [() => alg.prehash(PH.sha256).verify(sig, big, pk), isFalse],
    'internal.sign': [() => alg.internal.sign(big, sk), isSig],
    'internal.verify': [() => alg.internal.verify(sig, big, pk), isFalse],
  };
  const problems = [];
  for (const [what, [fn, check]] of Object.entries(calls)) {
    const r = attempt(fn);
    if (r.ok) {
      if (!check(r.value)) problems.push(`${what}: returned ${String(r.value).slice(0, 30)}`);
      continue;
    }
    if (isTrap(r.error)) problems.push(`${what}: wasm trap ${describeError(r.error)}`);
    else if (!(r.error instanceof RangeError) || !/\bmsg\b|message/i.test(r.error.message))
      problems.push(`${what}: expected a RangeError naming the message, got ${describeError(r.error)}`);
  }
  big = null;
  assert.deepEqual(problems, []);
  for (const G of SETS.map(setup)) probe(G, 'after the oversized messages');
});
