/**
 * mldsa-simd/prehash: the twelve pre-hash functions of HashML-DSA (FIPS 204
 * §5.4), for `prehash()` of the parameter sets, as hash functions in the
 * shape of `@noble/hashes` (whose functions `prehash()` takes as well).
 *
 * Plain JavaScript, no WebAssembly. In Node, Bun and Deno each function
 * hashes with node:crypto's native code where that has the same hash.
 *
 * @example
 * ```ts
 * import { ml_dsa65 } from 'mldsa-simd';
 * import { sha512 } from 'mldsa-simd/prehash';
 *
 * const { publicKey, secretKey } = ml_dsa65.keygen();
 * const msg = new TextEncoder().encode('a large document');
 * const hashMlDsa = ml_dsa65.prehash(sha512);
 * const sig = hashMlDsa.sign(msg, secretKey);
 * hashMlDsa.verify(sig, msg, publicKey); // true
 *
 * // The functions are hash functions of their own:
 * sha512(msg).length; // 64
 * const digest = sha512.create().update(msg.subarray(0, 3)).update(msg.subarray(3)).digest();
 * ```
 * @module
 */

/** An incremental hasher, from {@link PrehashHash.create}. */
export interface PrehashHasher {
  /**
   * Hashes `data`, whose bytes are read before it returns (the buffer may be
   * changed, resized or detached afterwards). Returns this hasher.
   * @throws TypeError for anything but a `Uint8Array`, or one whose buffer is
   *   detached; Error once the digest was taken (or an update failed).
   */
  update(data: Uint8Array): PrehashHasher;
  /**
   * The digest (a new array), once.
   * @throws Error when the digest was taken before (or an update failed):
   *   create a new hasher for the next message.
   */
  digest(): Uint8Array<ArrayBuffer>;
}

/**
 * A pre-hash function: callable on bytes like `@noble/hashes`' functions,
 * with the OID that HashML-DSA writes into M′ (FIPS 204 Algorithms 4 and 5).
 * Frozen.
 */
export interface PrehashHash {
  /**
   * The digest of `msg` (a new array).
   * @throws TypeError for anything but a `Uint8Array`, or one whose buffer is detached.
   */
  (msg: Uint8Array): Uint8Array<ArrayBuffer>;
  /** Digest length in bytes; SHAKE128 32 and SHAKE256 64, the lengths FIPS 204 §5.4 pairs with their OIDs. */
  readonly outputLen: number;
  /** Block length in bytes (for SHA-3 and SHAKE, the rate). */
  readonly blockLen: number;
  /** DER of the OID under the NIST hash arc 2.16.840.1.101.3.4.2 (11 bytes): a new copy at each read. */
  readonly oid: Uint8Array<ArrayBuffer>;
  /** A new incremental hasher (for streamed messages: `createSign`, `signStream`, …). */
  create(): PrehashHasher;
}

/** SHA-224 (FIPS 180-4). */
export declare const sha224: PrehashHash;
/** SHA-256 (FIPS 180-4). */
export declare const sha256: PrehashHash;
/** SHA-384 (FIPS 180-4). */
export declare const sha384: PrehashHash;
/** SHA-512 (FIPS 180-4). */
export declare const sha512: PrehashHash;
/** SHA-512/224 (FIPS 180-4). */
export declare const sha512_224: PrehashHash;
/** SHA-512/256 (FIPS 180-4). */
export declare const sha512_256: PrehashHash;
/** SHA3-224 (FIPS 202). */
export declare const sha3_224: PrehashHash;
/** SHA3-256 (FIPS 202). */
export declare const sha3_256: PrehashHash;
/** SHA3-384 (FIPS 202). */
export declare const sha3_384: PrehashHash;
/** SHA3-512 (FIPS 202). */
export declare const sha3_512: PrehashHash;
/** SHAKE128 (FIPS 202) with a 32-byte output, as FIPS 204 §5.4 uses it. */
export declare const shake128: PrehashHash;
/** SHAKE256 (FIPS 202) with a 64-byte output, as FIPS 204 §5.4 uses it. */
export declare const shake256: PrehashHash;
