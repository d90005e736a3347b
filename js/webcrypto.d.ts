/**
 * `mldsa-simd/webcrypto`: ML-DSA-44/65/87 through the Web Cryptography API
 * (the WICG "Modern Algorithms in the Web Cryptography API" draft), for
 * platforms whose `crypto.subtle` has no ML-DSA.
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

/** The parameters of sign and verify: the FIPS 204 context string (at most 255 bytes). */
export interface MlDsaContextParams {
  name: MlDsaAlgorithmName;
  context?: BufferSource;
}

/** Key formats of ML-DSA keys (`pkcs8` imports the seed and both forms; exports the seed form). */
export type MlDsaKeyFormat = 'spki' | 'pkcs8' | 'raw-public' | 'raw-seed' | 'jwk';

/** What a CryptoKey of this package answers (the same members as the platform's). */
export interface MlDsaCryptoKey {
  readonly type: 'public' | 'private';
  readonly extractable: boolean;
  readonly algorithm: { readonly name: MlDsaAlgorithmName };
  readonly usages: readonly ('sign' | 'verify')[];
  readonly [Symbol.toStringTag]: 'CryptoKey';
}

/** A key of this package, or one of the platform (which `subtle` passes to the platform). */
type AnyKey = MlDsaCryptoKey | CryptoKey;

/**
 * A SubtleCrypto with ML-DSA. Every other algorithm, and every platform
 * CryptoKey, goes to the platform's `crypto.subtle` (so that one object
 * serves a whole app); errors are DOMExceptions named as the draft says.
 */
export interface MlDsaSubtle {
  generateKey(
    algorithm: MlDsaAlgorithmName | { name: MlDsaAlgorithmName },
    extractable: boolean,
    keyUsages: readonly KeyUsage[],
  ): Promise<{ publicKey: MlDsaCryptoKey; privateKey: MlDsaCryptoKey }>;
  generateKey(algorithm: AlgorithmIdentifier, extractable: boolean, keyUsages: readonly KeyUsage[]): Promise<CryptoKey | CryptoKeyPair>;
  importKey(
    format: 'jwk',
    keyData: JsonWebKey & { pub?: string; priv?: string },
    algorithm: MlDsaAlgorithmName | { name: MlDsaAlgorithmName },
    extractable: boolean,
    keyUsages: readonly KeyUsage[],
  ): Promise<MlDsaCryptoKey>;
  importKey(
    format: Exclude<MlDsaKeyFormat, 'jwk'>,
    keyData: BufferSource,
    algorithm: MlDsaAlgorithmName | { name: MlDsaAlgorithmName },
    extractable: boolean,
    keyUsages: readonly KeyUsage[],
  ): Promise<MlDsaCryptoKey>;
  importKey(format: string, keyData: BufferSource | JsonWebKey, algorithm: AlgorithmIdentifier, extractable: boolean, keyUsages: readonly KeyUsage[]): Promise<CryptoKey>;
  exportKey(format: 'jwk', key: AnyKey): Promise<JsonWebKey>;
  exportKey(format: string, key: AnyKey): Promise<ArrayBuffer>;
  sign(algorithm: MlDsaAlgorithmName | MlDsaContextParams | AlgorithmIdentifier, key: AnyKey, data: BufferSource): Promise<ArrayBuffer>;
  verify(algorithm: MlDsaAlgorithmName | MlDsaContextParams | AlgorithmIdentifier, key: AnyKey, signature: BufferSource, data: BufferSource): Promise<boolean>;
  /** The public key of a private key (the draft's getPublicKey), extractable, with these usages. */
  getPublicKey(key: AnyKey, keyUsages: readonly KeyUsage[]): Promise<MlDsaCryptoKey>;
  encrypt: SubtleCrypto['encrypt'];
  decrypt: SubtleCrypto['decrypt'];
  digest: SubtleCrypto['digest'];
  deriveKey: SubtleCrypto['deriveKey'];
  deriveBits: SubtleCrypto['deriveBits'];
  wrapKey: SubtleCrypto['wrapKey'];
  unwrapKey: SubtleCrypto['unwrapKey'];
  /** Whether `operation` is supported with `algorithm` (the draft's SubtleCrypto.supports). */
  supports(operation: string, algorithm: AlgorithmIdentifier, lengthOrAdditionalAlgorithm?: number | null | AlgorithmIdentifier): boolean;
}

export declare const subtle: MlDsaSubtle;

/**
 * Makes `globalThis.crypto.subtle` handle ML-DSA where the platform does not,
 * so that libraries that call `crypto.subtle` (jose, for one) work unchanged;
 * keys of this package then pass `instanceof CryptoKey`. A platform with its
 * own ML-DSA is left alone unless `force` is true.
 * @returns whether it installed.
 * @example
 * ```ts
 * import { install } from 'mldsa-simd/webcrypto';
 * await install();
 * const { publicKey, privateKey } = await crypto.subtle.generateKey('ML-DSA-65', true, ['sign', 'verify']);
 * ```
 */
export declare function install(options?: { force?: boolean }): Promise<boolean>;

/** The class of this package's keys (its constructor is not public). */
export declare const CryptoKey: { prototype: MlDsaCryptoKey };
