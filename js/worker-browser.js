/**
 * mldsa-simd/worker in browsers (and runtimes with module Web Workers): the
 * pool of js/worker-pool.js on a few module Web Workers running
 * js/worker-web.js. Scheduling is deliberately plain: each call goes at once
 * to the worker with the fewest calls in flight, whose message queue holds it.
 * @module
 */
import { makePool, poolName, readPoolOptions } from './worker-pool.js';

const rebuild = ({ name, message }) =>
  name === 'TypeError' ? new TypeError(message) : name === 'RangeError' ? new RangeError(message) : new Error(message);

/** A pool of `size` module Web Workers (default: navigator.hardwareConcurrency, else 4). */
export function createPool(options) {
  const { size } = readPoolOptions(options, globalThis.navigator?.hardwareConcurrency || 4);
  if (typeof Worker !== 'function') throw new Error('mldsa-simd/worker: this JavaScript environment has no Web Workers (Worker)');
  const pool = poolName();
  let nextCall = 1;

  const spawn = () => {
    // This exact form is the one bundlers such as webpack 5, Vite and Parcel look for to emit the worker module.
    const worker = new Worker(new URL('./worker-web.mjs', import.meta.url), { type: 'module', name: 'mldsa-simd' });
    const w = { worker, calls: new Map(), failed: undefined };
    const failAll = (error) => {
      for (const { reject } of w.calls.values()) reject(error);
      w.calls.clear();
    };
    worker.onmessage = ({ data }) => {
      if (data?.lost) {
        // The worker could not read the oldest call waiting (see js/worker-web.js).
        const [id, c] = w.calls.entries().next().value ?? [];
        w.calls.delete(id);
        c?.reject(new Error('mldsa-simd/worker: a call could not be received by a worker'));
        return;
      }
      const c = w.calls.get(data?.id);
      if (!c) return;
      w.calls.delete(data.id);
      if (data.error) c.reject(rebuild(data.error));
      else c.resolve(data.value);
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      w.failed = new Error(`mldsa-simd/worker: a worker failed: ${event.message || 'it could not load or run'}`);
      failAll(w.failed);
    };
    worker.onmessageerror = () => failAll(new Error('mldsa-simd/worker: a result could not be received from a worker'));
    return w;
  };
  const workers = Array.from({ length: size }, spawn);

  const post = (w, task, transfer) =>
    new Promise((resolve, reject) => {
      if (w.failed) return reject(w.failed);
      const id = nextCall++;
      w.calls.set(id, { resolve, reject });
      try {
        w.worker.postMessage({ id, task }, transfer);
      } catch (e) {
        w.calls.delete(id);
        reject(e);
      }
    });

  const run = (task, transfer) => {
    let best = workers.find((w) => !w.failed) ?? workers[0];
    for (const w of workers) if (!w.failed && w.calls.size < best.calls.size) best = w;
    return post(best, task, transfer);
  };

  const close = async () => {
    await Promise.allSettled(workers.map((w) => post(w, { op: 'forgetPool', key: { pool } }, [])));
    for (const w of workers) w.worker.terminate();
  };

  return makePool(
    {
      size,
      run,
      forget: (key) => {
        for (const w of workers) post(w, { op: 'forget', key }, []).catch(() => {});
      },
      close,
    },
    pool,
  );
}
