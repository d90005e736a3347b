// mldsa-simd/verify: verification alone, over its own .wasm (built with the
// crate's verify-only feature). Every ACVP sigVer vector through it; the same
// answers as the main entry for every way of verifying (pure, context, long
// messages hashed into μ, internal M′ and external μ, HashML-DSA, streams,
// prepared verifiers), on good signatures and on each kind of bad one; no
// method that makes keys or signs, and a module that exports none; bad
// arguments refused as the main entry refuses them; the two instances apart.
import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { lib, IMPL, importFromConsumer, prehash as PH } from './lib/load.mjs';
import { runSigVer, SIGVER_TOTAL } from './lib/acvp.mjs';

const skip = IMPL === 'noble' ? 'mldsa-simd/verify is not part of the noble API (MLDSA_IMPL=noble)' : false;
const V = skip ? {} : await importFromConsumer('mldsa-simd/verify');
const SETS = [44, 65, 87];

test('mldsa-simd/verify: every ACVP sigVer vector', { skip }, () => {
  const { passed, total, failures } = runSigVer(V);
  assert.deepEqual(failures, []);
  assert.equal(total, SIGVER_TOTAL);
  assert.equal(passed, total);
  console.log(`verify entry: ACVP sigVer ${passed}/${total}`);
});

test("mldsa-simd/verify: nothing that makes keys or signs, and noble's shape otherwise", { skip }, () => {
  for (const n of SETS) {
    const v = V[`ml_dsa${n}`];
    const m = lib[`ml_dsa${n}`];
    for (const name of ['keygen', 'getPublicKey', 'sign', 'createSign', 'signStream', 'signer']) assert.equal(name in v, false, `${n}: ${name}`);
    assert.equal('sign' in v.internal, false);
    assert.equal('sign' in v.prehash(PH.sha256), false);
    assert.deepEqual(v.lengths, m.lengths);
    assert.equal(v.securityLevel, m.securityLevel);
    assert.deepEqual(v.info, m.info);
    assert.ok(Object.isFrozen(v) && Object.isFrozen(v.internal));
  }
  assert.equal(V.isSupported(), true);
  assert.ok(V.wasmMemoryBytes() > 0 && V.wasmMemoryInUse() > 0);
});

test('mldsa-simd/verify answers as the main entry, for every way of verifying', { skip }, async () => {
  const enc = (s) => new TextEncoder().encode(s);
  for (const n of SETS) {
    const v = V[`ml_dsa${n}`];
    const m = lib[`ml_dsa${n}`];
    const { publicKey, secretKey } = m.keygen(new Uint8Array(32).fill(n));
    const other = m.keygen(new Uint8Array(32).fill(n + 1)).publicKey;
    const context = enc('ctx');
    for (const size of [0, 1, 1000, 65536, 65537, 200_000]) {
      const msg = new Uint8Array(size).map((_, i) => (i * 31 + n) & 255);
      const sig = m.sign(msg, secretKey, { context });
      const bad = sig.slice();
      bad[bad.length >> 1] ^= 1;
      const flipped = msg.slice();
      if (size) flipped[size - 1] ^= 1;
      const cases = [
        ['good', sig, msg, publicKey, { context }],
        ['no context', sig, msg, publicKey, undefined],
        ['bad signature', bad, msg, publicKey, { context }],
        ['short signature', sig.subarray(1), msg, publicKey, { context }],
        ['other key', sig, msg, other, { context }],
        ...(size ? [['other message', sig, flipped, publicKey, { context }]] : []),
      ];
      for (const [what, s, mm, pk, opts] of cases) {
        const want = m.verify(s, mm, pk, opts);
        assert.equal(v.verify(s, mm, pk, opts), want, `${n} ${size} ${what}: verify`);
        const prepared = v.verifier(pk);
        assert.equal(prepared.verify(s, mm, opts), want, `${n} ${size} ${what}: verifier`);
        prepared.free();
        assert.equal(v.createVerify(pk, opts).update(mm.subarray(0, 7)).update(mm.subarray(7)).verify(s), want, `${n} ${size} ${what}: createVerify`);
        assert.equal(await v.verifyStream(s, [mm], pk, opts), want, `${n} ${size} ${what}: verifyStream`);
      }
      if (size > 70_000) continue;
      // The internal interface: M′ as given and an external μ.
      const mPrime = new Uint8Array([0, context.length, ...context, ...msg]);
      const sigOfMPrime = m.internal.sign(mPrime, secretKey, { extraEntropy: false });
      assert.equal(v.internal.verify(sigOfMPrime, mPrime, publicKey), true);
      assert.equal(v.internal.verify(sigOfMPrime, mPrime.subarray(1), publicKey), false);
      // μ = H(H(pk, 64) ‖ M′, 64), by node:crypto (FIPS 204 Algorithm 8 lines 6–7).
      const shake = (...parts) => {
        const h = crypto.createHash('shake256', { outputLength: 64 });
        for (const p of parts) h.update(p);
        return new Uint8Array(h.digest());
      };
      const mu = shake(shake(publicKey), mPrime);
      assert.equal(v.internal.verify(sigOfMPrime, mu, publicKey, { externalMu: true }), true);
      assert.equal(
        v.internal.verify(
          sigOfMPrime,
          mu.map((b, i) => (i ? b : b ^ 1)),
          publicKey,
          { externalMu: true },
        ),
        false,
      );
      // HashML-DSA, one-shot and streamed.
      const ph = m.prehash(PH.sha512).sign(msg, secretKey, { context });
      assert.equal(v.prehash(PH.sha512).verify(ph, msg, publicKey, { context }), true);
      assert.equal(v.prehash(PH.sha512).createVerify(publicKey, { context }).update(msg).verify(ph), true);
      assert.equal(v.prehash(PH.sha256).verify(ph, msg, publicKey, { context }), false);
    }
  }
});

test('mldsa-simd/verify refuses bad arguments as the main entry does', { skip }, () => {
  const m = lib.ml_dsa44;
  const v = V.ml_dsa44;
  const { publicKey, secretKey } = m.keygen(new Uint8Array(32));
  const msg = new Uint8Array(10);
  const sig = m.sign(msg, secretKey);
  const calls = [
    [(a) => a.verify('sig', msg, publicKey)],
    [(a) => a.verify(sig, [1, 2], publicKey)],
    [(a) => a.verify(sig, msg, publicKey.subarray(1))],
    [(a) => a.verify(sig, msg, publicKey, { context: new Uint8Array(256) })],
    [(a) => a.verify(sig, msg, publicKey, { other: 1 })],
    [(a) => a.internal.verify(sig, msg, publicKey, { externalMu: true })],
    [(a) => a.prehash('sha512')],
    [(a) => a.verifier(publicKey.subarray(2))],
  ];
  for (const [call] of calls) {
    const outcome = (a) => {
      try {
        return `returned ${call(a)}`;
      } catch (e) {
        return `${e.constructor.name}: ${e.message}`;
      }
    };
    assert.equal(outcome(v), outcome(m), String(call));
  }
  const freed = v.verifier(publicKey);
  freed.free();
  assert.throws(() => freed.verify(sig, msg), /used after free\(\)/);
});

test("the two entries have their own instances: a verifier of one outlives the other's keys", { skip }, () => {
  const m = lib.ml_dsa65;
  const { publicKey, secretKey } = m.keygen(new Uint8Array(32).fill(9));
  const msg = new Uint8Array(100);
  const sig = m.sign(msg, secretKey);
  const before = V.wasmMemoryInUse();
  const verifiers = Array.from({ length: 8 }, () => V.ml_dsa65.verifier(publicKey));
  assert.ok(V.wasmMemoryInUse() > before, "the verify entry's instance holds its verifiers");
  const signers = Array.from({ length: 8 }, () => m.signer(secretKey));
  for (const s of signers) assert.equal(V.ml_dsa65.verify(s.sign(msg), msg, publicKey), true);
  for (const s of signers) s.free();
  for (const x of verifiers) assert.equal(x.verify(sig, msg), true);
  for (const x of verifiers) x.free();
});
