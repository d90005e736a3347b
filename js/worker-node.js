/**
 * mldsa-simd/worker in Node: the pool of js/worker-pool.js (makePool over its
 * workerRunner, which says how calls are scheduled and what a failed worker
 * does) on a few worker_threads running js/worker-thread.js. It needs no
 * other package.
 *
 * Each worker gets a MessageChannel of the pool's own, whose far port it is
 * given at start (in workerData). Tasks go down that channel; each answer
 * comes back up it, and the worker then says so on its parentPort with a
 * message that holds nothing (0), on which this side takes the answers out of
 * the channel with receiveMessageOnPort. So tasks and results never pass
 * through the Worker's own port, which Node reaches through methods looked up
 * at each call (`worker.postMessage` calls the `postMessage` of
 * MessagePort.prototype as it is then; a message is handed on with the
 * worker's `emit`).
 * @module
 */
import os from 'node:os';
import { Worker, MessageChannel, MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { makePool, poolName, readPoolOptions, workerRunner } from './worker-pool.js';

// What is called on a worker and on the channel, as it was at load: a
// replaced postMessage would be handed every task (secret keys, seeds, rnd),
// and a replaced method called on a worker or a port the worker or the port,
// to listen to. (The Worker constructor hands the far port to the new thread
// with the `postMessage` of MessagePort.prototype as it is when the pool
// starts: a script that has replaced it by then sees the port, not a secret.)
const { apply } = Reflect;
const portPost = MessagePort.prototype.postMessage;
const portClose = MessagePort.prototype.close;
const { on: workerOn, ref: workerRef, unref: workerUnref, terminate: workerTerminate } = Worker.prototype;

/** A pool of `size` worker threads (default: os.availableParallelism()). */
export function createPool(options) {
  const { size } = readPoolOptions(options, os.availableParallelism?.() ?? os.cpus().length);
  const pool = poolName();

  const start = (events) => {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL('./worker-thread.mjs', import.meta.url), {
      workerData: { 'mldsa-simd/worker': port2 },
      transferList: [port2],
    });
    // The answers waiting in the channel, in the order the worker sent them.
    // (The channel's port here is never started: nothing is dispatched from it.)
    const receive = () => {
      for (;;) {
        let got;
        try {
          got = receiveMessageOnPort(port1);
        } catch {
          events.unreadable(new Error('mldsa-simd/worker: a result could not be received from a worker'));
          return;
        }
        if (got === undefined) return;
        events.answer(got.message);
      }
    };
    apply(workerOn, worker, ['message', receive]);
    // A worker that throws, or ends, answers no more: what it sent before is taken first.
    apply(workerOn, worker, [
      'error',
      (e) => {
        receive();
        events.failed(new Error(`mldsa-simd/worker: a worker failed: ${e?.message || 'it could not load or run'}`));
      },
    ]);
    apply(workerOn, worker, [
      'exit',
      (code) => {
        receive();
        apply(portClose, port1, []);
        events.failed(new Error(`mldsa-simd/worker: a worker stopped (exit code ${code})`));
      },
    ]);
    // An idle worker does not keep the process alive; one with calls to answer does (busy).
    // (After the listeners: a 'message' listener refs the worker's port.)
    apply(workerUnref, worker, []);
    return {
      // (Node reads a transfer list that is an array by index, with no iterator.)
      post: (message, transfer) => apply(portPost, port1, [message, transfer]),
      busy: (on) => apply(on ? workerRef : workerUnref, worker, []),
      terminate: () => apply(workerTerminate, worker, []),
    };
  };

  return makePool(workerRunner(size, start, pool), pool);
}
