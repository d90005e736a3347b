/**
 * mldsa-simd/worker-task (Node): a piscina task module. Its default export
 * runs one task (the shapes are in js/worker-run.js) on the package's
 * synchronous API and returns the result, with its bytes transferred rather
 * than copied; errors are thrown as the API throws them (piscina clones them,
 * class and message included). mldsa-simd/worker builds its pool on it; a
 * program with a piscina pool of its own can run the same tasks:
 *
 *   const pool = new Piscina({ filename: import.meta.resolve('mldsa-simd/worker-task') });
 *   await pool.run({ set: 65, op: 'verify', args: [sig, msg, publicKey] }); // true
 *
 * The pools of mldsa-simd/worker give each worker, through workerData, the
 * name of a BroadcastChannel on which the pool says which prepared keys were
 * freed; each worker answers the pool's close with an acknowledgement once it
 * has wiped that pool's keys.
 * It runs in the worker thread's own realm, out of reach of the calling
 * thread's scripts (js/worker-run.js says which built-ins it captures all the
 * same); what piscina does with a result is piscina's.
 * @module
 */
import { threadId, workerData } from 'node:worker_threads';
import { loadPiscina } from './piscina.js';
import { runTask, forget } from './worker-run.js';

const channelName = workerData?.['mldsa-simd/worker']?.channel;
if (typeof channelName === 'string') {
  const channel = new BroadcastChannel(channelName);
  // The pool's messages must not keep a worker alive on their own.
  channel.unref?.();
  channel.onmessage = ({ data }) => {
    if (data?.op === 'forget') forget(data.key);
    if (data?.op === 'forgetPool') {
      forget({ pool: data.key?.pool });
      channel.postMessage({ op: 'forgotPool', threadId });
    }
  };
  channel.postMessage({ op: 'joined', threadId });
}

export default function task(t) {
  const { value, transfer } = runTask(t);
  if (transfer.length === 0) return value;
  // Loaded here, not at import, so that importing this module never needs piscina;
  // a task runs in a piscina worker, so piscina is installed.
  const { move, transferableSymbol, valueSymbol } = loadPiscina();
  return move({ [transferableSymbol]: transfer, [valueSymbol]: value });
}
