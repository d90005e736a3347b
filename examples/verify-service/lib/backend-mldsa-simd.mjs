// Verification with mldsa-simd on a piscina worker pool: the event loop only
// parses requests; each worker holds a prepared verifier (ml_dsaXX.verifier) per
// trusted key, made once when the worker starts.
import os from 'node:os';
import { Piscina } from 'piscina';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from 'mldsa-simd';
import { importPublicKey } from 'mldsa-simd/keys';
import { KeyLoadError, SIGNATURE_BYTES } from './keys.mjs';

const SETS = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };
// Items per worker task: a large batch is spread over the workers, and a small one
// does not pay a message round trip per item.
export const CHUNK = 16;
// Tasks handed to piscina per thread at once: one running and one ready to start, so
// that a worker does not wait for a round trip to the main thread between tasks. The
// rest wait in this module's queue, where a timed-out request can still take them back.
export const TASKS_PER_THREAD = 2;

/** Raw public key and parameter set of a key source, or KeyLoadError. */
export function parseKey(source) {
  const name = `key "${source.kid}" (${source.origin})`;
  if (source.jwk) {
    try {
      return { alg: source.jwk.alg, publicKey: importPublicKey(SETS[source.jwk.alg], source.jwk, 'jwk') };
    } catch (e) {
      throw new KeyLoadError(`${name}: not an ML-DSA public key: ${e.message}`);
    }
  }
  // A PEM file does not say its set outside the DER: the set that reads it is the one.
  let first;
  for (const [alg, set] of Object.entries(SETS)) {
    try {
      return { alg, publicKey: importPublicKey(set, source.pem, 'pem') };
    } catch (e) {
      first ??= e;
    }
  }
  throw new KeyLoadError(`${name}: not an ML-DSA public key: ${first.message}`);
}

/**
 * The bytes of items[from, to) copied into one new ArrayBuffer (moved to the worker,
 * not cloned), with each record's kid and lengths. The items' msg/sig/context are
 * views of a request body: cloning a view would copy its whole buffer (or Node's
 * shared 8 KiB pool, with bytes of other requests).
 * @returns {{ bytes: ArrayBuffer, kids: string[], lengths: number[] }} lengths: msg, sig, context per record
 */
export function packTask(items, from = 0, to = items.length) {
  let total = 0;
  for (let i = from; i < to; i++) total += items[i].msg.length + items[i].sig.length + (items[i].context?.length ?? 0);
  const bytes = new ArrayBuffer(total);
  const view = new Uint8Array(bytes);
  const kids = [];
  const lengths = [];
  let at = 0;
  for (let i = from; i < to; i++) {
    const { kid, msg, sig, context } = items[i];
    kids.push(kid);
    for (const part of [msg, sig, context ?? EMPTY]) {
      view.set(part, at);
      at += part.length;
      lengths.push(part.length);
    }
  }
  return { bytes, kids, lengths };
}
const EMPTY = new Uint8Array(0);

/**
 * @param {Array} sources from readKeySources()
 * @param {{ threads?: number }} options
 */
export async function createBackend(sources, { threads = os.availableParallelism() } = {}) {
  const keys = sources.map((s) => ({ kid: s.kid, ...parseKey(s) }));
  const pool = new Piscina({
    filename: new URL('./worker-mldsa-simd.mjs', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    // At most threads × TASKS_PER_THREAD tasks reach piscina; the service bounds the rest (maxPending).
    maxQueue: Infinity,
    workerData: { keys },
  });
  // A worker stopped (at once, when piscina terminates it) or started (once ready)
  // after the first `threads` means one crashed or was killed.
  let workersStarted = 0;
  let workersStopped = 0;
  pool.on('workerCreate', () => workersStarted++);
  pool.on('workerDestroy', () => workersStopped++);
  // A worker that cannot load mldsa-simd or make its verifiers fails here, before the
  // service listens, rather than on the first request.
  await Promise.all(Array.from({ length: threads }, () => pool.run(null, { name: 'ready' })));

  // Tasks not yet handed to piscina: { job, from, to }, first in first out.
  const queue = [];
  let head = 0;
  let queued = 0; // tasks in `queue` whose request still waits
  let running = 0;
  const window = threads * TASKS_PER_THREAD;

  function pump() {
    while (running < window && head < queue.length) {
      const { job, from, to } = queue[head];
      queue[head++] = undefined;
      if (job.done) continue; // timed out while queued: dropped without running
      job.queued--;
      queued--;
      let task;
      try {
        task = packTask(job.items, from, to);
      } catch (e) {
        job.finish(e); // an item that is not bytes: a bug of the caller, answered as such
        continue;
      }
      running++;
      const finished = (err, valid) => {
        running--; // before the answer, so that its reader sees the pool as it is
        if (err) job.finish(err);
        else if (!job.done) {
          // (when done, the request timed out while this ran: nobody waits for it)
          for (let i = 0; i < valid.length; i++) job.results[from + i] = valid[i];
          if (--job.left === 0) job.finish(null, job.results);
        }
        pump();
      };
      pool.run(task, { transferList: [task.bytes] }).then((valid) => finished(null, valid), finished);
    }
    // Drop the slots already taken, without an O(n) shift per task.
    if (head === queue.length || head > 1024) {
      queue.splice(0, head);
      head = 0;
    }
  }

  return {
    name: 'mldsa-simd',
    threads,
    keys: new Map(keys.map((k) => [k.kid, { alg: k.alg, signatureBytes: SIGNATURE_BYTES[k.alg] }])),
    pool, // for tests and metrics: threads, completed
    /** What /healthz shows as "pool". */
    stats: () => ({ workersStarted, workersStopped, queuedTasks: queued, runningTasks: running, completedTasks: pool.completed }),
    /**
     * Booleans for items, in order. An abort of `signal` rejects at once and drops the
     * tasks still queued here; tasks already with a worker finish and their answers are
     * thrown away (aborting a running piscina task would terminate its worker thread,
     * and its replacement would rebuild every verifier).
     */
    verify(items, { signal } = {}) {
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const job = {
          items,
          results: new Array(items.length),
          left: Math.ceil(items.length / CHUNK),
          done: false,
          queued: 0,
          finish(err, value) {
            if (job.done) return;
            job.done = true;
            queued -= job.queued;
            job.items = job.results = null; // queued tasks keep the job, not the request's bytes
            signal?.removeEventListener('abort', onAbort);
            if (err) reject(err);
            else resolve(value);
          },
        };
        const onAbort = () => job.finish(signal.reason);
        signal?.addEventListener('abort', onAbort);
        if (items.length === 0) return job.finish(null, []);
        for (let i = 0; i < items.length; i += CHUNK) queue.push({ job, from: i, to: Math.min(i + CHUNK, items.length) });
        job.queued = Math.ceil(items.length / CHUNK);
        queued += job.queued;
        pump();
      });
    },
    close: () => pool.close(),
  };
}
