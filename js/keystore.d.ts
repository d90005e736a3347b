/**
 * `mldsa-simd/keystore`: CryptoKeys and CryptoKeyPairs kept by name in the
 * browser's IndexedDB, found again after a reload.
 *
 * Platform CryptoKeys (any algorithm, native ML-DSA included) are stored as
 * the browser stores CryptoKeys. Keys of `mldsa-simd/webcrypto` are stored
 * as a record: a private key's seed encrypted with AES-GCM under a
 * non-extractable AES-GCM key kept in the same database, with the key's
 * attributes bound to it (an altered record fails to load). Any script of
 * the page's origin can load the keys and use them, and can decrypt the
 * records with the stored AES key; the record is of no use outside the
 * browser. Where there is no IndexedDB (Node), every function rejects with
 * a `NotSupportedError`.
 *
 * @example
 * ```ts
 * import { subtle } from 'mldsa-simd/webcrypto';
 * import { saveKey, loadKey } from 'mldsa-simd/keystore';
 * const pair = await subtle.generateKey('ML-DSA-65', false, ['sign', 'verify']);
 * await saveKey('signing', pair);
 * // … after a reload:
 * const again = await loadKey<typeof pair>('signing'); // a pair again: { publicKey, privateKey }
 * if (again) await subtle.sign('ML-DSA-65', again.privateKey, new Uint8Array([1]));
 * ```
 * @module
 */

// The declarations stand on their own (no DOM types needed): a CryptoKey,
// written structurally, as far as the keystore needs to know it.
/** A CryptoKey: of `mldsa-simd/webcrypto`, or of the platform. */
export interface StorableKey {
  readonly type: string;
  readonly extractable: boolean;
  readonly algorithm: { readonly name: string };
  readonly usages: readonly string[];
}
/** A CryptoKeyPair. */
export interface StorableKeyPair {
  publicKey: StorableKey;
  privateKey: StorableKey;
}

export interface KeystoreOptions {
  /** The IndexedDB database (default "mldsa-simd-keystore"). */
  database?: string;
}

/** Saves a key or a pair as `name`, replacing what was saved under that name. */
export declare function saveKey(name: string, keyOrPair: StorableKey | StorableKeyPair, options?: KeystoreOptions): Promise<void>;

/**
 * The key or pair saved as `name` (the same shape, type, algorithm,
 * extractability and usages), or undefined if there is none; an altered
 * entry rejects (a DataError). `T` is what the caller saved there, e.g.
 * `loadKey<CryptoKeyPair>('signing-key')` (not checked: the default is
 * either shape).
 */
export declare function loadKey<T extends StorableKey | StorableKeyPair = StorableKey | StorableKeyPair>(
  name: string,
  options?: KeystoreOptions,
): Promise<T | undefined>;

/** Deletes the key or pair saved as `name`; resolves to whether there was one. */
export declare function deleteKey(name: string, options?: KeystoreOptions): Promise<boolean>;
