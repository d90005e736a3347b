/**
 * mldsa-simd/worker-task in Node: a task module for a piscina pool of your
 * own (its default export runs one task; piscina is not a dependency of this
 * package, nor loaded by it). Elsewhere this subpath is the module Web Worker
 * of mldsa-simd/worker, which exports nothing (its types: worker-web.d.ts).
 * Most programs use `createPool` from mldsa-simd/worker instead.
 *
 * ```ts
 * import { Piscina } from 'piscina';
 * const pool = new Piscina({ filename: import.meta.resolve('mldsa-simd/worker-task') });
 * const ok: boolean = await pool.run({ set: 65, op: 'verify', args: [sig, msg, publicKey] });
 * ```
 * @module
 */

/** One task; `args` are those of the synchronous method `op` of `ml_dsa{set}`. */
export type WorkerTask =
  | { set: 44 | 65 | 87; op: 'keygen'; args: [seed?: Uint8Array] }
  | { set: 44 | 65 | 87; op: 'getPublicKey'; args: [secretKey: Uint8Array] }
  | { set: 44 | 65 | 87; op: 'sign'; args: [msg: Uint8Array, secretKey: Uint8Array, opts?: { context?: Uint8Array; extraEntropy?: Uint8Array | false }] }
  | { set: 44 | 65 | 87; op: 'verify'; args: [sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: { context?: Uint8Array }] };

/** Runs one task (in a piscina worker): returns like the synchronous method, throws like it. (Node only.) */
declare function task(t: WorkerTask): unknown;
export default task;
