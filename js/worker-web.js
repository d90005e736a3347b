/**
 * The module Web Worker of mldsa-simd/worker in browsers (and other runtimes
 * with module Web Workers): it runs the tasks the pool posts ({ id, task },
 * shapes in js/worker-run.js) and posts back { id, value } with the result's
 * bytes transferred, or { id, error: { name, message } }, from which the pool
 * rebuilds the TypeError/RangeError/Error. A message it cannot read (whose id
 * is then unknown) is answered with { lost: true } in its place: the worker
 * answers in the order it receives, so the pool fails the oldest call waiting.
 * It runs in the worker's own realm, which the page's scripts cannot reach
 * (js/worker-run.js says which built-ins it captures all the same).
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

self.onmessageerror = () => {
  self.postMessage({ lost: true });
};
