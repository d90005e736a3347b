/**
 * mldsa-simd/worker in Node: the pool of js/worker-pool.js on a piscina pool
 * of worker_threads running js/worker-task.js (piscina schedules; this file
 * only starts it, and at close wipes the workers' prepared keys and ends it).
 * piscina is an optional peer dependency: createPool throws without it.
 * @module
 */
import os from 'node:os';
import { makePool, poolName, readPoolOptions, whenSettled } from './worker-pool.js';
import { loadPiscina } from './piscina.js';

// How long close() waits for the workers to say they wiped their keys: only
// a worker that died without answering makes it wait this long.
const ACK_WAIT_MS = 2000;

/** A pool of `size` worker threads (default: os.availableParallelism()). */
export function createPool(options) {
  const { Piscina } = loadPiscina();
  const { size } = readPoolOptions(options, os.availableParallelism?.() ?? os.cpus().length);
  const pool = poolName();
  const channelName = `mldsa-simd/worker/${pool}`;
  const piscina = new Piscina({
    filename: new URL('./worker-task.mjs', import.meta.url).href,
    minThreads: size,
    maxThreads: size,
    // Workers must run their event loop between tasks, to hear the channel.
    atomics: 'disabled',
    // Tasks run one after another in a worker in any case; a second one
    // waiting in its port saves the worker a round trip's idle time.
    concurrentTasksPerWorker: 2,
    workerData: { 'mldsa-simd/worker': { channel: channelName } },
  });
  const channel = new BroadcastChannel(channelName);
  channel.unref?.();
  let onJoined;
  let onForgot;
  channel.onmessage = ({ data }) => {
    if (data?.op === 'joined') onJoined?.(data.threadId);
    if (data?.op === 'forgotPool') onForgot?.(data.threadId);
  };

  const close = async () => {
    // Every live worker, including one whose "joined" has not arrived yet
    // (it may have run tasks already): each loads js/worker-task.js at start.
    const waiting = new Set(piscina.threads.map((w) => w.threadId));
    if (waiting.size > 0) {
      // Held by the channel (ref'd for this wait) and the timer, so the
      // process stays up until the workers have answered.
      channel.ref?.();
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, ACK_WAIT_MS);
        const forgetPool = () => channel.postMessage({ op: 'forgetPool', key: { pool } });
        onForgot = (id) => {
          waiting.delete(id);
          if (waiting.size === 0) {
            clearTimeout(timer);
            resolve();
          }
        };
        // A worker whose channel opened after the first request missed it.
        onJoined = (id) => {
          if (waiting.has(id)) forgetPool();
        };
        forgetPool();
      });
    }
    await piscina.close();
    channel.close();
  };

  return makePool(
    {
      size,
      // What piscina does with a task (its own calls of built-ins, the port's
      // postMessage) is up to piscina; its promise is read with the `then` of
      // load time, which a replaced one never sees.
      run: (task, transferList, done, fail) => whenSettled(piscina.run(task, { transferList }), done, fail),
      forget: (key) => channel.postMessage({ op: 'forget', key }),
      close,
    },
    pool,
  );
}
