/**
 * SHA-2 (FIPS 180-4) for mldsa-simd/prehash: the SHA-256 compression (§6.2.2)
 * on 32-bit words, the SHA-512 compression (§6.4.2) on 64-bit words held as
 * two 32-bit halves (high first, so the words of a state are its digest's
 * bytes in big-endian order), the padding of §5.1, and the initial values of
 * §5.3 including the SHA-512/t IV generation of §5.3.6.
 *
 * The constants are computed at load from their definitions (§4.2.2, §4.2.3,
 * §5.3: the first bits of the fractional parts of the square and cube roots
 * of the first primes) rather than written out: 1.5 KB of hexadecimal less
 * in the bundle, and no digit to mistype.
 * @module
 */
import { U8 } from './args.js';

const I32 = Int32Array;

// ---------------------------------------------------------------- constants
const PRIMES = new Uint16Array(80);
for (let n = 2, i = 0; i < 80; n++) {
  let prime = true;
  for (let j = 0; j < i && prime; j++) prime = n % PRIMES[j] !== 0;
  if (prime) PRIMES[i++] = n;
}

/**
 * The first 64 bits of the fractional parts of the k-th roots of
 * PRIMES[from], …, PRIMES[from + count − 1], as 2·count words, high word
 * first: floor(p^(1/k) · 2^64) mod 2^64, by Newton's iteration on integers,
 * which decreases from any start above the root and stops at its floor.
 * (The roots are below 2^5 · 2^64 for the primes below 410.)
 */
function roots(k, from, count) {
  const out = new I32(2 * count);
  const K = BigInt(k);
  for (let i = 0; i < count; i++) {
    const n = BigInt(PRIMES[from + i]) << (64n * K);
    let x = 1n << 69n;
    for (let y; (y = ((K - 1n) * x + n / x ** (K - 1n)) / K) < x; ) x = y;
    out[2 * i] = Number((x >> 32n) & 0xffffffffn);
    out[2 * i + 1] = Number(x & 0xffffffffn);
  }
  return out;
}
// §4.2.3: K of SHA-512 (cube roots of the first 80 primes). §4.2.2: K of
// SHA-256, the first 32 of those bits for the first 64 primes.
const K512 = roots(3, 0, 80);
const K256 = new I32(64);
for (let t = 0; t < 64; t++) K256[t] = K512[2 * t];
// §5.3.5 and §5.3.4: SHA-512's IV (square roots of the first 8 primes) and
// SHA-384's (of the 9th to 16th). §5.3.3: SHA-256's is the first 32 bits of
// SHA-512's; §5.3.2: SHA-224's is the second 32 bits of SHA-384's (as RFC 3874 says).
const IV512 = roots(2, 0, 8);
const IV384 = roots(2, 8, 8);
const IV256 = new I32(8);
const IV224 = new I32(8);
for (let i = 0; i < 8; i++) {
  IV256[i] = IV512[2 * i];
  IV224[i] = IV384[2 * i + 1];
}

// ---------------------------------------------------------------- compression
// Message schedule scratch (no caller code runs while it is in use): SHA-256
// takes 64 words, SHA-512 80 words as 160 halves.
const W = new I32(160);
// The rounds spell out their rotations and carries rather than call helpers,
// and take the tables into locals: in the shipped bundle (esbuild) every
// module-level binding is a `var`, which the JIT cannot treat as a constant.
// ROTR^n of a 32-bit x (0 < n < 32) is (x >>> n) | (x << (32 − n)). On a
// 64-bit word as halves (h, l), ROTR^n is (h >>> n | l << (32 − n),
// l >>> n | h << (32 − n)), and ROTR^(32+n) the same with h and l swapped.
// A sum of halves is kept exact as a double (below 2^53): `s >>> 0` makes a
// half unsigned, `(s / 2^32) | 0` is the carry out of the low half, and
// `| 0` (or a store into H or W) reduces mod 2^32.

/** SHA-256 compression (FIPS 180-4 §6.2.2 steps 1-4) of the 64 bytes at m[o…] into H. */
function block256(H, m, o) {
  const w = W,
    k = K256;
  for (let t = 0; t < 16; t++, o += 4) w[t] = (m[o] << 24) | (m[o + 1] << 16) | (m[o + 2] << 8) | m[o + 3];
  for (let t = 16; t < 64; t++) {
    // W_t = σ1(W_t−2) + W_t−7 + σ0(W_t−15) + W_t−16; σ0 = ROTR^7 ⊕ ROTR^18 ⊕ SHR^3, σ1 = ROTR^17 ⊕ ROTR^19 ⊕ SHR^10.
    const x = w[t - 15];
    const y = w[t - 2];
    w[t] =
      (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)) +
      w[t - 7] +
      (((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) +
      w[t - 16];
  }
  // (Indexed reads: a typed array's iterator is a built-in a script could replace.)
  let a = H[0],
    b = H[1],
    c = H[2],
    d = H[3],
    e = H[4],
    f = H[5],
    g = H[6],
    h = H[7];
  for (let t = 0; t < 64; t++) {
    // T1 = h + Σ1(e) + Ch(e, f, g) + K_t + W_t, T2 = Σ0(a) + Maj(a, b, c);
    // Σ0 = ROTR^2 ⊕ ROTR^13 ⊕ ROTR^22, Σ1 = ROTR^6 ⊕ ROTR^11 ⊕ ROTR^25.
    const t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + k[t] + w[t]) | 0;
    const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] += a;
  H[1] += b;
  H[2] += c;
  H[3] += d;
  H[4] += e;
  H[5] += f;
  H[6] += g;
  H[7] += h;
}

/** H[i], H[i + 1] (a 64-bit word) += (h, l), mod 2^64. */
function add64(H, i, h, l) {
  const low = (H[i + 1] >>> 0) + (l >>> 0);
  H[i] += h + ((low / 0x100000000) | 0);
  H[i + 1] = low;
}

/** SHA-512 compression (FIPS 180-4 §6.4.2 steps 1-4) of the 128 bytes at m[o…] into H (16 halves). */
function block512(H, m, o) {
  const w = W,
    k = K512;
  for (let t = 0; t < 32; t++, o += 4) w[t] = (m[o] << 24) | (m[o + 1] << 16) | (m[o + 2] << 8) | m[o + 3];
  for (let t = 32; t < 160; t += 2) {
    // W_t = σ1(W_t−2) + W_t−7 + σ0(W_t−15) + W_t−16 on halves;
    // σ0 = ROTR^1 ⊕ ROTR^8 ⊕ SHR^7, σ1 = ROTR^19 ⊕ ROTR^61 ⊕ SHR^6.
    const xh = w[t - 30];
    const xl = w[t - 29];
    const yh = w[t - 4];
    const yl = w[t - 3];
    const s0h = ((xh >>> 1) | (xl << 31)) ^ ((xh >>> 8) | (xl << 24)) ^ (xh >>> 7);
    const s0l = ((xl >>> 1) | (xh << 31)) ^ ((xl >>> 8) | (xh << 24)) ^ ((xl >>> 7) | (xh << 25));
    const s1h = ((yh >>> 19) | (yl << 13)) ^ ((yl >>> 29) | (yh << 3)) ^ (yh >>> 6);
    const s1l = ((yl >>> 19) | (yh << 13)) ^ ((yh >>> 29) | (yl << 3)) ^ ((yl >>> 6) | (yh << 26));
    const low = (s1l >>> 0) + (w[t - 13] >>> 0) + (s0l >>> 0) + (w[t - 31] >>> 0);
    w[t] = s1h + w[t - 14] + s0h + w[t - 32] + ((low / 0x100000000) | 0);
    w[t + 1] = low;
  }
  let ah = H[0],
    al = H[1],
    bh = H[2],
    bl = H[3],
    ch = H[4],
    cl = H[5],
    dh = H[6],
    dl = H[7];
  let eh = H[8],
    el = H[9],
    fh = H[10],
    fl = H[11],
    gh = H[12],
    gl = H[13],
    hh = H[14],
    hl = H[15];
  for (let t = 0; t < 160; t += 2) {
    // T1 = h + Σ1(e) + Ch(e, f, g) + K_t + W_t, T2 = Σ0(a) + Maj(a, b, c), each half reduced;
    // Σ0 = ROTR^28 ⊕ ROTR^34 ⊕ ROTR^39, Σ1 = ROTR^14 ⊕ ROTR^18 ⊕ ROTR^41.
    const s1h = ((eh >>> 14) | (el << 18)) ^ ((eh >>> 18) | (el << 14)) ^ ((el >>> 9) | (eh << 23));
    const s1l = ((el >>> 14) | (eh << 18)) ^ ((el >>> 18) | (eh << 14)) ^ ((eh >>> 9) | (el << 23));
    const s0h = ((ah >>> 28) | (al << 4)) ^ ((al >>> 2) | (ah << 30)) ^ ((al >>> 7) | (ah << 25));
    const s0l = ((al >>> 28) | (ah << 4)) ^ ((ah >>> 2) | (al << 30)) ^ ((ah >>> 7) | (al << 25));
    let low = (hl >>> 0) + (s1l >>> 0) + (((el & fl) ^ (~el & gl)) >>> 0) + (k[t + 1] >>> 0) + (w[t + 1] >>> 0);
    const t1h = (hh + s1h + ((eh & fh) ^ (~eh & gh)) + k[t] + w[t] + ((low / 0x100000000) | 0)) | 0;
    const t1l = low | 0;
    low = (s0l >>> 0) + (((al & bl) ^ (al & cl) ^ (bl & cl)) >>> 0);
    const t2h = (s0h + ((ah & bh) ^ (ah & ch) ^ (bh & ch)) + ((low / 0x100000000) | 0)) | 0;
    const t2l = low | 0;
    hh = gh;
    hl = gl;
    gh = fh;
    gl = fl;
    fh = eh;
    fl = el;
    // e = d + T1; a = T1 + T2.
    low = (dl >>> 0) + (t1l >>> 0);
    eh = (dh + t1h + ((low / 0x100000000) | 0)) | 0;
    el = low | 0;
    dh = ch;
    dl = cl;
    ch = bh;
    cl = bl;
    bh = ah;
    bl = al;
    low = (t1l >>> 0) + (t2l >>> 0);
    ah = (t1h + t2h + ((low / 0x100000000) | 0)) | 0;
    al = low | 0;
  }
  add64(H, 0, ah, al);
  add64(H, 2, bh, bl);
  add64(H, 4, ch, cl);
  add64(H, 6, dh, dl);
  add64(H, 8, eh, el);
  add64(H, 10, fh, fl);
  add64(H, 12, gh, gl);
  add64(H, 14, hh, hl);
}

// ---------------------------------------------------------------- padding and output
/**
 * A Merkle–Damgård core as js/prehash.js buffers it: { blockLen, init() →
 * state, block(state, bytes, offset), end(state, buffer, used, total, outputLen) → digest },
 * with the padding of §5.1.1 (SHA-256: a 64-bit length field) or §5.1.2
 * (SHA-512: a 128-bit one, whose upper half is 0 for any message a
 * Uint8Array can hold), and the digest the first outputLen bytes of H (§6.3, §6.5, §6.7).
 */
function mdCore(blockLen, block, iv) {
  const field = blockLen / 8;
  const pad = (H, buf, used, total) => {
    buf[used++] = 0x80;
    if (used > blockLen - field) {
      while (used < blockLen) buf[used++] = 0;
      block(H, buf, 0);
      used = 0;
    }
    while (used < blockLen - 8) buf[used++] = 0;
    // The length in bits, 8·total < 2^56: total / 2^29 above, (total mod 2^32) << 3 below.
    const hi = (total / 0x20000000) >>> 0;
    const lo = total << 3;
    for (let i = 0; i < 4; i++) {
      buf[blockLen - 8 + i] = hi >>> (24 - 8 * i);
      buf[blockLen - 4 + i] = lo >>> (24 - 8 * i);
    }
    block(H, buf, 0);
  };
  return {
    blockLen,
    init: () => new I32(iv),
    block,
    pad,
    end(H, buf, used, total, outputLen) {
      pad(H, buf, used, total);
      const out = new U8(outputLen);
      for (let k = 0; k < outputLen; k++) out[k] = H[k >> 2] >>> (24 - 8 * (k & 3));
      return out;
    },
  };
}

const sha256Core = (iv) => mdCore(64, block256, iv);
const sha512Core = (iv) => mdCore(128, block512, iv);

/** §5.3.6: the IV of SHA-512/t is SHA-512, from IV512 ⊕ a5a5…a5, of the ASCII string "SHA-512/t". */
function iv512t(t) {
  const core = sha512Core(IV512);
  const H = core.init();
  for (let i = 0; i < 16; i++) H[i] ^= 0xa5a5a5a5;
  const name = `SHA-512/${t}`;
  const buf = new U8(128);
  for (let i = 0; i < name.length; i++) buf[i] = name.charCodeAt(i);
  core.pad(H, buf, name.length, name.length);
  return H;
}

/**
 * The core of a FIPS 204 pre-hash name of this family (sha224, sha256,
 * sha384, sha512, sha512_224, sha512_256), or undefined for any other name.
 */
export function sha2Core(name) {
  const m = /^sha(224|256|384|512)(?:_(224|256))?$/.exec(name);
  if (!m) return undefined;
  if (m[2]) return m[1] === '512' ? sha512Core(iv512t(m[2])) : undefined;
  if (m[1] === '224') return sha256Core(IV224);
  if (m[1] === '256') return sha256Core(IV256);
  return sha512Core(m[1] === '384' ? IV384 : IV512);
}
