/**
 * `mldsa-simd/composite`: composite ML-DSA (draft-ietf-lamps-pq-composite-sigs):
 * an ML-DSA signature and a traditional one (RSASSA-PSS, RSASSA-PKCS1-v1_5,
 * ECDSA, Ed25519, Ed448) over one message representative
 * `M′ = Prefix ‖ Label ‖ len(ctx) ‖ ctx ‖ PH(M)`, neither valid without the
 * other. The ML-DSA half runs in this package's WebAssembly, the traditional
 * half in the platform's `crypto.subtle`: where the platform lacks that
 * algorithm (brainpool curves everywhere, Ed448 in browsers), every operation
 * but the key formats rejects with a `NotSupportedError` (`DOMException`)
 * whose message names the algorithm.
 *
 * Keys and signatures are the draft's raw encodings: public key = ML-DSA
 * public key ‖ traditional public key; private key = 32-byte ML-DSA seed ‖
 * traditional private key; signature = ML-DSA signature ‖ traditional
 * signature (RSA keys as RSAPublicKey / RSAPrivateKey DER, EC points
 * uncompressed, ECDSA private keys as ECPrivateKey DER with the curve and no
 * public key, ECDSA signatures DER, EdDSA keys and signatures raw).
 *
 * Errors: `TypeError` for an argument of the wrong type (the message names
 * it), `RangeError` for a context over 255 bytes or a private key too short
 * to hold both halves, `Error` for a malformed key given to `sign` or to an
 * import. `verify` resolves to `false` for any bad signature (or public key)
 * bytes.
 * @example
 * ```ts
 * import { composite } from 'mldsa-simd/composite';
 * const alg = composite('MLDSA65-Ed25519-SHA512');
 * const { publicKey, secretKey } = await alg.keygen();
 * const msg = new TextEncoder().encode('hello');
 * const context = new TextEncoder().encode('my-app v1');
 * const sig = await alg.sign(msg, secretKey, { context });
 * const ok: boolean = await alg.verify(sig, msg, publicKey, { context }); // true
 * const pem: string = alg.exportPublicKey(publicKey, 'pem');
 * ```
 * @module
 */

/** The bytes returned: a fresh `Uint8Array` over its own `ArrayBuffer` (as `Bytes` of `mldsa-simd`). */
export type Bytes = Uint8Array<ArrayBuffer>;

/** The draft's algorithm identifiers without `id-`, in the order of their OIDs (1.3.6.1.5.5.7.6.37 to .54). */
export type CompositeName =
  | 'MLDSA44-RSA2048-PSS-SHA256'
  | 'MLDSA44-RSA2048-PKCS15-SHA256'
  | 'MLDSA44-Ed25519-SHA512'
  | 'MLDSA44-ECDSA-P256-SHA256'
  | 'MLDSA65-RSA3072-PSS-SHA512'
  | 'MLDSA65-RSA3072-PKCS15-SHA512'
  | 'MLDSA65-RSA4096-PSS-SHA512'
  | 'MLDSA65-RSA4096-PKCS15-SHA512'
  | 'MLDSA65-ECDSA-P256-SHA512'
  | 'MLDSA65-ECDSA-P384-SHA512'
  | 'MLDSA65-ECDSA-brainpoolP256r1-SHA512'
  | 'MLDSA65-Ed25519-SHA512'
  | 'MLDSA87-ECDSA-P384-SHA512'
  | 'MLDSA87-ECDSA-brainpoolP384r1-SHA512'
  | 'MLDSA87-Ed448-SHAKE256'
  | 'MLDSA87-RSA3072-PSS-SHA512'
  | 'MLDSA87-RSA4096-PSS-SHA512'
  | 'MLDSA87-ECDSA-P521-SHA512';

/** Options of `sign` and `verify`. Unknown keys throw `TypeError`; keys set to `undefined` are ignored. */
export interface CompositeOptions {
  /** The application context `ctx`, 0 to 255 bytes. Default: empty. */
  context?: Uint8Array;
}

/** Formats of the public key: the raw composite key, its DER SubjectPublicKeyInfo, or that as PEM text. */
export type CompositePublicFormat = 'raw' | 'spki' | 'pem';
/** Formats of the private key: the raw composite key, or its DER PKCS#8 (OneAsymmetricKey). */
export type CompositeSecretFormat = 'raw' | 'pkcs8';

/** One composite algorithm. */
export interface Composite {
  /** Its name, as given to `composite`. */
  readonly name: CompositeName;
  /** Its OID, dotted (1.3.6.1.5.5.7.6.37 to .54). */
  readonly oid: string;
  /**
   * A fresh key pair: a random ML-DSA seed and a traditional key made by the platform.
   * The private key is the caller's to wipe (`fill(0)`) when done.
   */
  keygen(): Promise<{ publicKey: Bytes; secretKey: Bytes }>;
  /**
   * The composite signature of `message` (hedged ML-DSA). The copies made of
   * the private key are wiped; the traditional key lives only as a
   * non-extractable platform `CryptoKey`.
   * @throws (rejects) TypeError / RangeError for a wrong argument; `Error` for
   *   a private key the platform refuses; `NotSupportedError` where the
   *   platform lacks the traditional algorithm.
   */
  sign(message: Uint8Array, secretKey: Uint8Array, options?: CompositeOptions): Promise<Bytes>;
  /**
   * Whether `signature` is a valid composite signature of `message` (with the
   * same context) under `publicKey`: `true` only if both halves are valid;
   * `false` for any malformed signature or public key bytes.
   * @throws (rejects) TypeError for an argument of the wrong type, RangeError
   *   for a context over 255 bytes, `NotSupportedError` where the platform
   *   lacks the traditional algorithm.
   */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array, options?: CompositeOptions): Promise<boolean>;
  /** The raw public key of its raw, SPKI (DER bytes) or PEM (string) form. @throws Error if it is malformed or of another algorithm. */
  importPublicKey(data: Uint8Array | string, format?: CompositePublicFormat): Bytes;
  /** The raw public key as raw bytes, SPKI DER bytes, or PEM text. */
  exportPublicKey(publicKey: Uint8Array, format: 'pem'): string;
  exportPublicKey(publicKey: Uint8Array, format?: 'raw' | 'spki'): Bytes;
  /** The raw private key of its raw or PKCS#8 (DER) form. @throws Error if it is malformed or of another algorithm. */
  importSecretKey(data: Uint8Array, format?: CompositeSecretFormat): Bytes;
  /** The raw private key as raw bytes or PKCS#8 DER. */
  exportSecretKey(secretKey: Uint8Array, format?: CompositeSecretFormat): Bytes;
}

/**
 * The composite algorithm of that name (the draft's identifier without
 * `id-`). @throws TypeError for any other name (the plain `ML-DSA-44/65/87`
 * of the draft's vectors are the main entry's `ml_dsa44/65/87`).
 */
export declare function composite(name: CompositeName): Composite;
/** Every name `composite` takes, in the order of their OIDs. */
export declare const names: readonly CompositeName[];
