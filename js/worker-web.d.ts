/**
 * mldsa-simd/worker-task outside Node (the `browser` and `default`
 * conditions): the module Web Worker of mldsa-simd/worker, which exports
 * nothing; a pool of your own starts it with
 * `new Worker(url, { type: 'module' })` and posts it `{ id, task }`. Only the
 * shape of a task is declared here.
 * @module
 */
export type { WorkerTask } from './worker-task.js';
