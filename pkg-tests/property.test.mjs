// Property test (fast-check) of the installed package against @noble/post-quantum:
// for random seeds, messages and contexts in all three sets, both give the same keys
// and the same deterministic and caller-randomised signatures, and for mutations of a
// valid signature (bit flips anywhere, truncation, extension, c̃, z and hint-region
// corruptions, z set to the edges of its range, malformed hints of every kind) both
// give the same accept/reject answer: true only for the signature as made, false for
// every changed one (ML-DSA signatures are strongly unforgeable and their encoding is
// unique, so a changed signature that verifies would be a bug in both).
//
// The fast-check seed comes from MLDSA_TEST_SEED (printed); a failure prints the
// shrunk counterexample. MLDSA_PROPERTY_RUNS=<n> (default 20) keys per set.
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { lib, SETS, IMPL } from './lib/load.mjs';
import { Rng, toHex, equalBytes } from './lib/util.mjs';

const rng = new Rng('property');
const fcSeed = rng.int(2 ** 31);
const RUNS = Number(process.env.MLDSA_PROPERTY_RUNS || 20);
test('random seed', (t) => t.diagnostic(`property: MLDSA_TEST_SEED=${rng.seedHex} (fast-check seed ${fcSeed}, ${RUNS} runs per set, impl: ${IMPL})`));

/** Writes `value` into bits [bit, bit + width) of `buf`, little-endian as FIPS 204's BitPack. */
function setBits(buf, bit, width, value) {
  for (let i = 0; i < width; i++, bit++) {
    const m = 1 << (bit & 7);
    if ((value >> i) & 1) buf[bit >> 3] |= m;
    else buf[bit >> 3] &= ~m;
  }
}

/** The mutations of a signature of set P, as fast-check arbitraries of plain records. */
function mutations(P) {
  const zBits = P.gamma1 === 1 << 17 ? 18 : 20;
  const byteValue = fc.integer({ min: 1, max: 255 });
  return fc.oneof(
    fc.record({ kind: fc.constant('flip'), bits: fc.array(fc.nat(P.sig * 8 - 1), { minLength: 1, maxLength: 4 }) }),
    fc.record({ kind: fc.constant('truncate'), n: fc.integer({ min: 1, max: P.sig }) }),
    fc.record({ kind: fc.constant('extend'), extra: fc.uint8Array({ minLength: 1, maxLength: 40 }) }),
    fc.record({ kind: fc.constant('ctilde'), at: fc.nat(P.ctildeLen - 1), x: byteValue }),
    fc.record({ kind: fc.constant('z'), at: fc.nat(P.zLen - 1), x: byteValue }),
    // One coefficient of z at or next to the edges of ‖z‖∞ < γ1 − β (BitPack stores γ1 − z).
    fc.record({
      kind: fc.constant('z-edge'),
      coeff: fc.nat(P.l * 256 - 1),
      stored: fc.constantFrom(P.beta, P.beta + 1, 2 * P.gamma1 - P.beta, 2 * P.gamma1 - P.beta - 1, 0, 2 ** zBits - 1),
    }),
    fc.record({ kind: fc.constant('hint-byte'), at: fc.nat(P.omega + P.k - 1), value: fc.nat(255) }),
    fc.record({ kind: fc.constant('hint-count'), i: fc.nat(P.k - 1), delta: fc.constantFrom(-2, -1, 1, 2, 255 - P.omega) }),
    fc.record({ kind: fc.constant('hint-swap'), at: fc.nat(P.omega - 2) }),
    fc.record({ kind: fc.constant('hint-dup'), at: fc.nat(P.omega - 2) }),
    fc.record({ kind: fc.constant('hint-pad'), at: fc.nat(P.omega - 1), x: byteValue }),
  );
}

function mutate(P, sig, m) {
  const s = sig.slice();
  const h = P.hintOff;
  const used = sig[sig.length - 1]; // hints in all: the last polynomial's count
  switch (m.kind) {
    case 'flip':
      for (const b of m.bits) s[b >> 3] ^= 1 << (b & 7);
      return s;
    case 'truncate':
      return s.subarray(0, s.length - m.n);
    case 'extend': {
      const out = new Uint8Array(s.length + m.extra.length);
      out.set(s);
      out.set(m.extra, s.length);
      return out;
    }
    case 'ctilde':
      s[m.at] ^= m.x;
      return s;
    case 'z':
      s[P.ctildeLen + m.at] ^= m.x;
      return s;
    case 'z-edge':
      setBits(s, 8 * P.ctildeLen + m.coeff * (P.zLen / P.l / 32), P.zLen / P.l / 32, m.stored);
      return s;
    case 'hint-byte':
      s[h + m.at] = m.value;
      return s;
    case 'hint-count':
      s[h + P.omega + m.i] = (s[h + P.omega + m.i] + m.delta) & 0xff;
      return s;
    case 'hint-swap': // indices out of order (a no-op when both are padding)
      [s[h + m.at], s[h + m.at + 1]] = [s[h + m.at + 1], s[h + m.at]];
      return s;
    case 'hint-dup': // an index repeated
      s[h + m.at + 1] = s[h + m.at];
      return s;
    case 'hint-pad': // non-zero padding after the last hint (a no-op when ω hints are used)
      if (used < P.omega) s[h + used + (m.at % (P.omega - used))] = m.x;
      return s;
    default:
      throw new Error(`unknown mutation ${m.kind}`);
  }
}

const context = fc.oneof(fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ minLength: 200, maxLength: 255 }));

for (const P of SETS) {
  const ours = lib[P.key];
  const ref = noble[P.key];

  test(`${P.name}: same keys, signatures and accept/reject answers as noble for random inputs and mutated signatures`, (t) => {
    const kinds = {};
    let changed = 0;
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 300 }),
        context,
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.array(mutations(P), { minLength: 8, maxLength: 16 }),
        (seed, msg, ctx, rnd, muts) => {
          const a = ours.keygen(seed);
          const b = ref.keygen(seed);
          assert.equal(toHex(a.publicKey), toHex(b.publicKey), 'publicKey');
          assert.equal(toHex(a.secretKey), toHex(b.secretKey), 'secretKey');
          const { publicKey: pk, secretKey: sk } = a;
          const det = ours.sign(msg, sk, { context: ctx, extraEntropy: false });
          assert.equal(toHex(det), toHex(ref.sign(msg, sk, { context: ctx, extraEntropy: false })), 'deterministic signature');
          const sig = ours.sign(msg, sk, { context: ctx, extraEntropy: rnd });
          assert.equal(toHex(sig), toHex(ref.sign(msg, sk, { context: ctx, extraEntropy: rnd })), 'signature with caller rnd');
          for (const s of [det, sig]) {
            assert.equal(ours.verify(s, msg, pk, { context: ctx }), true, 'ours rejects a valid signature');
            assert.equal(ref.verify(s, msg, pk, { context: ctx }), true, 'noble rejects a valid signature');
          }
          for (const m of muts) {
            const bad = mutate(P, sig, m);
            const same = equalBytes(bad, sig);
            const x = ours.verify(bad, msg, pk, { context: ctx });
            const y = ref.verify(bad, msg, pk, { context: ctx });
            assert.equal(x, y, `ours ${x}, noble ${y} for ${m.kind} ${JSON.stringify(m, (k, v) => (v instanceof Uint8Array ? toHex(v) : v))}`);
            assert.equal(x, same, same ? 'the unchanged signature is rejected' : `a changed signature (${m.kind}) verifies`);
            kinds[m.kind] = (kinds[m.kind] || 0) + 1;
            changed += same ? 0 : 1;
          }
          // The signature under another message or context.
          const msg2 = new Uint8Array([...msg, 0]);
          assert.equal(ours.verify(sig, msg2, pk, { context: ctx }), false);
          assert.equal(ref.verify(sig, msg2, pk, { context: ctx }), false);
          const ctx2 = ctx.length ? ctx.subarray(1) : new Uint8Array([0]);
          assert.equal(ours.verify(sig, msg, pk, { context: ctx2 }), false);
          assert.equal(ref.verify(sig, msg, pk, { context: ctx2 }), false);
        },
      ),
      { seed: fcSeed, numRuns: RUNS, includeErrorInReport: true },
    );
    t.diagnostic(`${P.name}: ${RUNS} keys, ${changed} changed signatures rejected by both; mutations ${JSON.stringify(kinds)}`);
  });
}
