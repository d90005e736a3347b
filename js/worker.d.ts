/**
 * mldsa-simd/worker: the ML-DSA operations of `mldsa-simd` as promises, run
 * off the main thread by a pool of workers: worker_threads in Node, module
 * Web Workers elsewhere. No other package is needed.
 *
 * ```ts
 * import { createPool } from 'mldsa-simd/worker';
 * const pool = createPool();
 * try {
 *   const ok = await pool.ml_dsa65.verify(sig, msg, publicKey);
 * } finally {
 *   await pool.close();
 * }
 * ```
 *
 * Arguments are checked on the calling thread with the checks of the
 * synchronous API: a call rejects with the same `TypeError`/`RangeError`
 * (message naming the argument) that `mldsa-simd` would throw. Errors raised
 * in a worker keep their class and message.
 *
 * Bytes: each argument's bytes are copied once (only the view's bytes) and the
 * copy is transferred; the caller's buffers are untouched. With
 * `{ transfer: true }`, an argument that is the whole of a plain (not shared,
 * not resizable) `ArrayBuffer` is transferred instead, with no copy, and the
 * caller's buffer is detached when the call is made (a later call given it
 * rejects with a `TypeError`: its ArrayBuffer is detached). Results are transferred to the caller. Copies of
 * secret keys, seeds and signing randomness made by the package are wiped
 * after use.
 * @module
 */

/** Options of `createPool`. */
export interface PoolOptions {
  /** Number of workers, 1 to 256. Default: the available parallelism (`os.availableParallelism()`, `navigator.hardwareConcurrency`). */
  size?: number;
}

/** Options of `verify` calls. Unknown keys reject with `TypeError`. */
export interface WorkerVerifyOptions {
  /** Context string, 0 to 255 bytes (FIPS 204 `ctx`). Default: empty. */
  context?: Uint8Array;
  /** Move whole-buffer arguments to the worker instead of copying them (their buffers are detached). Default: false. */
  transfer?: boolean;
}

/** Options of `sign` calls. */
export interface WorkerSignOptions extends WorkerVerifyOptions {
  /** Signing randomness: omitted for hedged signing (fresh randomness in the worker), `false` for deterministic, or 32 bytes. */
  extraEntropy?: Uint8Array | false;
}

/**
 * A key pair in the raw FIPS 204 encodings, as an object with no prototype
 * (so that resolving a promise with it looks up no `then` that a script could
 * have put on `Object.prototype`).
 */
export interface WorkerKeyPair {
  publicKey: Uint8Array<ArrayBuffer>;
  secretKey: Uint8Array<ArrayBuffer>;
  /** The 32-byte seed ξ the keys were made from (the one given, or the one drawn in the worker): the private key in its seed form, the caller's to keep or wipe. */
  seed: Uint8Array<ArrayBuffer>;
}

/** A prepared key held by the pool: each worker expands it once and keeps it. */
export interface WorkerPreparedKey {
  /** Wipes the pool's copy of the key and tells the workers to drop theirs; later calls reject with `Error`. Idempotent. */
  free(): void;
}

/** Result of `pool.ml_dsaXX.signer(secretKey)`. */
export interface WorkerSigner extends WorkerPreparedKey {
  /** Same as `ml_dsaXX.sign(msg, secretKey, opts)` of `mldsa-simd`, byte for byte. */
  sign(msg: Uint8Array, opts?: WorkerSignOptions): Promise<Uint8Array<ArrayBuffer>>;
}

/** Result of `pool.ml_dsaXX.verifier(publicKey)`. */
export interface WorkerVerifier extends WorkerPreparedKey {
  /** Same as `ml_dsaXX.verify(sig, msg, publicKey, opts)` of `mldsa-simd`. */
  verify(sig: Uint8Array, msg: Uint8Array, opts?: WorkerVerifyOptions): Promise<boolean>;
}

/** One parameter set's operations on the pool; each is its synchronous namesake in `mldsa-simd`, as a promise. */
export interface WorkerMlDsa {
  readonly lengths: {
    readonly publicKey: number;
    readonly secretKey: number;
    readonly signature: number;
    readonly seed: 32;
    readonly signRand: 32;
  };
  /** A key pair, from a 32-byte seed or from fresh randomness drawn in the worker. */
  keygen(seed?: Uint8Array): Promise<WorkerKeyPair>;
  getPublicKey(secretKey: Uint8Array): Promise<Uint8Array<ArrayBuffer>>;
  sign(msg: Uint8Array, secretKey: Uint8Array, opts?: WorkerSignOptions): Promise<Uint8Array<ArrayBuffer>>;
  /** Resolves to false for a signature that does not verify (including one of the wrong length). */
  verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: WorkerVerifyOptions): Promise<boolean>;
  /** A prepared signer from a secret key or a 32-byte seed; rejects as `mldsa-simd`'s `signer` throws. */
  signer(secretKey: Uint8Array): Promise<WorkerSigner>;
  /** A prepared verifier; repeated verifies under one key skip its expansion (ExpandA) in each worker. */
  verifier(publicKey: Uint8Array): Promise<WorkerVerifier>;
}

/** A pool of workers. */
export interface WorkerPool {
  /** Number of workers. */
  readonly size: number;
  readonly ml_dsa44: WorkerMlDsa;
  readonly ml_dsa65: WorkerMlDsa;
  readonly ml_dsa87: WorkerMlDsa;
  /**
   * Stops taking calls (later ones reject with `Error`), lets the calls in
   * flight settle, has every worker wipe this pool's prepared keys, and ends
   * the workers. Idempotent; also the pool's `Symbol.asyncDispose`.
   */
  close(): Promise<void>;
}

/**
 * Starts a pool of workers. Throws `TypeError`/`RangeError` for bad options;
 * in browsers, an `Error` when there are no Web Workers. A worker that fails
 * or ends rejects the calls it held with an `Error`; the others go on (it is
 * not replaced), and once none is left every call rejects.
 */
export declare function createPool(options?: PoolOptions): WorkerPool;
