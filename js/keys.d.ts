/**
 * `mldsa-simd/keys`: ML-DSA keys in the formats the ecosystem uses, for each
 * parameter set of `mldsa-simd`: `raw` (the FIPS 204 bytes), SPKI and PKCS#8
 * DER (RFC 9881, all three private-key forms), PEM (RFC 7468) and JWK
 * (RFC 9964). Each function takes the parameter set first: `ml_dsa44`,
 * `ml_dsa65` or `ml_dsa87` of `mldsa-simd` (any other value is a `TypeError`).
 *
 * Plain JavaScript over the main entry: DER, PEM and JWK are read and written
 * where WebAssembly cannot run; the key pair of a seed and the check of an
 * expanded key call the parameter set's `keygen` and `getPublicKey`.
 *
 * Errors: `TypeError` / `RangeError` for a wrong type, format name or length
 * (and for an input longer than any key can be, before it is decoded);
 * `Error` when a key is malformed, not strict, inconsistent, or for another
 * parameter set. Messages say what is wrong and never quote the data.
 *
 * @example
 * ```ts
 * import { ml_dsa65 } from 'mldsa-simd';
 * import { exportSecretKey, importSecretKey } from 'mldsa-simd/keys';
 * const { seed } = ml_dsa65.keygen();
 * const pem = exportSecretKey(ml_dsa65, seed, 'pem'); // the private key, as RFC 9881 keeps it
 * const { secretKey, publicKey } = importSecretKey(ml_dsa65, pem, 'pem');
 * ```
 * @module
 */

/** The bytes returned: a fresh `Uint8Array` over its own `ArrayBuffer` (as `Bytes` of `mldsa-simd`). */
export type Bytes = Uint8Array<ArrayBuffer>;

/**
 * The parameter set a function works in: `ml_dsa44`, `ml_dsa65` or `ml_dsa87`
 * of `mldsa-simd`, recognised by identity when called. Declared here by the
 * shape those objects have (their `prehash()` and `internal` objects have
 * another `info.type`), so that these declarations stand on their own, for
 * ES module and CommonJS projects alike.
 */
export interface MlDsaParameterSet {
  readonly info: { readonly type: 'ml-dsa' };
  readonly lengths: { readonly publicKey: number; readonly secretKey: number };
}

/** The name of a parameter set, as JWK's `alg` and WebCrypto write it. */
export type MlDsaName = 'ML-DSA-44' | 'ML-DSA-65' | 'ML-DSA-87';

/** Formats of {@link importPublicKey} / {@link exportPublicKey}. */
export type PublicKeyFormat = 'raw' | 'spki' | 'pem' | 'jwk';
/** Formats of {@link importSecretKey} / {@link exportSecretKey}. */
export type SecretKeyFormat = 'raw-seed' | 'raw' | 'pkcs8' | 'pem' | 'jwk';

/**
 * An ML-DSA key as a JWK (RFC 9964): `pub` is the public key and `priv` (on a
 * private key) the 32-byte seed, both base64url without padding. Other
 * members (`kid`, `use`, `key_ops`, `ext`, …) are kept by JSON and ignored on import.
 */
export interface MlDsaJwk {
  kty: 'AKP';
  alg: MlDsaName;
  pub: string;
  priv?: string;
  [member: string]: unknown;
}

/** A private key read by {@link importSecretKey}, checked, with its public key: new arrays, the caller's. */
export interface ImportedSecretKey {
  /** The 32-byte seed ξ, when the format carried it (raw-seed, JWK, PKCS#8 `seed` and `both`). */
  seed: Bytes | undefined;
  publicKey: Bytes;
  /** The FIPS 204 encoding of the secret key (what `sign` takes). */
  secretKey: Bytes;
}

/** Options of {@link exportSecretKey}. */
export interface ExportSecretKeyOptions {
  /**
   * For `pkcs8` and `pem`: which RFC 9881 form to write. `'seed'` (the
   * default, what RFC 9881 recommends and WebCrypto and Node write),
   * `'expandedKey'`, or `'both'`.
   */
  form?: 'seed' | 'expandedKey' | 'both';
}

/**
 * Reads a public key of the parameter set `alg`: `raw` (FIPS 204 bytes),
 * `spki` (SubjectPublicKeyInfo DER, RFC 9881), `pem` (`-----BEGIN PUBLIC
 * KEY-----`, RFC 7468, as a string or as the bytes of the text) or `jwk`
 * (RFC 9964). PEM is read as RFC 7468's lax grammar allows (text before and
 * after the armour, whitespace and line breaks of any kind and length in the
 * base64), its base64 strictly (canonical, padded). DER must be strict
 * (shortest lengths, no trailing bytes, AlgorithmIdentifier parameters absent).
 * @returns the raw public key.
 * @throws TypeError for a wrong `alg`, type or format name; RangeError for a
 * wrong raw length or an input longer than any key can be; Error when the
 * data is malformed or is for another parameter set.
 * @example
 * ```ts
 * const publicKey = importPublicKey(ml_dsa65, pemText, 'pem');
 * ml_dsa65.verify(sig, msg, publicKey);
 * ```
 */
export declare function importPublicKey(alg: MlDsaParameterSet, data: Uint8Array, format: 'raw' | 'spki'): Bytes;
export declare function importPublicKey(alg: MlDsaParameterSet, data: string | Uint8Array, format: 'pem'): Bytes;
export declare function importPublicKey(alg: MlDsaParameterSet, data: MlDsaJwk, format: 'jwk'): Bytes;

/**
 * Writes a raw public key of the parameter set `alg` in a format of
 * {@link importPublicKey}. PEM is written strictly (RFC 7468 §3: lines of 64
 * characters, LF).
 * @example
 * ```ts
 * const pem = exportPublicKey(ml_dsa65, publicKey, 'pem');
 * ```
 */
export declare function exportPublicKey(alg: MlDsaParameterSet, publicKey: Uint8Array, format: 'raw' | 'spki'): Bytes;
export declare function exportPublicKey(alg: MlDsaParameterSet, publicKey: Uint8Array, format: 'pem'): string;
export declare function exportPublicKey(alg: MlDsaParameterSet, publicKey: Uint8Array, format: 'jwk'): MlDsaJwk;

/**
 * Reads a private key of the parameter set `alg` and checks it as RFC 9881
 * §6 asks: `raw-seed` (32 bytes), `raw` (the FIPS 204 secret key), `pkcs8`
 * (DER, any of the forms `seed [0]`, `expandedKey`, `both`), `pem`
 * (`-----BEGIN PRIVATE KEY-----`, a string or bytes, read as
 * {@link importPublicKey} reads PEM) or `jwk` (RFC 9964, `priv` = seed,
 * `pub` checked against it). An expanded key's tr and t0 must match its s1
 * and s2, and in `both` the expanded key must be the one the seed gives.
 * Every copy of the key the function makes is wiped before it returns.
 * @throws TypeError / RangeError for a wrong `alg`, type, format name or
 * length; Error when the key is malformed, inconsistent, or for another
 * parameter set (and, where the platform refused WebAssembly, for a key that
 * needs the algorithm: see `isSupported` of `mldsa-simd`).
 * @example
 * ```ts
 * const { seed, secretKey, publicKey } = importSecretKey(ml_dsa65, pemText, 'pem');
 * ```
 */
export declare function importSecretKey(alg: MlDsaParameterSet, data: Uint8Array, format: 'raw-seed' | 'raw' | 'pkcs8'): ImportedSecretKey;
export declare function importSecretKey(alg: MlDsaParameterSet, data: string | Uint8Array, format: 'pem'): ImportedSecretKey;
export declare function importSecretKey(alg: MlDsaParameterSet, data: MlDsaJwk, format: 'jwk'): ImportedSecretKey;

/**
 * Writes a private key of the parameter set `alg`, given as its 32-byte seed
 * or its FIPS 204 secret key (told apart by length). `raw-seed`, `jwk` and
 * the PKCS#8 `seed` and `both` forms need the seed (`keygen()` returns it as
 * `seed`); PKCS#8 and PEM write the seed form unless `options.form` asks for
 * another, and an expanded key alone can be written as `raw` or with
 * `{ form: 'expandedKey' }` (checked first, as {@link importSecretKey} would).
 * PEM is written strictly (RFC 7468 §3: lines of 64 characters, LF).
 * @throws Error when the format needs the seed and `key` is the expanded key.
 * @example
 * ```ts
 * const { seed, secretKey } = ml_dsa65.keygen();
 * const pem = exportSecretKey(ml_dsa65, seed, 'pem');           // seed form
 * const der = exportSecretKey(ml_dsa65, seed, 'pkcs8', { form: 'both' });
 * const expanded = exportSecretKey(ml_dsa65, secretKey, 'pem', { form: 'expandedKey' });
 * ```
 */
export declare function exportSecretKey(alg: MlDsaParameterSet, key: Uint8Array, format: 'raw-seed' | 'raw' | 'pkcs8', options?: ExportSecretKeyOptions): Bytes;
export declare function exportSecretKey(alg: MlDsaParameterSet, key: Uint8Array, format: 'pem', options?: ExportSecretKeyOptions): string;
export declare function exportSecretKey(alg: MlDsaParameterSet, key: Uint8Array, format: 'jwk'): MlDsaJwk;
