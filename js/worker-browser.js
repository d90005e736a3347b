/**
 * mldsa-simd/worker in browsers (and runtimes with module Web Workers): the
 * pool of js/worker-pool.js (makePool over its workerRunner, which says how
 * calls are scheduled and what a failed worker does) on a few module Web
 * Workers running js/worker-web.js.
 * @module
 */
import { makePool, poolName, readPoolOptions, workerRunner, own } from './worker-pool.js';

// What is called on a worker and its messages, as it was at load: a replaced
// postMessage would be handed every task (secret keys, seeds, rnd), a replaced
// handler setter or `data` getter every result (key pairs), and any replaced
// method called on a worker the worker itself, to listen to. (The Worker
// constructor is looked up when a pool starts: bundlers look for
// `new Worker(new URL(...))` with the global Worker.)
const { apply } = Reflect;
const { getOwnPropertyDescriptor, getPrototypeOf } = Object;
const WorkerClass = globalThis.Worker;
const workerPost = WorkerClass?.prototype.postMessage;
const workerTerminate = WorkerClass?.prototype.terminate;
const setter = (name) => (WorkerClass ? getOwnPropertyDescriptor(WorkerClass.prototype, name)?.set : undefined);
const handlers = { onmessage: setter('onmessage'), onerror: setter('onerror'), onmessageerror: setter('onmessageerror') };
const messageData = globalThis.MessageEvent && getOwnPropertyDescriptor(MessageEvent.prototype, 'data')?.get;
const listen = (worker, name, handler) => {
  if (handlers[name]) apply(handlers[name], worker, [handler]);
  else worker[name] = handler;
};
// A transfer list is read as a sequence, which Firefox reads with the array
// iterator of the moment: when a script has replaced it, the bytes are copied
// (structured cloning runs no script) rather than handed to it for transfer.
const arrayValues = Array.prototype[Symbol.iterator];
const arrayIterator = getPrototypeOf([][Symbol.iterator]());
const arrayIteratorNext = arrayIterator.next;
const holds = (object, key, value) => {
  const d = getOwnPropertyDescriptor(object, key);
  return d !== undefined && own(d, 'value') && d.value === value;
};
const iterationIntact = () => holds(Array.prototype, Symbol.iterator, arrayValues) && holds(arrayIterator, 'next', arrayIteratorNext);
// (A worker's event loop keeps no page alive: nothing to do when it is busy.)
const noop = () => {};

/** A pool of `size` module Web Workers (default: navigator.hardwareConcurrency, else 4). */
export function createPool(options) {
  const { size } = readPoolOptions(options, globalThis.navigator?.hardwareConcurrency || 4);
  if (typeof WorkerClass !== 'function') throw new Error('mldsa-simd/worker: this JavaScript environment has no Web Workers (Worker)');
  const pool = poolName();

  const start = (events) => {
    // This exact form is the one bundlers such as webpack 5, Vite and Parcel look for to emit the worker module.
    const worker = new Worker(new URL('./worker-web.mjs', import.meta.url), { type: 'module', name: 'mldsa-simd' });
    listen(worker, 'onmessage', (event) => events.answer(messageData ? apply(messageData, event, []) : event.data));
    listen(worker, 'onerror', (event) => {
      event.preventDefault?.();
      events.failed(new Error(`mldsa-simd/worker: a worker failed: ${event.message || 'it could not load or run'}`));
    });
    listen(worker, 'onmessageerror', () => events.unreadable(new Error('mldsa-simd/worker: a result could not be received from a worker')));
    return {
      post: (message, transfer) => apply(workerPost, worker, [message, transfer.length > 0 && iterationIntact() ? transfer : []]),
      busy: noop,
      terminate: () => apply(workerTerminate, worker, []),
    };
  };

  return makePool(workerRunner(size, start, pool), pool);
}
