/**
 * mldsa-simd: ML-DSA (FIPS 204) post-quantum signatures, Rust compiled to
 * WebAssembly with simd128, behind the API of `@noble/post-quantum/ml-dsa.js`
 * (v0.7). Switching is a one-line import change:
 *
 * ```ts
 * // import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
 * import { ml_dsa65 } from 'mldsa-simd';
 * ```
 *
 * Everything is synchronous; the wasm module is compiled and instantiated at
 * import, so there is no init call. Where the platform refuses WebAssembly (a
 * Content-Security-Policy without `'wasm-unsafe-eval'`, WebAssembly disabled)
 * the import still succeeds: {@link isSupported} is then `false`, and every
 * operation throws an `Error` that says why (see there).
 *
 * Errors: a wrong type throws `TypeError`, a wrong length (or a context over
 * 255 bytes) throws `RangeError`; the message names the argument and the
 * expected length, e.g. `secretKey: expected 4032 bytes, got 12`. Byte
 * arguments may be any `Uint8Array`, including subarrays and Node `Buffer`s;
 * plain arrays, strings and other typed arrays are rejected.
 * @module
 */

/**
 * The bytes this package returns: always a fresh `Uint8Array` over its own,
 * non-shared `ArrayBuffer`, so it can go wherever a `BufferSource` is wanted
 * (`crypto.subtle`, `Blob`, `fetch`). For TypeScript before 5.7, where
 * `Uint8Array` is not generic, the package's types say `Uint8Array`.
 */
export type Bytes = Uint8Array<ArrayBuffer>;

// `using` works where the project's lib has `Disposable` (esnext.disposable,
// @types/node): the prepared keys extend it. Declaring it empty here merges
// with the lib's when present and costs nothing when absent, so these types
// do not need that lib.
declare global {
  interface Disposable {}
}

/** Byte lengths of one parameter set (FIPS 204 Table 2). */
export interface MlDsaLengths {
  /** Encoded public key: 1312, 1952 or 2592 bytes. */
  readonly publicKey: number;
  /** Encoded (expanded) secret key: 2560, 4032 or 4896 bytes. */
  readonly secretKey: number;
  /** Signature: 2420, 3309 or 4627 bytes. */
  readonly signature: number;
  /** Key generation seed ξ: 32 bytes. */
  readonly seed: 32;
  /** Signing randomness `rnd` (`extraEntropy`): 32 bytes. */
  readonly signRand: 32;
}

/**
 * A key pair in the raw FIPS 204 encodings, and the seed it came from (noble's
 * `{ publicKey, secretKey }`, with `seed` besides).
 */
export interface KeyPair {
  publicKey: Bytes;
  /** The expanded secret key (what `sign` takes). */
  secretKey: Bytes;
  /**
   * The 32-byte seed ξ: the private key as RFC 9881, WebCrypto and Node keep
   * it, what `exportSecretKey` of `mldsa-simd/keys` needs for `raw-seed`, `jwk`
   * and the default PKCS#8 and PEM form, and what `keygen(seed)` and
   * `signer(seed)` take. The caller's own array: for `keygen(seed)` a copy of the seed
   * given, for `keygen()` the 32 random bytes drawn, which the package does
   * not wipe (wipe them with `fill(0)` when done, like `secretKey`).
   */
  seed: Bytes;
}

/** Options of `verify`. Unknown keys throw `TypeError`; keys set to `undefined` are ignored. */
export interface VerifyOptions {
  /** Context string, 0 to 255 bytes (FIPS 204 `ctx`). Default: empty. */
  context?: Uint8Array;
}

/** Options of `sign`. Unknown keys throw `TypeError`; keys set to `undefined` are ignored. */
export interface SignOptions extends VerifyOptions {
  /**
   * Signing randomness `rnd`.
   * - omitted / `undefined`: hedged signing with 32 fresh bytes from
   *   `crypto.getRandomValues` (the default, recommended);
   * - `false`: deterministic signing (rnd = 32 zero bytes);
   * - a 32-byte `Uint8Array`: exactly that rnd (known-answer tests).
   */
  extraEntropy?: Uint8Array | false;
}

/** Options of `internal.verify`. */
export interface InternalVerifyOptions {
  /** When true the message argument is the 64-byte μ = H(tr ‖ M′) (FIPS 204 "external μ"). */
  externalMu?: boolean;
}

/** Options of `internal.sign`. */
export interface InternalSignOptions extends InternalVerifyOptions {
  /** Signing randomness, as in {@link SignOptions.extraEntropy}. */
  extraEntropy?: Uint8Array | false;
}

/** Options of {@link MlDsaStreamSign.sign}: the context was given to `createSign`. */
export interface StreamSignOptions {
  /** Signing randomness, as in {@link SignOptions.extraEntropy}. */
  extraEntropy?: Uint8Array | false;
}

/**
 * An incremental signature from `createSign`: the message goes in with
 * `update`, in chunks of any size, and `sign` ends it. Hash states and copies
 * of the key and context live in the object itself, so any number can be
 * open at once, across awaits; one that is dropped unfinished holds nothing
 * in wasm (its key copy is wiped when it is garbage-collected).
 */
export interface MlDsaStreamSign {
  /**
   * Appends a chunk of the message. @returns this object, for chaining.
   * @throws TypeError if `chunk` is not a `Uint8Array` (the object stays
   *   usable); `Error` after `sign()`.
   */
  update(chunk: Uint8Array): this;
  /**
   * The signature of everything given to `update`, as `sign(msg, secretKey,
   * { context, ...opts })` would make it. The object is finished afterwards:
   * later calls throw `Error`.
   */
  sign(opts?: StreamSignOptions): Bytes;
}

/** An incremental verification from `createVerify`; see {@link MlDsaStreamSign}. */
export interface MlDsaStreamVerify {
  /** Appends a chunk of the message. @returns this object, for chaining. */
  update(chunk: Uint8Array): this;
  /**
   * Whether `signature` is valid for everything given to `update`: `false`
   * for a signature of any wrong length. The object is finished afterwards.
   * @throws TypeError if `signature` is not a `Uint8Array`.
   */
  verify(signature: Uint8Array): boolean;
}

/** What `signStream` and `verifyStream` read with `getReader()`: a web `ReadableStream` of `Uint8Array` chunks. */
export interface ByteReadableStream {
  getReader(): {
    read(): Promise<{ done: boolean; value?: Uint8Array }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
}

/**
 * A message that arrives in chunks: a `ReadableStream` (a `fetch` body,
 * `Blob.stream()`), any async or sync iterable of `Uint8Array` (a Node
 * `Readable` such as `fs.createReadStream`, an async generator, an array),
 * or a `Blob` / `File` (read through its `stream()`). Chunks are read one at
 * a time and none is kept; a chunk that is not a `Uint8Array` rejects with
 * `TypeError` and cancels the source.
 */
export type MessageSource = ByteReadableStream | AsyncIterable<Uint8Array> | Iterable<Uint8Array> | { stream(): ByteReadableStream };

/**
 * A pre-hash function for {@link MlDsa.prehash}: one of `mldsa-simd/prehash`
 * (`import { sha512 } from 'mldsa-simd/prehash'`), or a hash function in the
 * same style from `@noble/hashes` (e.g. `sha256` from `@noble/hashes/sha2.js`):
 * callable on bytes, with the DER `oid` of a NIST hash (06 09 60 86 48 01 65
 * 03 04 02 xx) and its `outputLen`. The streaming methods (`createSign`,
 * `signStream`, …) need its incremental hasher, `create()`.
 */
export interface PrehashFunction {
  (msg: Uint8Array): Uint8Array;
  readonly oid?: Uint8Array;
  readonly outputLen: number;
  create?(): { update(data: Uint8Array): unknown; digest(): Uint8Array };
}

/** The key generation part shared by every signer object. */
export interface MlDsaKeys {
  readonly lengths: MlDsaLengths;
  /**
   * ML-DSA.KeyGen (FIPS 204 Algorithm 1), or KeyGen_internal (Algorithm 6)
   * when a seed is given.
   * @param seed - 32-byte ξ for a deterministic key pair; omit for a random one.
   * @returns the key pair and its seed (a copy of the one given, or the one drawn).
   * @throws RangeError if `seed` is not 32 bytes.
   * @example
   * ```ts
   * const { publicKey, secretKey, seed } = ml_dsa65.keygen();
   * const pem = exportSecretKey(ml_dsa65, seed, 'pem'); // mldsa-simd/keys: the private key, as RFC 9881 keeps it
   * const again = ml_dsa65.keygen(seed); // same seed, same keys
   * ```
   */
  keygen(seed?: Uint8Array): KeyPair;
  /**
   * The public key of an encoded secret key.
   * @throws RangeError if `secretKey` has the wrong length; `Error` if it is malformed.
   * @example
   * ```ts
   * const publicKey = ml_dsa65.getPublicKey(secretKey);
   * ```
   */
  getPublicKey(secretKey: Uint8Array): Bytes;
}

/** A signer: pure ML-DSA, or HashML-DSA from {@link MlDsa.prehash}. */
export interface MlDsaSigner extends MlDsaKeys {
  readonly info: { readonly type: 'ml-dsa' | 'hashml-dsa' };
  /** Claimed security strength in bits: 128, 192 or 256. */
  readonly securityLevel: number;
  /**
   * Sign a message (FIPS 204 Algorithm 2, or Algorithm 4 for a prehash signer).
   * Hedged by default; `{ extraEntropy: false }` is deterministic.
   * @returns The signature (`lengths.signature` bytes).
   * @throws TypeError for a non-`Uint8Array` argument or an unknown option;
   *   RangeError for a secret key of the wrong length, `extraEntropy` that is
   *   not 32 bytes, or a context over 255 bytes; `Error` for a secret key of
   *   the right length that is not a valid encoding.
   * @example
   * ```ts
   * const msg = new TextEncoder().encode('hello');
   * const sig = ml_dsa65.sign(msg, secretKey, { context: new TextEncoder().encode('my-app v1') });
   * ```
   */
  sign(msg: Uint8Array, secretKey: Uint8Array, opts?: SignOptions): Bytes;
  /**
   * Verify a signature (FIPS 204 Algorithm 3, or Algorithm 5 for a prehash signer).
   * @returns `true` if valid; `false` for any invalid or malformed signature
   *   bytes, of any length.
   * @throws TypeError if `sig`, `msg` or `publicKey` is not a `Uint8Array` or an
   *   option is unknown; RangeError for a public key of the wrong length or a
   *   context over 255 bytes (caller bugs, not bad signatures).
   * @example
   * ```ts
   * if (!ml_dsa65.verify(sig, msg, publicKey)) throw new Error('bad signature');
   * ```
   */
  verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: VerifyOptions): boolean;
  /**
   * Signs a message given in pieces: the same signature as `sign`, without
   * the whole message in memory. Pure ML-DSA absorbs μ = H(tr ‖ 0 ‖ |ctx| ‖
   * ctx ‖ M) as chunks arrive; a prehash signer computes PH(M) incrementally
   * through the hash function's `create()`.
   * @param secretKeyOrSeed - the FIPS 204 secret key, or its 32-byte seed ξ.
   * @throws TypeError / RangeError for a wrong type or length, a context over
   *   255 bytes or an unknown option; TypeError for a prehash function without `create()`.
   * @example
   * ```ts
   * const s = ml_dsa65.createSign(secretKey, { context });
   * for await (const chunk of request) s.update(chunk);
   * const sig = s.sign();
   * ```
   */
  createSign(secretKeyOrSeed: Uint8Array, opts?: VerifyOptions): MlDsaStreamSign;
  /**
   * Verifies a message given in pieces; the same answer as `verify`.
   * @throws TypeError / RangeError for a public key of the wrong type or length,
   *   a context over 255 bytes or an unknown option.
   * @example
   * ```ts
   * const v = ml_dsa65.createVerify(publicKey);
   * v.update(part1).update(part2);
   * if (!v.verify(sig)) throw new Error('bad signature');
   * ```
   */
  createVerify(publicKey: Uint8Array, opts?: VerifyOptions): MlDsaStreamVerify;
  /**
   * Signs everything `source` gives (see {@link MessageSource}), reading one
   * chunk at a time: `createSign`, each chunk to `update`, then `sign`.
   * Argument errors reject before the source is read.
   * @example
   * ```ts
   * import fs from 'node:fs';
   * const sig = await ml_dsa65.signStream(fs.createReadStream('release.tar'), secretKey);
   * // in a browser: await ml_dsa65.signStream(fileInput.files[0], secretKey)
   * ```
   */
  signStream(source: MessageSource, secretKeyOrSeed: Uint8Array, opts?: SignOptions): Promise<Bytes>;
  /**
   * Verifies a signature over everything `source` gives, reading one chunk at a time.
   * @returns `true` if valid; `false` for any invalid signature, of any length.
   * @example
   * ```ts
   * const ok = await ml_dsa65.verifyStream(sig, (await fetch(url)).body, publicKey);
   * ```
   */
  verifyStream(signature: Uint8Array, source: MessageSource, publicKey: Uint8Array, opts?: VerifyOptions): Promise<boolean>;
}

/** FIPS 204 internal interface: no domain separation, optional external μ. */
export interface MlDsaInternal extends MlDsaKeys {
  readonly info: { readonly type: 'internal-ml-dsa' };
  /**
   * ML-DSA.Sign_internal (Algorithm 7) on M′ as given, or from a 64-byte μ
   * with `{ externalMu: true }`.
   * @example
   * ```ts
   * const sig = ml_dsa65.internal.sign(mu, secretKey, { externalMu: true });
   * ```
   */
  sign(mOrMu: Uint8Array, secretKey: Uint8Array, opts?: InternalSignOptions): Bytes;
  /** ML-DSA.Verify_internal (Algorithm 8) on M′ as given, or on a 64-byte μ with `{ externalMu: true }`. */
  verify(sig: Uint8Array, mOrMu: Uint8Array, publicKey: Uint8Array, opts?: InternalVerifyOptions): boolean;
}

/** One ML-DSA parameter set. */
export interface MlDsa extends MlDsaSigner {
  readonly info: { readonly type: 'ml-dsa' };
  readonly internal: MlDsaInternal;
  /**
   * HashML-DSA (FIPS 204 §5.4): a signer that signs PH(msg) with the hash's OID.
   *
   * `hash` is a hash function with a NIST hash OID: one of
   * `mldsa-simd/prehash` (the twelve FIPS 204 allows, in plain JavaScript, or
   * node:crypto's where it has them), or one of `@noble/hashes`. For SHAKE,
   * FIPS 204 pairs each OID with one output length: `mldsa-simd/prehash`'s
   * `shake128` and `shake256` give 32 and 64 bytes; of `@noble/hashes` pass
   * `shake128_32` / `shake256_64`, not the bare `shake128` / `shake256`, whose
   * output length is wrong for their OIDs and rejected (`RangeError`).
   *
   * Difference from noble: noble rejects a hash whose collision strength is
   * below the parameter set's security level ("Pre-hash security strength
   * too low", e.g. SHA-256 with ML-DSA-87). FIPS 204 only says the hash
   * *should* be that strong, and the NIST ACVP vectors use every approved
   * hash with every parameter set, so this library accepts all of them.
   * Choose a hash at least as strong as `securityLevel` yourself.
   *
   * @throws TypeError for a hash name (a string: the functions are in
   *   `mldsa-simd/prehash`) or anything else that is not a hash function with
   *   a NIST hash `oid` and an integer `outputLen`; RangeError for an OID that
   *   is not one of FIPS 204's pre-hash functions, or an `outputLen` other
   *   than its output length.
   * @example
   * ```ts
   * import { sha512 } from 'mldsa-simd/prehash';
   * const signer = ml_dsa65.prehash(sha512);
   * const sig = signer.sign(msg, secretKey);
   * signer.verify(sig, msg, publicKey); // true
   *
   * import { sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
   * ml_dsa65.prehash(nobleSha512).verify(sig, msg, publicKey); // true: same algorithm
   * ```
   */
  prehash(hash: PrehashFunction): MlDsaSigner & { readonly info: { readonly type: 'hashml-dsa' } };
  /**
   * A secret key (its FIPS 204 encoding, or its 32-byte seed ξ, from which it
   * is derived) prepared for repeated signing: decoded once, with Â, s1 and
   * s2 (packed together, as s1 + 2^9·s2) and NTT(t0) cached inside
   * wasm, in one slot of a pool of 192 slots of 72 KiB shared by all prepared
   * keys, so each `sign` skips that work. The object keeps a copy of the
   * secret key (or of the seed it was given): if the pool evicted its slot (the least recently used one goes
   * when a key is made and all are taken), the next `sign` expands it again.
   * Release it with `free()` (or `using`), which wipes the slot and the copy; a
   * FinalizationRegistry does the same if it is dropped, whenever the garbage
   * collector gets to it.
   * @throws TypeError / RangeError for a wrong type or length; Error for a malformed key.
   * @example
   * ```ts
   * using signer = ml_dsa65.signer(secretKey);
   * const sigs = messages.map((m) => signer.sign(m, { context }));
   * ```
   */
  signer(secretKeyOrSeed: Uint8Array): PreparedSigner;
  /**
   * A public key prepared for repeated verification: Â, NTT(t1·2^d) and
   * H(pk) cached inside wasm, in a slot of the same pool as `signer` (an
   * evicted key is expanded again from its bytes on its next use). Verifying
   * with it skips ExpandA, the largest part of a one-shot `verify`.
   * @example
   * ```ts
   * const verifier = ml_dsa65.verifier(publicKey);
   * try { ok = verifier.verify(sig, msg); } finally { verifier.free(); }
   * ```
   */
  verifier(publicKey: Uint8Array): PreparedVerifier;
}

/** What every prepared key has: an explicit, idempotent release. */
export interface PreparedKey extends Disposable {
  /**
   * Frees (and wipes) the wasm side. Later calls of its methods throw `Error`;
   * calling free() again does nothing. `[Symbol.dispose]()` does the same, for
   * `using` declarations (Node 24, TypeScript 5.2+ with lib esnext.disposable).
   */
  free(): void;
}

/** Result of `ml_dsaXX.signer(secretKey)`. */
export interface PreparedSigner extends PreparedKey {
  /** Same as `ml_dsaXX.sign(msg, secretKey, opts)`, byte for byte. */
  sign(msg: Uint8Array, opts?: SignOptions): Bytes;
}

/** Result of `ml_dsaXX.verifier(publicKey)`. */
export interface PreparedVerifier extends PreparedKey {
  /** Same as `ml_dsaXX.verify(sig, msg, publicKey, opts)`. */
  verify(sig: Uint8Array, msg: Uint8Array, opts?: VerifyOptions): boolean;
}

/**
 * ML-DSA-44, NIST security category 2 (`securityLevel` 128).
 * @example
 * ```ts
 * import { ml_dsa44 } from 'mldsa-simd';
 * const { publicKey, secretKey } = ml_dsa44.keygen();
 * const msg = new TextEncoder().encode('hello');
 * const sig = ml_dsa44.sign(msg, secretKey);
 * ml_dsa44.verify(sig, msg, publicKey); // true
 * ```
 */
export declare const ml_dsa44: MlDsa;
/** ML-DSA-65, NIST security category 3 (`securityLevel` 192). */
export declare const ml_dsa65: MlDsa;
/** ML-DSA-87, NIST security category 5 (`securityLevel` 256). */
export declare const ml_dsa87: MlDsa;
/** Bytes of WebAssembly linear memory the package's instance holds now (diagnostics; wasm memory never shrinks). */
export declare function wasmMemoryBytes(): number;
/**
 * Bytes of the instance's WebAssembly linear memory not on its allocator's free
 * list (diagnostics): the initial memory (static data, the stack) and the heap
 * blocks in use, with their headers. Unlike `wasmMemoryBytes()` it falls when
 * blocks are freed. Between calls it holds a 72 KiB pool slot for each prepared
 * key ever alive at once (up to 192), 112 bytes for each prepared signer alive
 * now, and a little one-time bookkeeping; anything more is a leak.
 */
export declare function wasmMemoryInUse(): number;
/**
 * Whether this package can run here: `false` where the platform refused its
 * WebAssembly module at import — a page whose Content-Security-Policy has no
 * `'wasm-unsafe-eval'` in `script-src` (add it), or a platform with
 * WebAssembly disabled or absent (a browser's security settings, Node's
 * `--jitless`). The import succeeds either way; where this is `false`, every
 * operation (keygen, sign, verify, prepared keys, the diagnostics above, and
 * in `mldsa-simd/keys` what needs the algorithm: the key pair of a seed, the
 * check of an expanded key) throws an `Error` whose message says why and what
 * to add to the policy, with the platform's error as its `cause`. Never throws; the
 * answer does not change while the page or process lives.
 */
export declare function isSupported(): boolean;
