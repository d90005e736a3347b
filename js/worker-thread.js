/**
 * The worker thread of mldsa-simd/worker in Node (js/worker-node.js): as
 * js/worker-web.js does for a module Web Worker, it runs the tasks the pool
 * posts ({ id, task }, shapes in js/worker-run.js) and answers { id, value }
 * with the result's bytes transferred, or { id, error: { name, message } },
 * from which the pool rebuilds the TypeError/RangeError/Error; a message it
 * cannot read is answered with { lost: true } in its place. Tasks arrive, and
 * answers leave, on the pool's own channel (the port in workerData); after
 * each answer, a message holding nothing (0) on parentPort tells the pool to
 * take it.
 * It runs in the worker thread's own realm, out of reach of the calling
 * thread's scripts (js/worker-run.js says which built-ins it captures all the
 * same).
 * @module
 */
import { parentPort, workerData, MessagePort } from 'node:worker_threads';
import { runTask, errorShape } from './worker-run.js';

const port = workerData?.['mldsa-simd/worker'];

if (parentPort && port instanceof MessagePort) {
  const answer = (message, transfer) => {
    port.postMessage(message, transfer);
    parentPort.postMessage(0);
  };
  port.on('message', (data) => {
    const { id, task } = data ?? {};
    try {
      const { value, transfer } = runTask(task);
      answer({ id, value }, transfer);
    } catch (e) {
      answer({ id, error: errorShape(e) });
    }
  });
  port.on('messageerror', () => answer({ lost: true }));
}
