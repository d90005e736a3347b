/**
 * The main-thread side of mldsa-simd/worker, shared by the Node pool
 * (js/worker-node.js, worker_threads) and the Web Worker pool
 * (js/worker-browser.js): the per-set methods, which read and check every
 * argument here with the package's own readers (js/args.js: the same
 * TypeError/RangeError as the synchronous API, before anything travels) and
 * send the worker plain bytes; and the runner that sends them to a fixed
 * number of workers (workerRunner).
 *
 * What travels: by default, a fresh copy of just the bytes of each argument
 * (a view's bytes, never the rest of its buffer, which structured cloning
 * would copy whole), transferred, so each argument is copied once and the
 * caller's buffers are left alone. With `{ transfer: true }` in a call's
 * options, an argument that is a whole ArrayBuffer's view (not shared, not
 * resizable) moves instead, with no copy: the caller's buffer is detached
 * when the call is made, so a later call naming it is refused as detached.
 * Results come back transferred. The package's copies of secrets (secret
 * keys, seeds, signing randomness) are wiped: here after the call when they
 * did not travel, by the worker after use when they did.
 * @module
 */
import {
  apply,
  U8,
  taBuffer,
  taOffset,
  taLength,
  u8Fill,
  u8Set,
  isArray,
  freeze,
  isSafeInteger,
  FR,
  frRegister,
  frUnregister,
  len,
  PARAMS,
  SEED_BYTES,
  lengthsOf,
  describe,
  readBytes,
  readLength,
  readSeedOrSecretKey,
  readOptions,
  readContext,
  readEntropy,
  readFlag,
} from './args.js';

const SIGN_KEYS = freeze(['context', 'extraEntropy', 'transfer']);
const VERIFY_KEYS = freeze(['context', 'transfer']);

// Calls made together (in one turn of the event loop) travel together: a few
// batches of at most this many tasks, at least one per worker when there are
// enough, so that a message round trip is paid per batch, not per call.
const MAX_BATCH = 32;

// ---------------------------------------------------------------- intrinsics
// This side shares its realm with every other script of the page or program,
// and holds secrets: the caller's secret keys, seeds and rnd, the copies that
// travel, a prepared signer's key. As in js/args.js, no such value (nor an
// object, array or collection holding one) is handed to a built-in that a
// script can replace after the import: the methods called on them are
// captured here; lists of them have no prototype (storing or reading a
// missing element of an array looks up Array.prototype and Object.prototype,
// where a script can put a getter or setter) and are indexed, not iterated,
// spread, pushed or sliced, and what leaves as an array is copied into one by
// the slice of load time; a property that may be missing is looked for with
// `own`, not read; and no promise that ends with a secret is resolved with
// another promise or with an object that inherits a `then` to look up.
const { setPrototypeOf } = Object;
const arraySlice = Array.prototype.slice;
const P = Promise;
const promiseThen = P.prototype.then;
const objectHasOwn = Object.prototype.hasOwnProperty;
const { add: setAdd, delete: setDelete, forEach: setForEach, clear: setClear } = Set.prototype;
// The calls in flight of a worker hold the callbacks that settle them (done
// gets a call's result: a key pair, for keygen): found with these.
const { get: mapGet, set: mapSet, delete: mapDelete, forEach: mapForEach, keys: mapKeys } = Map.prototype;
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get;
const mapIteratorNext = Object.getPrototypeOf(new Map().keys()).next;
const microtask = globalThis.queueMicrotask;
const abByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const abResizable = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'resizable')?.get;
const abTransfer = ArrayBuffer.prototype.transfer;
const clone = globalThis.structuredClone;

/** Whether `object` has its own property `key` (no getter of its prototypes runs). */
const own = (object, key) => apply(objectHasOwn, object, [key]);
/** An empty array with no prototype, for a list that may hold secrets. */
const list = () => setPrototypeOf([], null);
/** A list's elements in an array of the usual kind (for the platform). */
const toArray = (l) => apply(arraySlice, l, []);
/** Appends `value` to a list. */
const append = (l, value) => {
  l[l.length] = value;
};
/** The index of `value` in `array` (===), or -1. */
function indexOf(array, value) {
  for (let i = 0; i < array.length; i++) if (array[i] === value) return i;
  return -1;
}
/** A promise of `fn()`'s result, rejected if it throws (as an async function's is) but never resolved with another promise. */
function begin(fn) {
  try {
    return fn();
  } catch (e) {
    return new P((_, reject) => reject(e));
  }
}
const noop = () => {};
/** Calls `done` or `fail` when `promise` settles. */
const whenSettled = (promise, done, fail) => {
  apply(promiseThen, promise, [done, fail]);
};

/** The error a worker reported ({ name, message }), as its class. */
export const rebuild = ({ name, message }) =>
  name === 'TypeError' ? new TypeError(message) : name === 'RangeError' ? new RangeError(message) : new Error(message);

export { own, whenSettled };

// A detached buffer refuses even an empty view.
const attached = (buffer) => {
  try {
    new U8(buffer, 0, 0);
    return true;
  } catch {
    return false;
  }
};
const disposeSymbol = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('Symbol.dispose');
const asyncDisposeSymbol = typeof Symbol.asyncDispose === 'symbol' ? Symbol.asyncDispose : Symbol.for('Symbol.asyncDispose');

/** Reads the options of createPool: `{ size? }`, size a whole number from 1 to 256. */
export function readPoolOptions(options, defaultSize) {
  const o = readOptions(options, ['size']);
  if (o.size === undefined) return { size: Math.max(1, Math.min(256, defaultSize | 0 || 1)) };
  if (!isSafeInteger(o.size)) throw new TypeError(`size: expected a whole number, got ${typeof o.size === 'number' ? o.size : describe(o.size)}`);
  if (o.size < 1 || o.size > 256) throw new RangeError(`size: expected 1 to 256 workers, got ${o.size}`);
  return { size: o.size };
}

/** A random name for one pool, so that two pools never share prepared-key ids. */
export function poolName() {
  const bytes = new U8(12);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// True when the view covers all of a plain ArrayBuffer that can be transferred.
function wholeBuffer(view) {
  const buffer = apply(taBuffer, view, []);
  try {
    if (abResizable && apply(abResizable, buffer, [])) return false;
    return apply(taOffset, view, []) === 0 && apply(taLength, view, []) === apply(abByteLength, buffer, []);
  } catch {
    return false; // a SharedArrayBuffer: its bytes are shared, not movable
  }
}

// Moves a buffer's bytes into a new ArrayBuffer, detaching the caller's at
// once (so that a later call naming it is refused as detached, and nothing
// the caller does next can reach what this call sends). Undefined when the
// buffer cannot be moved (such as a WebAssembly memory's): it is copied then.
function move(buffer) {
  try {
    return abTransfer ? apply(abTransfer, buffer, []) : clone(buffer, { transfer: [buffer] });
  } catch {
    return undefined;
  }
}

/**
 * One call's outgoing bytes, taken when the call is made: `carry(view,
 * secret)` gives what the task holds (the caller's bytes moved into a buffer
 * of the package's, or a copy) and records what to transfer and which copies
 * of secrets to wipe if they stay here. `views` are all the views the call
 * will carry: where each one lies is read before any buffer moves, since two
 * of them may share one. The copies of one call share one buffer (one
 * allocation and one transfer per call, however many arguments it has).
 */
function outgoing(transfer, views) {
  const buffers = list(); // the buffers to transfer
  const secrets = list(); // the copies of secrets
  const at = list(); // where views[i] lies
  let size = 0;
  for (let i = 0; i < views.length; i++) {
    const v = views[i];
    const first = v && indexOf(views, v) === i;
    append(at, first ? { buffer: apply(taBuffer, v, []), offset: apply(taOffset, v, []), length: len(v), whole: transfer && wholeBuffer(v) } : undefined);
    if (first) size += at[i].length;
  }
  // The buffers moved (or that could not be), and where their bytes went.
  const movedFrom = list();
  const movedTo = list();
  let slab;
  let used = 0;
  const keep = (buffer) => {
    if (indexOf(buffers, buffer) < 0) append(buffers, buffer);
  };
  const carry = (view, secret, ours = false) => {
    const i = ours ? -1 : indexOf(views, view);
    const where = i < 0 ? undefined : at[i];
    let k = where ? indexOf(movedFrom, where.buffer) : -1;
    if (where?.whole) {
      if (k < 0) {
        k = movedFrom.length;
        append(movedFrom, where.buffer);
        append(movedTo, move(where.buffer));
      }
      if (movedTo[k]) {
        keep(movedTo[k]);
        const bytes = new U8(movedTo[k]);
        if (secret) append(secrets, bytes);
        return bytes;
      }
    }
    // A view into a buffer another argument of this call moved reads its bytes there.
    const from = k >= 0 && movedTo[k] ? new U8(movedTo[k], where.offset, where.length) : view;
    const n = len(from);
    slab ??= apply(taBuffer, new U8(size), []);
    const fits = used + n <= size;
    const copy = fits ? new U8(slab, used, n) : new U8(n);
    apply(u8Set, copy, [from]);
    if (fits) used += n;
    keep(fits ? slab : apply(taBuffer, copy, []));
    if (secret) append(secrets, copy);
    return copy;
  };
  // After the call: bytes that travelled are detached (length 0, nothing to
  // fill); those that did not (a call refused before it was posted) are wiped.
  const wipe = () => {
    for (let i = 0; i < secrets.length; i++) if (len(secrets[i]) > 0) apply(u8Fill, secrets[i], [0]);
  };
  return { carry, transfer: buffers, wipe };
}

/**
 * The pool object over a `runner`: { size, run(task, transferList, done(result),
 * fail(error)), forget(key) (fire and forget), close() -> Promise (wipes the
 * workers' keys and ends them) }.
 */
export function makePool(runner, pool) {
  let closing;
  let pending = 0; // calls made and not settled
  let drained; // what close() waits on while some are
  let nextId = 1;

  // The main-thread copies of the secret keys of signers not yet freed, wiped by close().
  const liveSecrets = new Set();
  const closedError = () => new Error('mldsa-simd/worker: the pool is closed');
  let queue = list();
  const flush = () => {
    const items = queue;
    queue = list();
    // Only the package's own buffers travel, none of which can be detached
    // here; should one be, its call is refused rather than posted, since a
    // worker that cannot read a message never answers it.
    const ready = list();
    for (let i = 0; i < items.length; i++) {
      const g = items[i];
      let intact = true;
      for (let b = 0; b < g.transfer.length; b++) intact &&= attached(g.transfer[b]);
      if (intact) append(ready, g);
      else g.fail(new Error("mldsa-simd/worker: internal error: a call's bytes were detached before they were sent"));
    }
    const per = Math.min(MAX_BATCH, Math.ceil(ready.length / runner.size));
    for (let i = 0; i < ready.length; i += per) {
      const group = list();
      const tasks = list();
      const transfer = list();
      for (let j = i; j < i + per && j < ready.length; j++) {
        const g = ready[j];
        append(group, g);
        append(tasks, g.task);
        for (let b = 0; b < g.transfer.length; b++) if (indexOf(transfer, g.transfer[b]) < 0) append(transfer, g.transfer[b]);
      }
      runner.run(
        { op: 'batch', tasks: toArray(tasks) },
        toArray(transfer),
        (results) => {
          for (let k = 0; k < group.length; k++) {
            const r = isArray(results) && k < results.length ? results[k] : undefined;
            if (r !== null && typeof r === 'object' && own(r, 'value')) group[k].done(r.value);
            else if (r !== null && typeof r === 'object' && own(r, 'error')) group[k].fail(rebuild(r.error));
            else group[k].fail(new Error('mldsa-simd/worker: internal error: no result for a call'));
          }
        },
        (e) => {
          for (let k = 0; k < group.length; k++) group[k].fail(e);
        },
      );
    }
  };
  // Queues `task` for the next batch. Its promise settles, once the call's
  // copies of secrets are wiped, with `shape(result)` or the error.
  const call = (task, out, shape = (value) => value) => {
    if (closing) {
      out.wipe();
      throw closedError();
    }
    pending++;
    return new P((resolve, reject) => {
      const settled = () => {
        out.wipe();
        if (--pending === 0) drained?.();
      };
      append(queue, {
        task,
        transfer: out.transfer,
        done: (value) => {
          settled();
          resolve(shape(value));
        },
        fail: (e) => {
          settled();
          reject(e);
        },
      });
      if (queue.length === 1) microtask(flush);
    });
  };

  // Wipes the main-thread copy of a prepared key dropped without free(), and
  // tells the workers to forget it.
  const dropped =
    typeof FR === 'function'
      ? new FR(({ bytes, key }) => {
          apply(u8Fill, bytes, [0]);
          apply(setDelete, liveSecrets, [bytes]);
          if (!closing) runner.forget(key);
        })
      : undefined;

  const makeSet = (set) => {
    const { publicKey: pkLen, secretKey: skLen } = PARAMS[set];

    const withOptions = (opts, allowed) => {
      const options = readOptions(opts, allowed);
      return { options, transfer: readFlag(options.transfer, 'transfer') };
    };
    // The options as the worker's synchronous call reads them, built from the
    // checked views (context, then signing randomness, as the API reads them).
    const taskOptions = (options, carry, ctx, rnd) => {
      const o = { __proto__: null };
      if (options.context !== undefined) o.context = carry(ctx, false);
      if (rnd) o.extraEntropy = carry(rnd, true);
      else if (options.extraEntropy === false) o.extraEntropy = false;
      return o;
    };

    // Not an async function, whose promise would be resolved with call()'s
    // and so hand that promise (of the secret key) to Promise.prototype.then;
    // the key pair has no prototype, so that resolving with it looks up no `then`.
    const keygen = (seed) =>
      begin(() => {
        const view = seed === undefined ? undefined : readLength(seed, SEED_BYTES, 'seed');
        const out = outgoing(false, [view]);
        const args = view === undefined ? [] : [out.carry(view, true)];
        return call({ set, op: 'keygen', args }, out, (kp) => ({ __proto__: null, publicKey: kp.publicKey, secretKey: kp.secretKey, seed: kp.seed }));
      });

    const getPublicKey = async (secretKey) => {
      const view = readLength(secretKey, skLen, 'secretKey');
      const out = outgoing(false, [view]);
      const sk = out.carry(view, true);
      return call({ set, op: 'getPublicKey', args: [sk] }, out);
    };

    const sign = async (msg, secretKey, opts) => {
      const { options, transfer } = withOptions(opts, SIGN_KEYS);
      const m = readBytes(msg, 'msg');
      const ctx = readContext(options.context);
      const rnd = readEntropy(options.extraEntropy);
      const sk = readLength(secretKey, skLen, 'secretKey');
      const out = outgoing(transfer, [m, sk, ctx, rnd]);
      const args = [out.carry(m, false), out.carry(sk, true), taskOptions(options, out.carry, ctx, rnd)];
      return call({ set, op: 'sign', args }, out);
    };

    const verify = async (sig, msg, publicKey, opts) => {
      const { options, transfer } = withOptions(opts, VERIFY_KEYS);
      const s = readBytes(sig, 'signature');
      const m = readBytes(msg, 'msg');
      const ctx = readContext(options.context);
      const pk = readLength(publicKey, pkLen, 'publicKey');
      const out = outgoing(transfer, [s, m, pk, ctx]);
      const args = [out.carry(s, false), out.carry(m, false), out.carry(pk, false), taskOptions(options, out.carry, ctx)];
      return call({ set, op: 'verify', args }, out);
    };

    // A prepared key: the bytes stay here (the package's copy) and travel with
    // each call; each worker keeps the expanded key it made (js/worker-run.js).
    // Made by a first task, which checks the key as the synchronous API does.
    const prepare = async (kind, bytes, methods) => {
      const key = { pool, id: nextId++, kind };
      const secret = kind === 'signer';
      let freed = false;
      const taskKey = (out) => ({ ...key, bytes: out.carry(bytes, secret, true) });
      try {
        const out = outgoing(false, [bytes]);
        await call({ set, op: 'prepare', args: [], key: taskKey(out) }, out);
      } catch (e) {
        if (secret) apply(u8Fill, bytes, [0]);
        throw e;
      }
      const object = freeze({
        ...methods({
          key: (out) => {
            if (freed) throw new Error(`${kind}: used after free()`);
            return taskKey(out);
          },
        }),
        free() {
          if (freed) return;
          freed = true;
          if (dropped) apply(frUnregister, dropped, [object]);
          if (secret) apply(u8Fill, bytes, [0]);
          apply(setDelete, liveSecrets, [bytes]);
          if (!closing) runner.forget(key);
        },
        [disposeSymbol]() {
          object.free();
        },
      });
      if (dropped) apply(frRegister, dropped, [object, { bytes: secret ? bytes : new U8(0), key }, object]);
      if (secret) {
        if (closing) apply(u8Fill, bytes, [0]);
        else apply(setAdd, liveSecrets, [bytes]);
      }
      return object;
    };

    const signer = async (secretKey) => {
      const bytes = new U8(readSeedOrSecretKey(secretKey, skLen));
      return prepare('signer', bytes, ({ key }) => ({
        async sign(msg, opts) {
          const { options, transfer } = withOptions(opts, SIGN_KEYS);
          const m = readBytes(msg, 'msg');
          const ctx = readContext(options.context);
          const rnd = readEntropy(options.extraEntropy);
          const out = outgoing(transfer, [m, ctx, rnd, bytes]);
          const k = key(out);
          return call({ set, op: 'sign', args: [out.carry(m, false), taskOptions(options, out.carry, ctx, rnd)], key: k }, out);
        },
      }));
    };

    const verifier = async (publicKey) => {
      const pk = new U8(readLength(publicKey, pkLen, 'publicKey'));
      return prepare('verifier', pk, ({ key }) => ({
        async verify(sig, msg, opts) {
          const { options, transfer } = withOptions(opts, VERIFY_KEYS);
          const s = readBytes(sig, 'signature');
          const m = readBytes(msg, 'msg');
          const ctx = readContext(options.context);
          const out = outgoing(transfer, [s, m, ctx, pk]);
          const k = key(out);
          return call({ set, op: 'verify', args: [out.carry(s, false), out.carry(m, false), taskOptions(options, out.carry, ctx)], key: k }, out);
        },
      }));
    };

    const lengths = lengthsOf(set);
    return freeze({ lengths, keygen, getPublicKey, sign, verify, signer, verifier });
  };

  const close = () => {
    closing ??= (async () => {
      // Calls already made carry copies of their own.
      apply(setForEach, liveSecrets, [(bytes) => apply(u8Fill, bytes, [0])]);
      apply(setClear, liveSecrets, []);
      if (pending > 0) await new P((resolve) => (drained = resolve));
      await runner.close();
    })();
    return closing;
  };

  return freeze({
    size: runner.size,
    ml_dsa44: makeSet(44),
    ml_dsa65: makeSet(65),
    ml_dsa87: makeSet(87),
    close,
    [asyncDisposeSymbol]: close,
  });
}

/**
 * The runner of makePool over `size` workers of the package's own, for both
 * pools. Scheduling is deliberately plain: each call goes at once to the live
 * worker with the fewest calls in flight, whose message queue holds it.
 *
 * `start(events)` starts one worker (js/worker-thread.js, js/worker-web.js)
 * and returns { post(message, transfer), busy(on), terminate() (a promise,
 * or nothing) }, its own properties, read once. The worker answers each message { id, task } with
 * { id, value } or { id, error: { name, message } }, in the order it receives
 * them, and one it could not read with { lost: true } (which is then the
 * oldest call it holds). start's code hands each answer to events.answer; it
 * calls events.failed(error) when the worker can run nothing more: the calls
 * it holds fail with that error, and so do any sent to it later, which only
 * happens once every worker has failed (a failed worker is not replaced: the
 * pool goes on with the others); and events.unreadable(error) when an answer
 * could not be read: the calls the worker holds fail with it. busy(true) is
 * called when a worker that held no call gets one, busy(false) when it holds
 * none again.
 */
export function workerRunner(size, start, pool) {
  let nextCall = 1;
  const workers = list();
  // The calls in flight of worker `w`, by id: { done(result), fail(error) }.
  const held = (w) => apply(mapSize, w.calls, []);
  const release = (w, id) => {
    apply(mapDelete, w.calls, [id]);
    if (held(w) === 0) w.busy(false);
  };

  const spawn = () => {
    const w = { calls: new Map(), failed: undefined, post: undefined, busy: undefined, terminate: undefined };
    const failAll = (error) => {
      const calls = w.calls;
      w.calls = new Map();
      if (apply(mapSize, calls, []) > 0) w.busy(false);
      apply(mapForEach, calls, [(c) => c.fail(error)]);
    };
    const worker = start({
      // A result holds what a task made (a key pair, for keygen): its fields
      // are read only where they are its own.
      answer(data) {
        if (data === null || typeof data !== 'object') return;
        if (own(data, 'lost')) {
          const { value: id } = apply(mapIteratorNext, apply(mapKeys, w.calls, []), []);
          const c = apply(mapGet, w.calls, [id]);
          if (!c) return;
          release(w, id);
          c.fail(new Error('mldsa-simd/worker: a call could not be received by a worker'));
          return;
        }
        const id = own(data, 'id') ? data.id : undefined;
        const c = apply(mapGet, w.calls, [id]);
        if (!c) return;
        release(w, id);
        if (own(data, 'error')) c.fail(rebuild(data.error));
        else c.done(own(data, 'value') ? data.value : undefined);
      },
      failed(error) {
        w.failed ??= error;
        failAll(w.failed);
      },
      unreadable: failAll,
    });
    ({ post: w.post, busy: w.busy, terminate: w.terminate } = worker);
    return w;
  };
  try {
    for (let i = 0; i < size; i++) append(workers, spawn());
  } catch (e) {
    for (let i = 0; i < workers.length; i++) workers[i].terminate();
    throw e;
  }

  const post = (w, task, transfer, done, fail) => {
    if (w.failed) return fail(w.failed);
    const id = nextCall++;
    apply(mapSet, w.calls, [id, { done, fail }]);
    if (held(w) === 1) w.busy(true);
    try {
      w.post({ id, task }, transfer);
    } catch (e) {
      release(w, id);
      fail(e);
    }
  };

  const run = (task, transfer, done, fail) => {
    let best;
    for (let i = 0; i < workers.length; i++) {
      const w = workers[i];
      if (!w.failed && (best === undefined || held(w) < held(best))) best = w;
    }
    post(best ?? workers[0], task, transfer, done, fail);
  };

  /** Calls `each(w, settle)` for every worker; resolves once each has called settle. */
  const everyWorker = (each) =>
    new P((resolve) => {
      let left = workers.length;
      const settle = () => {
        if (--left === 0) resolve();
      };
      for (let i = 0; i < workers.length; i++) each(workers[i], settle);
    });

  return {
    size,
    run,
    forget: (key) => {
      for (let i = 0; i < workers.length; i++) post(workers[i], { op: 'forget', key }, [], noop, noop);
    },
    // Each worker wipes this pool's keys (its answer says it has, or it has
    // failed), then all end.
    close: async () => {
      await everyWorker((w, settle) => post(w, { op: 'forgetPool', key: { pool } }, [], settle, settle));
      await everyWorker((w, settle) => {
        const ended = w.terminate();
        if (ended) whenSettled(ended, settle, settle);
        else settle();
      });
    },
  };
}
