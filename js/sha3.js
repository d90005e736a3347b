/**
 * SHA-3 and SHAKE (FIPS 202) for mldsa-simd/prehash: KECCAK-p[1600, 24]
 * (§3.3, Algorithm 7) and the sponge (§4, Algorithm 8) with the pad10*1 rule
 * (Algorithm 9) and the domain bits of §6.1 (SHA-3: 01) and §6.2 (SHAKE: 1111).
 *
 * A lane (64 bits) is two 32-bit words, low word first: lane x + 5y of the
 * state is words 2(x + 5y) and 2(x + 5y) + 1, so word j holds bytes 4j..4j+3
 * of the state string (§3.1.2), read little-endian. The tables (ρ offsets,
 * π destinations, ι round constants) are computed at load from their
 * definitions in §3.2, not written out.
 * @module
 */

import { U8 } from './args.js';

const I32 = Int32Array;

// ---------------------------------------------------------------- tables (FIPS 202 §3.2)
// Lane x + 5y, rotated by ρ (Algorithm 2), goes to lane DEST[x + 5y] (π,
// Algorithm 3: A′[x, y] = A[(x + 3y) mod 5, x], so A[x, y] lands on
// A′[y, (2x + 3y) mod 5]). A rotation by r ≥ 32 is a swap of the two words
// and a rotation by r − 32: ROT holds r mod 32 and SWAP whether r ≥ 32.
const DEST = new U8(25);
const ROT = new U8(25);
const SWAP = new U8(25);
for (let i = 0; i < 25; i++) DEST[i] = 2 * (Math.floor(i / 5) + 5 * ((2 * (i % 5) + 3 * Math.floor(i / 5)) % 5));
for (let t = 0, x = 1, y = 0; t < 24; t++) {
  const r = (((t + 1) * (t + 2)) / 2) % 64; // never 0 or 32: no lane but (0, 0) is left unrotated
  ROT[x + 5 * y] = r % 32;
  SWAP[x + 5 * y] = r >> 5;
  const x0 = x;
  x = y;
  y = (2 * x0 + 3 * y) % 5;
}
// ι (Algorithms 5 and 6): bit 2^j − 1 of round ir's constant is rc(j + 7ir),
// the output of an LFSR of 8 bits (bit k of `r` is R[k]; a step shifts R
// towards higher indices and folds R[8] into R[0], R[4], R[5], R[6]).
const RC = new I32(48);
for (let ir = 0, r = 1; ir < 24; ir++) {
  for (let j = 0; j < 7; j++) {
    const bit = (1 << j) - 1;
    if (r & 1) RC[2 * ir + (bit >> 5)] ^= 1 << (bit & 31);
    r = (r << 1) ^ (r & 0x80 ? 0x171 : 0);
  }
}

// Scratch of the permutation (no caller code runs while it is in use).
const B = new I32(50);
const C = new I32(10);

/** KECCAK-p[1600, 24] (FIPS 202 Algorithm 7, rounds of §3.3) on the 50 words of `A`, in place. */
function keccakP(A) {
  // The tables as locals: in the shipped bundle (esbuild) every module-level
  // binding is a `var`, which the JIT cannot treat as a constant.
  const b = B,
    c = C,
    dest = DEST,
    rot = ROT,
    swap = SWAP,
    rc = RC;
  for (let ir = 0; ir < 24; ir++) {
    // θ (Algorithm 1): c[x] is the parity of column x; D[x] = c[x − 1] ⊕ (c[x + 1] rotated by 1).
    for (let x = 0; x < 10; x++) c[x] = A[x] ^ A[x + 10] ^ A[x + 20] ^ A[x + 30] ^ A[x + 40];
    for (let x = 0; x < 10; x += 2) {
      const l = c[(x + 2) % 10];
      const h = c[(x + 3) % 10];
      const dl = c[(x + 8) % 10] ^ ((l << 1) | (h >>> 31));
      const dh = c[(x + 9) % 10] ^ ((h << 1) | (l >>> 31));
      for (let y = x; y < 50; y += 10) {
        A[y] ^= dl;
        A[y + 1] ^= dh;
      }
    }
    // ρ and π (Algorithms 2 and 3), into b; lane (0, 0) stays in place unrotated.
    b[0] = A[0];
    b[1] = A[1];
    for (let i = 1; i < 25; i++) {
      const s = swap[i];
      const l = A[2 * i + s];
      const h = A[2 * i + 1 - s];
      const r = rot[i];
      b[dest[i]] = (l << r) | (h >>> (32 - r));
      b[dest[i] + 1] = (h << r) | (l >>> (32 - r));
    }
    // χ (Algorithm 4), back into A, a row (five lanes, ten words) at a time.
    for (let y = 0; y < 50; y += 10) {
      const b0 = b[y],
        b1 = b[y + 1],
        b2 = b[y + 2],
        b3 = b[y + 3],
        b4 = b[y + 4];
      const b5 = b[y + 5],
        b6 = b[y + 6],
        b7 = b[y + 7],
        b8 = b[y + 8],
        b9 = b[y + 9];
      A[y] = b0 ^ (~b2 & b4);
      A[y + 1] = b1 ^ (~b3 & b5);
      A[y + 2] = b2 ^ (~b4 & b6);
      A[y + 3] = b3 ^ (~b5 & b7);
      A[y + 4] = b4 ^ (~b6 & b8);
      A[y + 5] = b5 ^ (~b7 & b9);
      A[y + 6] = b6 ^ (~b8 & b0);
      A[y + 7] = b7 ^ (~b9 & b1);
      A[y + 8] = b8 ^ (~b0 & b2);
      A[y + 9] = b9 ^ (~b1 & b3);
    }
    // ι (Algorithm 6).
    A[0] ^= rc[2 * ir];
    A[1] ^= rc[2 * ir + 1];
  }
}

/**
 * The sponge of KECCAK[c] with `rate` = 200 − c/8 bytes and the domain bits
 * `suffix` (with the first bit of pad10*1 after them, as one byte: 0x06 for
 * SHA-3, 0x1f for SHAKE), as the core that js/prehash.js buffers:
 * { blockLen, init() → state, block(state, bytes, offset), end(state, buffer, used, total, outputLen) → digest }.
 * `end` squeezes one block only: every output length of FIPS 204's pre-hash
 * list is at most the rate of its function (64 ≤ 72 for SHA3-512).
 */
function sponge(rate, suffix) {
  const words = rate / 4;
  const block = (A, m, o) => {
    for (let j = 0; j < words; j++, o += 4) A[j] ^= m[o] | (m[o + 1] << 8) | (m[o + 2] << 16) | (m[o + 3] << 24);
    keccakP(A);
  };
  return {
    blockLen: rate,
    init: () => new I32(50),
    block,
    end(A, buf, used, _total, outputLen) {
      // pad10*1 after the domain bits; `used` < rate, so it fits in this block.
      buf[used] = suffix;
      for (let i = used + 1; i < rate; i++) buf[i] = 0;
      buf[rate - 1] |= 0x80;
      block(A, buf, 0);
      const out = new U8(outputLen);
      for (let k = 0; k < outputLen; k++) out[k] = A[k >> 2] >>> (8 * (k & 3));
      return out;
    },
  };
}

/**
 * The core of a FIPS 204 pre-hash name of this family: sha3_N is SHA3-N
 * (capacity 2N, §6.1), shakeN is SHAKE-N (capacity 2N, §6.2); undefined for
 * any other name.
 */
export function sha3Core(name) {
  const m = /^(sha3_|shake)(\d+)$/.exec(name);
  return m ? sponge(200 - (2 * m[2]) / 8, m[1] === 'shake' ? 0x1f : 0x06) : undefined;
}
