/**
 * `mldsa-simd/verify`: ML-DSA verification alone, for pages and services that
 * only verify. Each object is the verifying half of `ml_dsa44`, `ml_dsa65` or
 * `ml_dsa87` of `mldsa-simd` (same methods, arguments, results and errors),
 * over a WebAssembly module built without the code that makes keys or signs,
 * so a page downloads less (see the README's size table). Its instance is its
 * own: a page that imports this entry and the main one has two.
 *
 * Declared here on their own (not imported from `mldsa-simd`'s types), so
 * that they serve ES module and CommonJS projects alike.
 *
 * @example
 * ```ts
 * import { ml_dsa65 } from 'mldsa-simd/verify';
 * const ok = ml_dsa65.verify(signature, message, publicKey); // true or false
 * const v = ml_dsa65.verifier(publicKey); // many signatures, one key
 * v.verify(signature, message);
 * v.free();
 * ```
 * @module
 */

/** Sizes of one parameter set, in bytes (FIPS 204 Table 2). */
export interface MlDsaLengths {
  readonly publicKey: number;
  readonly secretKey: number;
  readonly signature: number;
  readonly seed: 32;
  readonly signRand: 32;
}

/** Options of `verify`. Unknown keys throw `TypeError`. */
export interface VerifyOptions {
  /** Context string, 0 to 255 bytes (FIPS 204 `ctx`). Default: empty. */
  context?: Uint8Array;
}

/** Options of `internal.verify`. */
export interface InternalVerifyOptions {
  /** When true the message argument is the 64-byte μ = H(tr ‖ M′) (FIPS 204 "external μ"). */
  externalMu?: boolean;
}

/** An incremental verification from `createVerify`: `update` in chunks, then `verify`. */
export interface MlDsaStreamVerify {
  /** Appends a chunk of the message. @returns this object, for chaining. */
  update(chunk: Uint8Array): this;
  /** Whether `signature` is valid for the message given so far; ends the object. */
  verify(signature: Uint8Array): boolean;
}

/** What `verifyStream` reads with `getReader()`: a web `ReadableStream` of `Uint8Array` chunks. */
export interface ByteReadableStream {
  getReader(): {
    read(): Promise<{ done: boolean; value?: Uint8Array }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
}

/** A message given in chunks: a ReadableStream, an (async) iterable of Uint8Array, or a Blob. */
export type MessageSource = ByteReadableStream | AsyncIterable<Uint8Array> | Iterable<Uint8Array> | { stream(): ByteReadableStream };

/** A pre-hash function for HashML-DSA: from `mldsa-simd/prehash`, or `@noble/hashes`. */
export interface PrehashFunction {
  (msg: Uint8Array): Uint8Array;
  readonly oid?: Uint8Array;
  readonly outputLen: number;
  create?(): { update(data: Uint8Array): unknown; digest(): Uint8Array };
}

/** A public key expanded once for many verifications (free it, or use `using`). */
export interface PreparedVerifier extends Disposable {
  verify(sig: Uint8Array, msg: Uint8Array, opts?: VerifyOptions): boolean;
  /** Wipes the expanded key; later calls throw. Calling it again does nothing. */
  free(): void;
}

/** What the verify-only objects of ML-DSA and HashML-DSA share. */
export interface MlDsaVerifyOnly {
  readonly info: { readonly type: 'ml-dsa' | 'hashml-dsa' };
  readonly securityLevel: number;
  readonly lengths: MlDsaLengths;
  /** Whether `sig` is a valid signature of `msg` by `publicKey`: false for any bad signature. */
  verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: VerifyOptions): boolean;
  createVerify(publicKey: Uint8Array, opts?: VerifyOptions): MlDsaStreamVerify;
  verifyStream(signature: Uint8Array, source: MessageSource, publicKey: Uint8Array, opts?: VerifyOptions): Promise<boolean>;
}

/** The verify-only object of one parameter set. */
export interface MlDsaVerify extends MlDsaVerifyOnly {
  readonly info: { readonly type: 'ml-dsa' };
  readonly internal: {
    readonly info: { readonly type: 'internal-ml-dsa' };
    readonly lengths: MlDsaLengths;
    verify(sig: Uint8Array, mOrMu: Uint8Array, publicKey: Uint8Array, opts?: InternalVerifyOptions): boolean;
  };
  /** HashML-DSA verification with a pre-hash function. */
  prehash(hash: PrehashFunction): MlDsaVerifyOnly & { readonly info: { readonly type: 'hashml-dsa' } };
  verifier(publicKey: Uint8Array): PreparedVerifier;
}

/** ML-DSA-44 verification (NIST security category 2). */
export declare const ml_dsa44: MlDsaVerify;
/** ML-DSA-65 verification (NIST security category 3). */
export declare const ml_dsa65: MlDsaVerify;
/** ML-DSA-87 verification (NIST security category 5). */
export declare const ml_dsa87: MlDsaVerify;
/** Whether this entry can run here: false where the platform refused WebAssembly at import. Never throws. */
export declare function isSupported(): boolean;
/** Bytes of WebAssembly linear memory this entry's instance holds (diagnostics). */
export declare function wasmMemoryBytes(): number;
/** Bytes of that memory not on its allocator's free list (diagnostics). */
export declare function wasmMemoryInUse(): number;
