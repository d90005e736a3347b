/**
 * mldsa-simd/worker-task (Node): a task module for a piscina pool of your
 * own. Its default export runs one task (the shapes are in js/worker-run.js)
 * on the package's synchronous API and returns the result; errors are thrown
 * as the API throws them (piscina clones them, class and message included):
 *
 *   const pool = new Piscina({ filename: import.meta.resolve('mldsa-simd/worker-task') });
 *   await pool.run({ set: 65, op: 'verify', args: [sig, msg, publicKey] }); // true
 *
 * It does not load piscina (which is not a dependency of the package): the
 * result is cloned back, not transferred (piscina transfers only what its own
 * `move()` marks). mldsa-simd/worker does not use it (js/worker-thread.js).
 * It runs in the worker thread's own realm, out of reach of the calling
 * thread's scripts (js/worker-run.js says which built-ins it captures all the
 * same); what piscina does with a task or a result is piscina's.
 * @module
 */
import { runTask } from './worker-run.js';

export default function task(t) {
  return runTask(t).value;
}
