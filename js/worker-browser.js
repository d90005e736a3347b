/**
 * mldsa-simd/worker in browsers (and runtimes with module Web Workers): the
 * pool of js/worker-pool.js on a few module Web Workers running
 * js/worker-web.js. Scheduling is deliberately plain: each call goes at once
 * to the worker with the fewest calls in flight, whose message queue holds it.
 * @module
 */
import { makePool, poolName, readPoolOptions, rebuild, own } from './worker-pool.js';

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
const noop = () => {};

/** A pool of `size` module Web Workers (default: navigator.hardwareConcurrency, else 4). */
export function createPool(options) {
  const { size } = readPoolOptions(options, globalThis.navigator?.hardwareConcurrency || 4);
  if (typeof WorkerClass !== 'function') throw new Error('mldsa-simd/worker: this JavaScript environment has no Web Workers (Worker)');
  const pool = poolName();
  let nextCall = 1;

  const spawn = () => {
    // This exact form is the one bundlers such as webpack 5, Vite and Parcel look for to emit the worker module.
    const worker = new Worker(new URL('./worker-web.mjs', import.meta.url), { type: 'module', name: 'mldsa-simd' });
    // The calls in flight, by id: { done(result), fail(error) }.
    const w = { worker, calls: new Map(), failed: undefined };
    const failAll = (error) => {
      for (const { fail } of w.calls.values()) fail(error);
      w.calls.clear();
    };
    // A result holds what a task made (a key pair, for keygen): its fields
    // are read only where they are its own.
    listen(worker, 'onmessage', (event) => {
      const data = messageData ? apply(messageData, event, []) : event.data;
      if (data === null || typeof data !== 'object') return;
      if (own(data, 'lost')) {
        // The worker could not read the oldest call waiting (see js/worker-web.js).
        const [id, c] = w.calls.entries().next().value ?? [];
        w.calls.delete(id);
        c?.fail(new Error('mldsa-simd/worker: a call could not be received by a worker'));
        return;
      }
      const c = own(data, 'id') ? w.calls.get(data.id) : undefined;
      if (!c) return;
      w.calls.delete(data.id);
      if (own(data, 'error')) c.fail(rebuild(data.error));
      else c.done(own(data, 'value') ? data.value : undefined);
    });
    listen(worker, 'onerror', (event) => {
      event.preventDefault?.();
      w.failed = new Error(`mldsa-simd/worker: a worker failed: ${event.message || 'it could not load or run'}`);
      failAll(w.failed);
    });
    listen(worker, 'onmessageerror', () => failAll(new Error('mldsa-simd/worker: a result could not be received from a worker')));
    return w;
  };
  const workers = Array.from({ length: size }, spawn);

  const post = (w, task, transfer, done, fail) => {
    if (w.failed) return fail(w.failed);
    const id = nextCall++;
    w.calls.set(id, { done, fail });
    try {
      apply(workerPost, w.worker, [{ id, task }, transfer.length > 0 && iterationIntact() ? transfer : []]);
    } catch (e) {
      w.calls.delete(id);
      fail(e);
    }
  };

  const run = (task, transfer, done, fail) => {
    let best = workers.find((w) => !w.failed) ?? workers[0];
    for (const w of workers) if (!w.failed && w.calls.size < best.calls.size) best = w;
    post(best, task, transfer, done, fail);
  };

  const close = async () => {
    await Promise.all(workers.map((w) => new Promise((settle) => post(w, { op: 'forgetPool', key: { pool } }, [], settle, settle))));
    for (const w of workers) apply(workerTerminate, w.worker, []);
  };

  return makePool(
    {
      size,
      run,
      forget: (key) => {
        for (const w of workers) post(w, { op: 'forget', key }, [], noop, noop);
      },
      close,
    },
    pool,
  );
}
