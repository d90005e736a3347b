/**
 * One task of mldsa-simd/worker, run inside a worker thread or Web Worker on
 * the package's synchronous API (./index.js, which re-checks every argument).
 * The two worker entries (js/worker-task.js for piscina, js/worker-web.js for
 * module Web Workers) only carry tasks and results to and from here.
 *
 * A task is a plain, structured-cloneable object:
 *
 *   { set: 44 | 65 | 87, op, args, key? }
 *
 *   op 'keygen'        args [seed?]                    -> { publicKey, secretKey }
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

const SETS = { 44: ml_dsa44, 65: ml_dsa65, 87: ml_dsa87 };
// Expanded keys per worker: a bound on memory, not on correctness (an evicted
// key is expanded again from the bytes its next task carries).
const CACHE_MAX = 64;
// Ids already freed: a task sent before free() may arrive after the forget,
// and must not leave a key behind in the cache.
const FORGOTTEN_MAX = 4096;

const cache = new Map(); // name -> { object, bytes, secret }
const forgotten = new Set();

const nameOf = (set, key) => `${String(key.pool)}\u0000${String(key.id)}\u0000${set}\u0000${key.kind}`;
const poolOf = (name) => name.slice(0, name.indexOf('\u0000'));
const isU8 = (x) => x instanceof Uint8Array;
// (Key bytes are public or the caller's own: no need for constant time. The
// pools put them first in a call's buffer, so they are 4-byte aligned.)
const sameBytes = (a, b) => {
  if (a.length !== b.length) return false;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0 && a.length % 4 === 0) {
    const x = new Uint32Array(a.buffer, a.byteOffset, a.length / 4);
    const y = new Uint32Array(b.buffer, b.byteOffset, b.length / 4);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

function drop(name) {
  const entry = cache.get(name);
  if (!entry) return;
  cache.delete(name);
  entry.object.free();
  if (entry.secret) entry.bytes.fill(0);
}

function remember(name) {
  forgotten.add(name);
  if (forgotten.size > FORGOTTEN_MAX) forgotten.delete(forgotten.values().next().value);
}

/** Drops the keys of `key.pool` (all of them, or the one with `key.id`); returns how many. */
export function forget(key) {
  if (key === null || typeof key !== 'object') throw new TypeError('key: expected { pool, id? }');
  const pool = String(key.pool);
  let n = 0;
  for (const name of [...cache.keys()]) {
    const [p, id] = name.split('\u0000');
    if (p === pool && (key.id === undefined || id === String(key.id))) {
      drop(name);
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
  if (hit && isU8(key.bytes) && sameBytes(hit.bytes, key.bytes)) {
    cache.delete(name);
    cache.set(name, hit);
    return { object: hit.object, temporary: false };
  }
  const object = secret ? api.signer(key.bytes) : api.verifier(key.bytes);
  if (forgotten.has(name)) return { object, temporary: true };
  drop(name);
  cache.set(name, { object, bytes: new Uint8Array(key.bytes), secret });
  if (cache.size > CACHE_MAX) drop(cache.keys().next().value);
  return { object, temporary: false };
}

// The buffers of a result that can move to the caller without a copy.
function transferables(value) {
  const out = [];
  for (const v of isU8(value) ? [value] : value && typeof value === 'object' ? Object.values(value) : [])
    if (isU8(v) && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && v.buffer instanceof ArrayBuffer) out.push(v.buffer);
  return out;
}

function compute(api, set, task, args) {
  const { op, key } = task;
  if (key !== undefined && op !== 'keygen' && op !== 'getPublicKey') {
    const { object, temporary } = prepared(set, api, key);
    try {
      if (op === 'prepare') return true;
      if (op === 'sign' && key.kind === 'signer') return object.sign(args[0], args[1]);
      if (op === 'verify' && key.kind === 'verifier') return object.verify(args[0], args[1], args[2]);
      throw new TypeError(`op: not an operation of a prepared ${key.kind === 'signer' ? 'signer' : 'verifier'} (expected ${key.kind === 'signer' ? '"sign"' : '"verify"'})`);
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
  if (!Array.isArray(tasks)) throw new TypeError('tasks: expected an array of tasks');
  const value = [];
  const transfer = [];
  for (const t of tasks) {
    try {
      if (t?.op === 'batch') throw new TypeError('op: a batch cannot hold a batch');
      const r = runTask(t);
      value.push({ value: r.value });
      transfer.push(...r.transfer);
    } catch (e) {
      value.push({ error: errorShape(e) });
    }
  }
  return { value, transfer };
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
  const args = Array.isArray(task.args) ? task.args : [];
  try {
    const value = compute(api, task.set, task, args);
    return { value, transfer: transferables(value) };
  } finally {
    wipeSecrets(task, args);
  }
}

// The secret inputs of a task, which are this worker's own copies.
function wipeSecrets(task, args) {
  const wipe = (x) => isU8(x) && x.fill(0);
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
