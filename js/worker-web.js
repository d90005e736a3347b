/**
 * The module Web Worker of mldsa-simd/worker in browsers (and other runtimes
 * with module Web Workers): it runs the tasks the pool posts ({ id, task },
 * shapes in js/worker-run.js) and posts back { id, value } with the result's
 * bytes transferred, or { id, error: { name, message } }, from which the pool
 * rebuilds the TypeError/RangeError/Error.
 * @module
 */
import { runTask, errorShape } from './worker-run.js';

self.onmessage = ({ data }) => {
  const { id, task } = data ?? {};
  try {
    const { value, transfer } = runTask(task);
    self.postMessage({ id, value }, transfer);
  } catch (e) {
    self.postMessage({ id, error: errorShape(e) });
  }
};
