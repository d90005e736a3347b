// Interoperability with @noble/post-quantum (the API this package replaces), both
// directions, all three parameter sets, random keys, messages and contexts.
// Random inputs come from a seeded generator; the seed is printed, and
// MLDSA_TEST_SEED=<seed> repeats a run.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { shake256, shake128 } from '@noble/hashes/sha3.js';
import { lib, SETS, IMPL, prehash as PH } from './lib/load.mjs';
import { Rng, toHex, equalBytes, HASH_FNS, hashMlDsaMessage, pureMlDsaMessage, concat } from './lib/util.mjs';

const rng = new Rng('interop');
test('random seed', (t) => t.diagnostic(`interop: MLDSA_TEST_SEED=${rng.seedHex} (impl: ${IMPL})`));

const eq = (got, want, what) => {
  assert.ok(got instanceof Uint8Array, `${what}: expected a Uint8Array, got ${Object.prototype.toString.call(got)}`);
  assert.equal(toHex(got), toHex(want), `${what}: bytes differ`);
};
// Message lengths and context lengths that every direction goes through.
const MSG_LENS = [0, 1, 32, 64, 1000, 4097];
const CTX_LENS = [undefined, 0, 1, 31, 200, 255];

for (const P of SETS) {
  const ours = lib[P.key];
  const ref = noble[P.key];

  test(`${P.name}: lengths`, () => {
    assert.deepEqual({ ...ours.lengths }, { ...ref.lengths });
    assert.deepEqual({ ...ours.lengths }, { publicKey: P.pk, secretKey: P.sk, signature: P.sig, seed: 32, signRand: 32 });
  });

  test(`${P.name}: keygen(seed) and getPublicKey equal noble`, () => {
    const seeds = [new Uint8Array(32), new Uint8Array(32).fill(0xff), rng.bytes(32), rng.bytes(32), rng.bytes(32)];
    for (const seed of seeds) {
      const a = ours.keygen(seed);
      const b = ref.keygen(seed);
      eq(a.publicKey, b.publicKey, `publicKey for seed ${toHex(seed)}`);
      eq(a.secretKey, b.secretKey, `secretKey for seed ${toHex(seed)}`);
      eq(ours.getPublicKey(b.secretKey), b.publicKey, 'ours.getPublicKey(noble sk)');
      eq(ref.getPublicKey(a.secretKey), a.publicKey, 'noble.getPublicKey(our sk)');
    }
  });

  test(`${P.name}: random keygen() gives fresh, valid keys`, () => {
    const a = ours.keygen();
    const b = ours.keygen();
    assert.equal(a.publicKey.length, P.pk);
    assert.equal(a.secretKey.length, P.sk);
    assert.ok(!equalBytes(a.publicKey, b.publicKey), 'two keygen() calls returned the same key');
    eq(ref.getPublicKey(a.secretKey), a.publicKey, 'noble.getPublicKey(random sk)');
    const msg = rng.bytes(77);
    assert.equal(ref.verify(ours.sign(msg, a.secretKey), msg, a.publicKey), true, 'noble rejected a signature by a random key');
  });

  test(`${P.name}: noble signs, we verify (hedged; messages and contexts of many lengths)`, () => {
    const { publicKey, secretKey } = ref.keygen(rng.bytes(32));
    for (const mlen of MSG_LENS) {
      for (const clen of CTX_LENS) {
        const msg = rng.bytes(mlen);
        const opts = clen === undefined ? undefined : { context: rng.bytes(clen) };
        const sig = ref.sign(msg, secretKey, opts);
        assert.equal(ours.verify(sig, msg, publicKey, opts), true, `msg ${mlen} B, ctx ${clen}`);
        if (clen) assert.equal(ours.verify(sig, msg, publicKey), false, 'verified without its context');
      }
    }
  });

  test(`${P.name}: we sign, noble verifies (hedged; messages and contexts of many lengths)`, () => {
    const { publicKey, secretKey } = ours.keygen(rng.bytes(32));
    let previous = null;
    for (const mlen of MSG_LENS) {
      for (const clen of CTX_LENS) {
        const msg = rng.bytes(mlen);
        const opts = clen === undefined ? undefined : { context: rng.bytes(clen) };
        const sig = ours.sign(msg, secretKey, opts);
        assert.equal(sig.length, P.sig);
        assert.equal(ref.verify(sig, msg, publicKey, opts), true, `msg ${mlen} B, ctx ${clen}`);
        assert.equal(ours.verify(sig, msg, publicKey, opts), true, `own signature, msg ${mlen} B, ctx ${clen}`);
        previous = { msg, opts, sig };
      }
    }
    // Hedged signing must not be deterministic.
    const again = ours.sign(previous.msg, secretKey, previous.opts);
    assert.ok(!equalBytes(again, previous.sig), 'hedged signing returned the same signature twice');
  });

  test(`${P.name}: deterministic and caller-rnd signatures are byte-equal to noble`, () => {
    const { secretKey } = ref.keygen(rng.bytes(32));
    for (const mlen of [0, 1, 100, 3000]) {
      for (const clen of [undefined, 0, 13, 255]) {
        const msg = rng.bytes(mlen);
        const context = clen === undefined ? undefined : rng.bytes(clen);
        const det = { context, extraEntropy: false };
        eq(ours.sign(msg, secretKey, det), ref.sign(msg, secretKey, det), `deterministic, msg ${mlen}, ctx ${clen}`);
        const rnd = { context, extraEntropy: rng.bytes(32) };
        eq(ours.sign(msg, secretKey, rnd), ref.sign(msg, secretKey, rnd), `extraEntropy given, msg ${mlen}, ctx ${clen}`);
      }
    }
    // extraEntropy false is the same as 32 zero bytes.
    const msg = rng.bytes(10);
    eq(ours.sign(msg, secretKey, { extraEntropy: false }), ours.sign(msg, secretKey, { extraEntropy: new Uint8Array(32) }), 'false vs zero rnd');
  });

  test(`${P.name}: subarrays and Buffers are read at their offsets`, () => {
    const seed = rng.bytes(32);
    const { publicKey, secretKey } = ref.keygen(seed);
    const msg = rng.bytes(100);
    const context = rng.bytes(20);
    const want = ref.sign(msg, secretKey, { context, extraEntropy: false });
    const inside = (b) => {
      const big = rng.bytes(b.length + 64);
      big.set(b, 31);
      return big.subarray(31, 31 + b.length);
    };
    const kp = ours.keygen(inside(seed));
    eq(kp.publicKey, publicKey, 'keygen(subarray seed)');
    eq(ours.sign(inside(msg), inside(secretKey), { context: inside(context), extraEntropy: false }), want, 'sign(subarrays)');
    eq(ours.sign(Buffer.from(msg), Buffer.from(secretKey), { context: Buffer.from(context), extraEntropy: false }), want, 'sign(Buffers)');
    assert.equal(ours.verify(inside(want), inside(msg), inside(publicKey), { context: inside(context) }), true, 'verify(subarrays)');
    assert.equal(ours.verify(Buffer.from(want), Buffer.from(msg), Buffer.from(publicKey), { context: Buffer.from(context) }), true, 'verify(Buffers)');
    eq(ours.getPublicKey(inside(secretKey)), publicKey, 'getPublicKey(subarray)');
  });

  test(`${P.name}: prehash (mldsa-simd/prehash's and noble-hashes functions) equals noble, for every FIPS 204 pre-hash`, () => {
    const { publicKey, secretKey } = ref.keygen(rng.bytes(32));
    let nobleAccepted = 0;
    for (const [name, fn] of Object.entries(HASH_FNS)) {
      const msg = rng.bytes(rng.int(300));
      const context = rng.bytes(1 + rng.int(40));
      const det = { context, extraEntropy: false };
      // Reference: HashML-DSA built by hand on noble's internal API (works for every hash).
      const want = ref.internal.sign(hashMlDsaMessage(fn, msg, context), secretKey, { extraEntropy: false });
      const byOurs = ours.prehash(PH[name]).sign(msg, secretKey, det);
      eq(byOurs, want, `prehash(${name})`);
      eq(ours.prehash(fn).sign(msg, secretKey, det), want, `prehash(noble-hashes ${name})`);
      assert.equal(ours.prehash(PH[name]).verify(want, msg, publicKey, { context }), true, `prehash(${name}).verify`);
      assert.equal(ours.prehash(PH[name]).verify(want, msg, publicKey), false, `prehash(${name}).verify without context`);
      // Noble's own prehash() accepts only hashes at least as strong as the set.
      let nobleSigner = null;
      try {
        nobleSigner = ref.prehash(fn);
      } catch (e) {
        assert.match(String(e.message), /strength/i, `noble refused ${name} for an unexpected reason`);
      }
      if (nobleSigner) {
        nobleAccepted++;
        eq(nobleSigner.sign(msg, secretKey, det), byOurs, `noble prehash(${name}) vs ours`);
        assert.equal(
          nobleSigner.verify(ours.prehash(PH[name]).sign(msg, secretKey, { context }), msg, publicKey, { context }),
          true,
          `noble verifies our hedged prehash(${name})`,
        );
        assert.equal(
          ours.prehash(PH[name]).verify(nobleSigner.sign(msg, secretKey, { context }), msg, publicKey, { context }),
          true,
          `we verify noble's hedged prehash(${name})`,
        );
        // noble's prehash() takes mldsa-simd/prehash's function as well.
        eq(ref.prehash(PH[name]).sign(msg, secretKey, det), byOurs, `noble prehash(mldsa-simd/prehash ${name}) vs ours`);
      }
    }
    assert.ok(nobleAccepted >= 3, `noble accepted only ${nobleAccepted} hashes`);
  });

  test(`${P.name}: prehash with a SHAKE of the wrong output length never signs under the SHAKE OID`, () => {
    // noble-hashes' bare shake128/shake256 output 16/32 bytes, but the OIDs promise
    // 32/64 (FIPS 204 §5.4). Acceptable: throw, or hash with the proper length.
    const { secretKey } = ref.keygen(rng.bytes(32));
    const msg = rng.bytes(50);
    for (const [bare, name] of [
      [shake128, 'shake128'],
      [shake256, 'shake256'],
    ]) {
      let sig;
      try {
        sig = ours.prehash(bare).sign(msg, secretKey, { extraEntropy: false });
      } catch (e) {
        assert.ok(e instanceof Error, 'threw a non-Error');
        continue;
      }
      eq(sig, ours.prehash(PH[name]).sign(msg, secretKey, { extraEntropy: false }), `bare ${name} signed something else`);
    }
  });

  test(`${P.name}: internal sign/verify (M′ and external μ) equal noble`, () => {
    const { publicKey, secretKey } = ref.keygen(rng.bytes(32));
    const tr = secretKey.subarray(64, 128); // sk = ρ ‖ K ‖ tr ‖ …
    for (const mlen of [0, 1, 64, 999]) {
      const m = rng.bytes(mlen);
      const mu = shake256(concat(tr, m), { dkLen: 64 });
      const want = ref.internal.sign(m, secretKey, { extraEntropy: false });
      eq(ours.internal.sign(m, secretKey, { extraEntropy: false }), want, `internal.sign M′ ${mlen} B`);
      eq(ours.internal.sign(mu, secretKey, { externalMu: true, extraEntropy: false }), want, 'internal.sign externalMu');
      eq(ref.internal.sign(mu, secretKey, { externalMu: true, extraEntropy: false }), want, 'noble externalMu (harness check)');
      assert.equal(ours.internal.verify(want, m, publicKey), true, 'internal.verify M′');
      assert.equal(ours.internal.verify(want, mu, publicKey, { externalMu: true }), true, 'internal.verify externalMu');
      const hedged = ours.internal.sign(mu, secretKey, { externalMu: true });
      assert.equal(ref.internal.verify(hedged, m, publicKey), true, 'noble verifies our hedged externalMu signature');
      assert.equal(ref.internal.verify(hedged, mu, publicKey, { externalMu: true }), true, 'noble verifies it with externalMu');
    }
    // External μ of the pure API: μ = H(tr ‖ 0 ‖ |ctx| ‖ ctx ‖ M).
    const msg = rng.bytes(123);
    const context = rng.bytes(9);
    const mu = shake256(concat(tr, pureMlDsaMessage(msg, context)), { dkLen: 64 });
    eq(
      ours.internal.sign(mu, secretKey, { externalMu: true, extraEntropy: false }),
      ours.sign(msg, secretKey, { context, extraEntropy: false }),
      'μ of the pure API',
    );
  });

  test(`${P.name}: tampering is rejected by both`, () => {
    const { publicKey, secretKey } = ours.keygen(rng.bytes(32));
    const other = ours.keygen(rng.bytes(32));
    const msg = rng.bytes(200);
    const context = rng.bytes(5);
    const sig = ours.sign(msg, secretKey, { context });
    const both = (s, m, pk, opts, what) => {
      assert.equal(ours.verify(s, m, pk, opts), false, `ours accepted: ${what}`);
      assert.equal(ref.verify(s, m, pk, opts), false, `noble accepted: ${what}`);
    };
    assert.equal(ours.verify(sig, msg, publicKey, { context }), true);
    for (let i = 0; i < 24; i++) {
      const bad = sig.slice();
      const bit = rng.int(bad.length * 8);
      bad[bit >> 3] ^= 1 << (bit & 7);
      both(bad, msg, publicKey, { context }, `signature bit ${bit} flipped`);
    }
    const badMsg = msg.slice();
    badMsg[rng.int(badMsg.length)] ^= 0x10;
    both(sig, badMsg, publicKey, { context }, 'message changed');
    both(sig, msg.subarray(1), publicKey, { context }, 'message shortened');
    both(sig, msg, publicKey, { context: context.subarray(1) }, 'other context');
    both(sig, msg, publicKey, undefined, 'no context');
    both(sig, msg, other.publicKey, { context }, 'other public key');
    const badPk = publicKey.slice();
    badPk[100] ^= 1;
    both(sig, msg, badPk, { context }, 'public key changed');
    // A pure signature is not a prehash or internal signature, and back.
    assert.equal(ours.prehash(PH.sha512).verify(sig, msg, publicKey, { context }), false, 'pure signature accepted by prehash verify');
    assert.equal(ours.internal.verify(sig, msg, publicKey), false, 'pure signature accepted by internal verify on M');
    const ph = ours.prehash(PH.sha512).sign(msg, secretKey, { context });
    both(ph, msg, publicKey, { context }, 'prehash signature through pure verify');
  });
}

// Messages above 64 KiB go to wasm in pieces (μ and PH(M) computed incrementally);
// both paths, and the boundary, must give noble's bytes.
test('large messages: the streamed path equals noble at and around the 64 KiB boundary', () => {
  const P = SETS[0];
  const ours = lib[P.key];
  const ref = noble[P.key];
  const { publicKey, secretKey } = ref.keygen(rng.bytes(32));
  const ctx = rng.bytes(9);
  for (const n of [(1 << 16) - 1, 1 << 16, (1 << 16) + 1, 2 * (1 << 20) + 17]) {
    const msg = rng.bytes(n);
    const det = { extraEntropy: false };
    eq(ours.sign(msg, secretKey, { ...det, context: ctx }), ref.sign(msg, secretKey, { ...det, context: ctx }), `sign, ${n} bytes`);
    eq(ours.internal.sign(msg, secretKey, det), ref.internal.sign(msg, secretKey, det), `internal.sign, ${n} bytes`);
    const ph = ref.prehash(HASH_FNS.sha512);
    eq(ours.prehash(PH.sha512).sign(msg, secretKey, det), ph.sign(msg, secretKey, det), `prehash(sha512).sign, ${n} bytes`);
    const sig = ref.sign(msg, secretKey, { context: ctx });
    assert.equal(ours.verify(sig, msg, publicKey, { context: ctx }), true, `verify, ${n} bytes`);
    assert.equal(ours.verify(sig, msg.subarray(1), publicKey, { context: ctx }), false, `verify of a shortened message, ${n} bytes`);
    assert.equal(ours.internal.verify(ref.internal.sign(msg, secretKey), msg, publicKey), true, `internal.verify, ${n} bytes`);
    assert.equal(ours.prehash(PH.sha512).verify(ph.sign(msg, secretKey), msg, publicKey), true, `prehash verify, ${n} bytes`);
  }
});

// Keys whose t0 is extreme (every coefficient ±2^12) make the signer's rarest
// rejections happen: ‖ct0‖∞ ≥ γ2 (never reached by NIST's vectors) and more than
// ω hints. noble takes any secret key, so the signatures must still be equal.
test('ML-DSA-44: keys with extreme t0 (ct0 and hint-count rejections) sign exactly like noble', () => {
  const ours = lib.ml_dsa44;
  const ref = noble.ml_dsa44;
  const { secretKey } = ref.keygen(rng.bytes(32));
  const t0Start = 128 + 32 * 3 * (4 + 4);
  // 256 coefficients of 13 bits, each 0 (t0 = 2^12) or 8191 (t0 = −(2^12 − 1)).
  const packExtreme = () => {
    const out = new Uint8Array(32 * 13);
    let acc = 0n,
      have = 0n,
      o = 0;
    for (let i = 0; i < 256; i++) {
      acc |= (rng.bool() ? 8191n : 0n) << have;
      have += 13n;
      while (have >= 8n) {
        out[o++] = Number(acc & 255n);
        acc >>= 8n;
        have -= 8n;
      }
    }
    return out;
  };
  const extreme = Uint8Array.from(secretKey);
  // Two of the four t0 polynomials: with all four, some keys need more than the
  // 2^16/ℓ attempts at which we give up (and noble never does).
  for (let i = 0; i < 2; i++) extreme.set(packExtreme(), t0Start + i * 32 * 13);
  const firstOnly = Uint8Array.from(secretKey);
  firstOnly.fill(0, t0Start, t0Start + 32 * 13);
  for (const [sk, count] of [
    [firstOnly, 6],
    [extreme, 8],
  ]) {
    for (let i = 0; i < count; i++) {
      const msg = rng.bytes(1 + i);
      eq(ours.sign(msg, sk, { extraEntropy: false }), ref.sign(msg, sk, { extraEntropy: false }), `message ${i}`);
    }
  }
});
