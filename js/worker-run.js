/**
 * One task of mldsa-simd/worker, run inside a worker thread or Web Worker on
 * the package's synchronous API (./index.js, which re-checks every argument).
 * The worker entries (js/worker-thread.js for worker_threads, js/worker-web.js
 * for module Web Workers, js/worker-task.js for a piscina pool of a program's
 * own) only carry tasks and results to and from here.
 *
 * A task is a plain, structured-cloneable object:
 *
 *   { set: 44 | 65 | 87, op, args, key? }
 *
 *   op 'keygen'        args [seed?]                    -> { publicKey, secretKey, seed }
 *   op 'getPublicKey'  args [secretKey]                -> Uint8Array
 *   op 'sign'          args [msg, secretKey, options?] -> Uint8Array
 *   op 'verify'        args [sig, msg, publicKey, options?] -> boolean
 *   with a prepared key, key = { pool, id, kind: 'signer' | 'verifier', bytes }:
 *   op 'prepare'       args []                         -> true (checks and caches the key)
 *   op 'sign'          args [msg, options?]            -> Uint8Array
 *   op 'verify'        args [sig, msg, options?]       -> boolean
 *   op 'forget'        key { pool, id }: drops that key here (after its free())
 *   op 'forgetPool'    key { pool }: drops every key of that pool (at close())
 *   op 'batch'         tasks [task, ...] -> [{ value } | { error: { name, message } }, ...]
 *                      (the pools send the calls made together as one batch, so a
 *                      short verify does not pay a message round trip of its own)
 *
 * A prepared key travels with every task that uses it (any worker may run the
 * task), and each worker keeps the expanded key it made, under (pool, id), so
 * repeated calls under one key expand it once per worker. The cache is bounded;
 * the bytes are compared on every hit, so an id reused for another key cannot
 * pick up the wrong one.
 *
 * Secrets (a seed, a secret key, signing randomness, a signer's key bytes)
 * arrive as the worker's own copies; they are wiped once the task is done.
 * @module
 */
import { ml_dsa44, ml_dsa65, ml_dsa87 } from './index.js';
import { keyCache } from './key-cache.js';

const SETS = { 44: ml_dsa44, 65: ml_dsa65, 87: ml_dsa87 };
// Ids already freed: a task sent before free() may arrive after the forget,
// and must not leave a key behind in the cache.
const FORGOTTEN_MAX = 4096;

// ---------------------------------------------------------------- intrinsics
// This module runs in a worker's own realm, out of reach of the scripts of the
// page or of the calling thread (only code loaded into the same worker, such
// as a program's own piscina tasks sharing a pool with these, could replace
// its built-ins). So it takes the calling side's precautions (js/worker-pool.js)
// only where they are cheap: secrets are measured, compared and wiped, and
// the cache of keys read and written, through built-ins captured at load, and
// tasks and results are indexed rather than iterated, and gathered in lists
// with no prototype rather than pushed.
const { apply } = Reflect;
const U8 = Uint8Array;
const typedArrayGetter = (name) => Object.getOwnPropertyDescriptor(Object.getPrototypeOf(U8.prototype), name).get;
const taTag = typedArrayGetter(Symbol.toStringTag);
const taBuffer = typedArrayGetter('buffer');
const taOffset = typedArrayGetter('byteOffset');
const taLength = typedArrayGetter('length');
const abByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const u8Fill = U8.prototype.fill;
const isArray = Array.isArray;
const len = (view) => apply(taLength, view, []);
const arraySlice = Array.prototype.slice;
const list = () => Object.setPrototypeOf([], null);
const toArray = (l) => apply(arraySlice, l, []);
const append = (l, value) => {
  l[l.length] = value;
};

// Prepared keys by name, under the package's one cache policy (./key-cache.js):
// a bound on memory, not on correctness (an evicted key is expanded again
// from the bytes its next task carries).
const cache = keyCache();
const forgotten = new Set();

const nameOf = (set, key) => `${String(key.pool)}\u0000${String(key.id)}\u0000${set}\u0000${key.kind}`;
const poolOf = (name) => name.slice(0, name.indexOf('\u0000'));
const isU8 = (x) => apply(taTag, x, []) === 'Uint8Array';
// In constant time: a cached signer's key is compared with the bytes a task
// brings under the same name, and whoever can post tasks must not learn the
// cached key from how long a refusal takes. (The pools put key bytes first in
// a call's buffer, so they are 4-byte aligned; lengths are public.)
const sameBytes = (a, b) => {
  const n = len(a);
  if (n !== len(b)) return false;
  const offsetA = apply(taOffset, a, []);
  const offsetB = apply(taOffset, b, []);
  let differ = 0;
  if (offsetA % 4 === 0 && offsetB % 4 === 0 && n % 4 === 0) {
    const x = new Uint32Array(apply(taBuffer, a, []), offsetA, n / 4);
    const y = new Uint32Array(apply(taBuffer, b, []), offsetB, n / 4);
    for (let i = 0; i < n / 4; i++) differ |= x[i] ^ y[i];
  } else {
    for (let i = 0; i < n; i++) differ |= a[i] ^ b[i];
  }
  return differ === 0;
};

function remember(name) {
  forgotten.add(name);
  if (forgotten.size > FORGOTTEN_MAX) forgotten.delete(forgotten.values().next().value);
}

/** Drops the keys of `key.pool` (all of them, or the one with `key.id`); returns how many. */
export function forget(key) {
  if (key === null || typeof key !== 'object') throw new TypeError('key: expected { pool, id? }');
  const pool = String(key.pool);
  let n = 0;
  for (const name of cache.names()) {
    const [p, id] = name.split('\u0000');
    if (p === pool && (key.id === undefined || id === String(key.id))) {
      cache.drop(name);
      n++;
    }
  }
  if (key.id !== undefined) for (const set of [44, 65, 87]) for (const kind of ['signer', 'verifier']) remember(nameOf(set, { ...key, kind }));
  else for (const name of [...forgotten]) if (poolOf(name) === pool) forgotten.delete(name);
  return n;
}

// The prepared object for `key`, from the cache or made now; `temporary`
// objects (for a key already forgotten) are freed after the task.
function prepared(set, api, key) {
  if (key === null || typeof key !== 'object' || (key.kind !== 'signer' && key.kind !== 'verifier'))
    throw new TypeError("key: expected { pool, id, kind: 'signer' | 'verifier', bytes }");
  const name = nameOf(set, key);
  const secret = key.kind === 'signer';
  const hit = cache.get(name);
  if (hit && isU8(key.bytes) && sameBytes(hit.bytes, key.bytes)) return { object: hit.object, temporary: false };
  const object = secret ? api.signer(key.bytes) : api.verifier(key.bytes);
  if (forgotten.has(name)) return { object, temporary: true };
  cache.put(name, { object, bytes: new U8(key.bytes), secret });
  return { object, temporary: false };
}

// The buffers of a result (bytes, or a key pair) that can move to the caller without a copy.
function transferables(value) {
  const out = list();
  const add = (v) => {
    if (!isU8(v)) return;
    const buffer = apply(taBuffer, v, []);
    try {
      if (apply(taOffset, v, []) === 0 && len(v) === apply(abByteLength, buffer, [])) append(out, buffer);
    } catch {} // a SharedArrayBuffer's bytes are shared, not moved
  };
  if (isU8(value)) add(value);
  else if (value !== null && typeof value === 'object') {
    add(value.publicKey);
    add(value.secretKey);
    add(value.seed); // keygen's seed: moved too, so that no copy stays in the worker
  }
  return toArray(out);
}

function compute(api, set, task, args) {
  const { op, key } = task;
  if (key !== undefined && op !== 'keygen' && op !== 'getPublicKey') {
    const { object, temporary } = prepared(set, api, key);
    try {
      if (op === 'prepare') return true;
      if (op === 'sign' && key.kind === 'signer') return object.sign(args[0], args[1]);
      if (op === 'verify' && key.kind === 'verifier') return object.verify(args[0], args[1], args[2]);
      throw new TypeError(
        `op: not an operation of a prepared ${key.kind === 'signer' ? 'signer' : 'verifier'} (expected ${key.kind === 'signer' ? '"sign"' : '"verify"'})`,
      );
    } finally {
      if (temporary) object.free();
    }
  }
  switch (op) {
    case 'keygen':
      return api.keygen(args[0]);
    case 'getPublicKey':
      return api.getPublicKey(args[0]);
    case 'sign':
      return api.sign(args[0], args[1], args[2]);
    case 'verify':
      return api.verify(args[0], args[1], args[2], args[3]);
    default:
      throw new TypeError('op: expected "keygen", "getPublicKey", "sign" or "verify"');
  }
}

/** A thrown value as a plain object, which the calling side turns back into its class. */
export function errorShape(e) {
  const name = e instanceof TypeError ? 'TypeError' : e instanceof RangeError ? 'RangeError' : 'Error';
  return { name, message: e instanceof Error ? e.message : String(e) };
}

function runBatch(tasks) {
  if (!isArray(tasks)) throw new TypeError('tasks: expected an array of tasks');
  const value = list();
  const transfer = list();
  for (let i = 0; i < tasks.length; i++) {
    const t = tasks[i];
    try {
      if (t?.op === 'batch') throw new TypeError('op: a batch cannot hold a batch');
      const r = runTask(t);
      append(value, { value: r.value });
      for (let j = 0; j < r.transfer.length; j++) append(transfer, r.transfer[j]);
    } catch (e) {
      append(value, { error: errorShape(e) });
    }
  }
  return { value: toArray(value), transfer: toArray(transfer) };
}

/**
 * Runs one task; returns { value, transfer } (the result and the buffers that
 * can be transferred with it), or throws the API's TypeError/RangeError/Error.
 */
export function runTask(task) {
  if (task === null || typeof task !== 'object') throw new TypeError('task: expected { set, op, args, key? }');
  if (task.op === 'batch') return runBatch(task.tasks);
  if (task.op === 'forget' || task.op === 'forgetPool') {
    const value = forget(task.op === 'forget' ? task.key : { pool: task.key?.pool });
    return { value, transfer: [] };
  }
  const api = SETS[task.set];
  if (!api) throw new RangeError('set: expected 44, 65 or 87');
  const args = isArray(task.args) ? task.args : [];
  try {
    const value = compute(api, task.set, task, args);
    return { value, transfer: transferables(value) };
  } finally {
    wipeSecrets(task, args);
  }
}

// The secret inputs of a task, which are this worker's own copies.
function wipeSecrets(task, args) {
  const wipe = (x) => isU8(x) && apply(u8Fill, x, [0]);
  const entropy = (opts) => opts !== null && typeof opts === 'object' && wipe(opts.extraEntropy);
  if (task.key?.kind === 'signer') wipe(task.key.bytes);
  if (task.key !== undefined) {
    if (task.op === 'sign') entropy(args[1]);
    return;
  }
  if (task.op === 'keygen' || task.op === 'getPublicKey') wipe(args[0]);
  if (task.op === 'sign') {
    wipe(args[1]);
    entropy(args[2]);
  }
}
