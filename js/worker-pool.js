/**
 * The main-thread side of mldsa-simd/worker, shared by the Node pool
 * (js/worker-node.js, piscina) and the Web Worker pool (js/worker-browser.js):
 * the per-set methods, which read and check every argument here with the
 * package's own readers (js/args.js: the same TypeError/RangeError as the
 * synchronous API, before anything travels) and send the worker plain bytes.
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
  apply, U8, taBuffer, taOffset, taLength, u8Fill, u8Set, PARAMS, SEED_BYTES,
  describe, readBytes, readLength, readOptions, readContext, readEntropy, readFlag,
} from './args.js';

const SIGN_KEYS = Object.freeze(['context', 'extraEntropy', 'transfer']);
const VERIFY_KEYS = Object.freeze(['context', 'transfer']);

// Calls made together (in one turn of the event loop) travel together: a few
// batches of at most this many tasks, at least one per worker when there are
// enough, so that a message round trip is paid per batch, not per call.
const MAX_BATCH = 32;

const rebuild = ({ name, message }) =>
  name === 'TypeError' ? new TypeError(message) : name === 'RangeError' ? new RangeError(message) : new Error(message);

const abByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const abResizable = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'resizable')?.get;
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
  if (!Number.isSafeInteger(o.size)) throw new TypeError(`size: expected a whole number, got ${typeof o.size === 'number' ? o.size : describe(o.size)}`);
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
const abTransfer = ArrayBuffer.prototype.transfer;
const clone = globalThis.structuredClone;
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
  const list = new Set();
  const secrets = [];
  const where = new Map();
  let size = 0;
  for (const v of views) {
    if (!v || where.has(v)) continue;
    const at = { buffer: apply(taBuffer, v, []), offset: apply(taOffset, v, []), length: apply(taLength, v, []), whole: transfer && wholeBuffer(v) };
    where.set(v, at);
    size += at.length;
  }
  const moved = new Map();
  let slab;
  let used = 0;
  const carry = (view, secret, own = false) => {
    const at = own ? undefined : where.get(view);
    if (at?.whole) {
      if (!moved.has(at.buffer)) moved.set(at.buffer, move(at.buffer));
      const buffer = moved.get(at.buffer);
      if (buffer) {
        list.add(buffer);
        const bytes = new U8(buffer);
        if (secret) secrets.push(bytes);
        return bytes;
      }
    }
    // A view into a buffer another argument of this call moved reads its bytes there.
    const from = at && moved.get(at.buffer) ? new U8(moved.get(at.buffer), at.offset, at.length) : view;
    const n = apply(taLength, from, []);
    slab ??= new U8(size);
    const copy = used + n <= slab.length ? slab.subarray(used, used + n) : new U8(n);
    apply(u8Set, copy, [from]);
    if (copy.buffer === slab.buffer) used += n;
    list.add(copy.buffer);
    if (secret) secrets.push(copy);
    return copy;
  };
  // After the call: bytes that travelled are detached (length 0, nothing to
  // fill); those that did not (a call refused before it was posted) are wiped.
  const wipe = () => {
    for (const s of secrets) if (apply(taLength, s, []) > 0) apply(u8Fill, s, [0]);
  };
  return { carry, transfer: () => [...list], wipe };
}

/**
 * The pool object over a `runner`: { size, run(task, transferList) -> Promise,
 * forget(key) (fire and forget), close() -> Promise (wipes the workers' keys
 * and ends them) }.
 */
export function makePool(runner, pool) {
  let closing;
  const inFlight = new Set();
  let nextId = 1;

  // The main-thread copies of the secret keys of signers not yet freed, wiped by close().
  const liveSecrets = new Set();
  const closedError = () => new Error('mldsa-simd/worker: the pool is closed');
  let queue = [];
  const flush = () => {
    const items = queue;
    queue = [];
    // Only the package's own buffers travel, none of which can be detached
    // here; should one be, its call is refused rather than posted, since a
    // worker that cannot read a message never answers it.
    const ready = [];
    for (const g of items) {
      if (g.transfer.every(attached)) ready.push(g);
      else g.reject(new Error('mldsa-simd/worker: internal error: a call\'s bytes were detached before they were sent'));
    }
    const per = Math.min(MAX_BATCH, Math.ceil(ready.length / runner.size));
    for (let i = 0; i < ready.length; i += per) {
      const group = ready.slice(i, i + per);
      const transfer = new Set(group.flatMap((g) => g.transfer));
      runner.run({ op: 'batch', tasks: group.map((g) => g.task) }, [...transfer]).then(
        (results) =>
          group.forEach((g, k) => {
            const r = results?.[k];
            if (r && 'value' in r) g.resolve(r.value);
            else g.reject(r?.error ? rebuild(r.error) : new Error('mldsa-simd/worker: internal error: no result for a call'));
          }),
        (e) => group.forEach((g) => g.reject(e)),
      );
    }
  };
  const call = async (task, out) => {
    if (closing) {
      out.wipe();
      throw closedError();
    }
    const p = new Promise((resolve, reject) => {
      queue.push({ task, transfer: out.transfer(), resolve, reject });
      if (queue.length === 1) queueMicrotask(flush);
    });
    inFlight.add(p);
    try {
      return await p;
    } finally {
      inFlight.delete(p);
      out.wipe();
    }
  };

  // Wipes the main-thread copy of a prepared key dropped without free(), and
  // tells the workers to forget it.
  const dropped =
    typeof FinalizationRegistry === 'function'
      ? new FinalizationRegistry(({ bytes, key }) => {
          apply(u8Fill, bytes, [0]);
          liveSecrets.delete(bytes);
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
      const o = {};
      if (options.context !== undefined) o.context = carry(ctx, false);
      if (rnd) o.extraEntropy = carry(rnd, true);
      else if (options.extraEntropy === false) o.extraEntropy = false;
      return o;
    };

    const keygen = async (seed) => {
      const view = seed === undefined ? undefined : readLength(seed, SEED_BYTES, 'seed');
      const out = outgoing(false, [view]);
      const args = view === undefined ? [] : [out.carry(view, true)];
      return call({ set, op: 'keygen', args }, out);
    };

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
      const object = Object.freeze({
        ...methods({
          key: (out) => {
            if (freed) throw new Error(`${kind}: used after free()`);
            return taskKey(out);
          },
        }),
        free() {
          if (freed) return;
          freed = true;
          dropped?.unregister(object);
          if (secret) apply(u8Fill, bytes, [0]);
          liveSecrets.delete(bytes);
          if (!closing) runner.forget(key);
        },
        [disposeSymbol]() {
          object.free();
        },
      });
      dropped?.register(object, { bytes: secret ? bytes : new U8(0), key }, object);
      if (secret) {
        if (closing) apply(u8Fill, bytes, [0]);
        else liveSecrets.add(bytes);
      }
      return object;
    };

    const signer = async (secretKey) => {
      const view = readBytes(secretKey, 'secretKey');
      if (view.length !== skLen && view.length !== SEED_BYTES)
        throw new RangeError(`secretKey: expected ${skLen} bytes (or a ${SEED_BYTES}-byte seed), got ${view.length}`);
      const bytes = new U8(view);
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

    const lengths = Object.freeze({ publicKey: pkLen, secretKey: skLen, signature: PARAMS[set].signature, seed: SEED_BYTES, signRand: 32 });
    return Object.freeze({ lengths, keygen, getPublicKey, sign, verify, signer, verifier });
  };

  const close = () => {
    closing ??= (async () => {
      // Calls already made carry copies of their own.
      for (const bytes of liveSecrets) apply(u8Fill, bytes, [0]);
      liveSecrets.clear();
      await Promise.allSettled([...inFlight]);
      await runner.close();
    })();
    return closing;
  };

  return Object.freeze({
    size: runner.size,
    ml_dsa44: makeSet(44),
    ml_dsa65: makeSet(65),
    ml_dsa87: makeSet(87),
    close,
    [asyncDisposeSymbol]: close,
  });
}
