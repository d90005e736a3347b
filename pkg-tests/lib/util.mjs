// Small helpers shared by the package tests.
import crypto from 'node:crypto';
import { sha224, sha256, sha384, sha512, sha512_224, sha512_256 } from '@noble/hashes/sha2.js';
import { sha3_224, sha3_256, sha3_384, sha3_512, shake128_32, shake256_64 } from '@noble/hashes/sha3.js';

export const hex = (s) => {
  if (typeof s !== 'string' || s.length % 2 || /[^0-9a-f]/i.test(s)) throw new Error(`bad hex: ${String(s).slice(0, 40)}`);
  return new Uint8Array(Buffer.from(s, 'hex'));
};
export const toHex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex').toUpperCase();
export function equalBytes(a, b) {
  if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
export const concat = (...parts) => new Uint8Array(Buffer.concat(parts.map((p) => Buffer.from(p))));

/** ACVP hashAlg -> the name of its function in mldsa-simd/prehash (and in HASH_FNS). */
export const ACVP_HASH = Object.freeze({
  'SHA2-224': 'sha224',
  'SHA2-256': 'sha256',
  'SHA2-384': 'sha384',
  'SHA2-512': 'sha512',
  'SHA2-512/224': 'sha512_224',
  'SHA2-512/256': 'sha512_256',
  'SHA3-224': 'sha3_224',
  'SHA3-256': 'sha3_256',
  'SHA3-384': 'sha3_384',
  'SHA3-512': 'sha3_512',
  'SHAKE-128': 'shake128',
  'SHAKE-256': 'shake256',
});
export function nameFor(acvpHashAlg) {
  const n = ACVP_HASH[acvpHashAlg];
  if (!n) throw new Error(`unknown ACVP hashAlg "${acvpHashAlg}"`);
  return n;
}

/** The names of mldsa-simd/prehash's functions -> noble-hashes functions with the FIPS 204 output length. */
export const HASH_FNS = Object.freeze({
  sha224,
  sha256,
  sha384,
  sha512,
  sha512_224,
  sha512_256,
  sha3_224,
  sha3_256,
  sha3_384,
  sha3_512,
  shake128: shake128_32, // SHAKE128 with 256-bit output (FIPS 204 §5.4)
  shake256: shake256_64, // SHAKE256 with 512-bit output
});

/**
 * Deterministic random bytes (AES-256-CTR keystream keyed by a printed seed), so a
 * failing run can be repeated: MLDSA_TEST_SEED=<hex printed by the test>.
 */
export class Rng {
  constructor(label) {
    this.seedHex = process.env.MLDSA_TEST_SEED || crypto.randomBytes(16).toString('hex');
    const key = crypto.createHash('sha256').update(`${label}:${this.seedHex}`).digest();
    this.stream = crypto.createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  }
  bytes(n) {
    return new Uint8Array(this.stream.update(Buffer.alloc(n)));
  }
  /** Integer in [0, n). */
  int(n) {
    const b = this.bytes(6);
    const x = b[0] * 2 ** 40 + b[1] * 2 ** 32 + b[2] * 2 ** 24 + b[3] * 2 ** 16 + b[4] * 2 ** 8 + b[5];
    return Math.floor((x / 2 ** 48) * n);
  }
  pick(arr) {
    return arr[this.int(arr.length)];
  }
  bool() {
    return this.int(2) === 1;
  }
}

/** Run fn; return { ok: true, value } or { ok: false, error }. */
export function attempt(fn) {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** True when e is a wasm trap (the instance may be unusable afterwards). */
export function isTrap(e) {
  return (
    (typeof WebAssembly !== 'undefined' && e instanceof WebAssembly.RuntimeError) ||
    (e && e.name === 'RuntimeError') ||
    /\bunreachable\b|memory access out of bounds|call stack|RuntimeError/i.test(String(e && e.message))
  );
}

export const describeError = (e) => (e instanceof Error ? `${e.constructor.name}: ${e.message}` : `non-Error thrown: ${String(e)}`);

/** FIPS 204 Algorithm 4/5 M′ = 0x01 ‖ |ctx| ‖ ctx ‖ OID(PH) ‖ PH(M), for a noble-hashes function. */
export function hashMlDsaMessage(hashFn, msg, ctx = new Uint8Array(0)) {
  if (ctx.length > 255) throw new RangeError('context longer than 255 bytes');
  return concat(Uint8Array.of(1, ctx.length), ctx, hashFn.oid, hashFn(msg));
}

/** FIPS 204 Algorithm 2/3 M′ = 0x00 ‖ |ctx| ‖ ctx ‖ M. */
export function pureMlDsaMessage(msg, ctx = new Uint8Array(0)) {
  if (ctx.length > 255) throw new RangeError('context longer than 255 bytes');
  return concat(Uint8Array.of(0, ctx.length), ctx, msg);
}
