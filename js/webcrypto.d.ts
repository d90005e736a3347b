/**
 * `mldsa-simd/webcrypto`: ML-DSA-44/65/87 through the Web Cryptography API
 * (the WICG "Modern Algorithms in the Web Cryptography API" draft), for
 * platforms whose `crypto.subtle` has no ML-DSA.
 *
 * Where the package cannot run (`isSupported()` of `mldsa-simd` is false),
 * the import still succeeds, `supports()` is false for ML-DSA, and the
 * ML-DSA operations of `subtle` reject with a `NotSupportedError` that says
 * why (and what to add to a Content-Security-Policy), with the platform's
 * error as its `cause`; `install()` resolves to false and installs nothing.
 *
 * @example
 * ```ts
 * import { subtle } from 'mldsa-simd/webcrypto';
 * const { publicKey, privateKey } = await subtle.generateKey('ML-DSA-65', false, ['sign', 'verify']);
 * const data = new TextEncoder().encode('hello');
 * const sig = await subtle.sign({ name: 'ML-DSA-65', context: new Uint8Array([1, 2]) }, privateKey, data);
 * await subtle.verify({ name: 'ML-DSA-65', context: new Uint8Array([1, 2]) }, publicKey, sig, data); // true
 * ```
 * @module
 */

/** The ML-DSA algorithm names. */
export type MlDsaAlgorithmName = 'ML-DSA-44' | 'ML-DSA-65' | 'ML-DSA-87';

// The declarations stand on their own (no DOM or Node types needed): these
// are the WebCrypto shapes they use, written structurally.
/** A BufferSource: an ArrayBuffer, or any view of one (TypedArray, DataView). */
export type BufferSourceLike = ArrayBuffer | ArrayBufferView;
/** The WebCrypto key usages. */
export type KeyUsageName =
  | 'encrypt'
  | 'decrypt'
  | 'sign'
  | 'verify'
  | 'deriveKey'
  | 'deriveBits'
  | 'wrapKey'
  | 'unwrapKey'
  | 'encapsulateKey'
  | 'encapsulateBits'
  | 'decapsulateKey'
  | 'decapsulateBits';
/** An algorithm identifier: a name, or an object with one and the algorithm's parameters. */
export type AlgorithmLike = string | { name: string; [parameter: string]: unknown };
/** A JSON Web Key as WebCrypto exports it; ML-DSA keys have kty "AKP", alg, pub and (private) priv. */
export interface JsonWebKeyLike {
  kty?: string;
  alg?: string;
  pub?: string;
  priv?: string;
  key_ops?: string[];
  ext?: boolean;
  use?: string;
  [member: string]: unknown;
}

/** The parameters of sign and verify: the FIPS 204 context string (at most 255 bytes). */
export interface MlDsaContextParams {
  name: MlDsaAlgorithmName;
  context?: BufferSourceLike;
}

/** Key formats of ML-DSA keys (`pkcs8` imports the seed and both forms; exports the seed form). */
export type MlDsaKeyFormat = 'spki' | 'pkcs8' | 'raw-public' | 'raw-seed' | 'jwk';

/**
 * A CryptoKey of ML-DSA, as `subtle` gives it: the platform's own CryptoKey
 * where the platform has ML-DSA, else one of this package (with the same
 * members). Assignable where the DOM's `CryptoKey` is expected.
 */
export interface MlDsaCryptoKey {
  readonly type: 'public' | 'private';
  readonly extractable: boolean;
  readonly algorithm: { readonly name: MlDsaAlgorithmName };
  readonly usages: ('sign' | 'verify')[];
}

/** A platform CryptoKey, as far as these declarations need to know it. */
export interface PlatformKeyLike {
  readonly type: string;
  readonly extractable: boolean;
  readonly algorithm: { readonly name: string };
  readonly usages: readonly string[];
}

type AnyKey = MlDsaCryptoKey | PlatformKeyLike;
type MlDsaAlgorithm = MlDsaAlgorithmName | { name: MlDsaAlgorithmName };

/**
 * A SubtleCrypto with ML-DSA. Every other algorithm, and every platform
 * CryptoKey, goes to the platform's `crypto.subtle` (so that one object
 * serves a whole app); errors are DOMExceptions named as the draft says.
 */
export interface MlDsaSubtle {
  generateKey(
    algorithm: MlDsaAlgorithm,
    extractable: boolean,
    keyUsages: readonly KeyUsageName[],
  ): Promise<{ publicKey: MlDsaCryptoKey; privateKey: MlDsaCryptoKey }>;
  generateKey(algorithm: AlgorithmLike, extractable: boolean, keyUsages: readonly KeyUsageName[]): Promise<unknown>;
  importKey(
    format: 'jwk',
    keyData: JsonWebKeyLike,
    algorithm: MlDsaAlgorithm,
    extractable: boolean,
    keyUsages: readonly KeyUsageName[],
  ): Promise<MlDsaCryptoKey>;
  importKey(
    format: Exclude<MlDsaKeyFormat, 'jwk'>,
    keyData: BufferSourceLike,
    algorithm: MlDsaAlgorithm,
    extractable: boolean,
    keyUsages: readonly KeyUsageName[],
  ): Promise<MlDsaCryptoKey>;
  importKey(
    format: string,
    keyData: BufferSourceLike | JsonWebKeyLike,
    algorithm: AlgorithmLike,
    extractable: boolean,
    keyUsages: readonly KeyUsageName[],
  ): Promise<PlatformKeyLike>;
  exportKey(format: 'jwk', key: AnyKey): Promise<JsonWebKeyLike>;
  exportKey(format: string, key: AnyKey): Promise<ArrayBuffer>;
  sign(algorithm: MlDsaContextParams | AlgorithmLike, key: AnyKey, data: BufferSourceLike): Promise<ArrayBuffer>;
  verify(algorithm: MlDsaContextParams | AlgorithmLike, key: AnyKey, signature: BufferSourceLike, data: BufferSourceLike): Promise<boolean>;
  /** The public key of a private key (the draft's getPublicKey), extractable, with these usages. */
  getPublicKey(key: AnyKey, keyUsages: readonly KeyUsageName[]): Promise<MlDsaCryptoKey>;
  /** Passed to the platform's crypto.subtle; given a key of this package, each rejects as the spec does for a key of another algorithm (wrapKey: does not wrap one). */
  encrypt(...args: unknown[]): Promise<ArrayBuffer>;
  decrypt(...args: unknown[]): Promise<ArrayBuffer>;
  digest(algorithm: AlgorithmLike, data: BufferSourceLike): Promise<ArrayBuffer>;
  deriveKey(...args: unknown[]): Promise<unknown>;
  deriveBits(...args: unknown[]): Promise<ArrayBuffer>;
  wrapKey(...args: unknown[]): Promise<ArrayBuffer>;
  unwrapKey(...args: unknown[]): Promise<unknown>;
  /** Whether `operation` is supported with `algorithm` (the draft's SubtleCrypto.supports). */
  supports(operation: string, algorithm: AlgorithmLike, lengthOrAdditionalAlgorithm?: number | null | AlgorithmLike): boolean;
}

export declare const subtle: MlDsaSubtle;

/**
 * Makes `globalThis.crypto.subtle` handle ML-DSA where the platform does not,
 * so that libraries that call `crypto.subtle` (jose, for one) work unchanged;
 * keys of this package then pass `instanceof CryptoKey`. A platform with its
 * own ML-DSA is left alone unless `force` is true; so is, always, a platform
 * where the package cannot run (`isSupported()` of `mldsa-simd` is false: a
 * Content-Security-Policy without `'wasm-unsafe-eval'`, no WebAssembly).
 * @returns whether it installed.
 * @example
 * ```ts
 * import { install, subtle } from 'mldsa-simd/webcrypto';
 * await install();
 * // crypto.subtle now takes ML-DSA (for libraries that call it); `subtle` does the same,
 * // with ML-DSA in its declarations (the DOM's say a key or a pair for any algorithm name).
 * const { publicKey, privateKey } = await subtle.generateKey('ML-DSA-65', true, ['sign', 'verify']);
 * const signature = await crypto.subtle.sign('ML-DSA-65', privateKey, new Uint8Array([1]));
 * const jwk = await crypto.subtle.exportKey('jwk', publicKey); // { kty: 'AKP', alg: 'ML-DSA-65', pub, … }
 * ```
 */
export declare function install(options?: { force?: boolean }): Promise<boolean>;

/** The class of this package's keys (its constructor is not public). */
export declare const CryptoKey: { readonly prototype: MlDsaCryptoKey };

/**
 * A record of a key of this package that IndexedDB can store: the
 * keystore's low-level form (`mldsa-simd/keystore` uses it; most code wants
 * that instead). The key material (a private key's seed, a public key's
 * bytes) is in `sealed`, AES-GCM-encrypted.
 */
export interface SealedKeyRecord {
  version: 1;
  algorithm: MlDsaAlgorithmName;
  type: 'public' | 'private';
  extractable: boolean;
  usages: ('sign' | 'verify')[];
  iv: Uint8Array<ArrayBuffer>;
  sealed: Uint8Array<ArrayBuffer>;
}

/**
 * The keystore's low-level sealing: a key of this package as a record, its
 * key material encrypted with AES-GCM under `wrappingKey`, which must be a
 * non-extractable AES-GCM platform key with the usage "encrypt" (otherwise a
 * TypeError or an InvalidAccessError); the key's attributes and `label` are
 * bound to the record as additional data. Whoever may decrypt with
 * `wrappingKey` can read the seed.
 */
export declare function sealKey(key: MlDsaCryptoKey, wrappingKey: PlatformKeyLike, label?: string): Promise<SealedKeyRecord>;

/**
 * The keystore's low-level opening: the key of a record of `sealKey`, with
 * the same `wrappingKey` (usage "decrypt") and `label`. A record altered, or
 * sealed under another key or label, is rejected (a DataError).
 */
export declare function unsealKey(record: SealedKeyRecord, wrappingKey: PlatformKeyLike, label?: string): Promise<MlDsaCryptoKey>;
