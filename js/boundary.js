/**
 * The boundary between callers and the wasm instance: the intrinsics captured
 * at load, the instance (replaced after a trap) and the calls into it, and the
 * reading of every argument once into plain bytes. js/index.js (the noble-shaped
 * API) and js/keys.js (key formats) build on it.
 * @module
 */
import * as glue from '../build/wasm/mldsa_simd.js';
import { compiled } from './wasm-module.js';

// ---------------------------------------------------------------- intrinsics
// Captured once, at load, so that what a caller's object (or a later change
// to a prototype) says about itself never reaches the checks: the getters of
// %TypedArray%.prototype read internal slots, which no subclass, Proxy or
// own property can fake.
const { apply } = Reflect;
const U8 = Uint8Array;
const typedArrayProto = Object.getPrototypeOf(U8.prototype);
const intrinsic = (name) => Object.getOwnPropertyDescriptor(typedArrayProto, name).get;
const taTag = intrinsic(Symbol.toStringTag);
const taBuffer = intrinsic('buffer');
const taOffset = intrinsic('byteOffset');
const taLength = intrinsic('length');
const u8Fill = U8.prototype.fill;
const u8Set = U8.prototype.set;
const isArray = Array.isArray;
const cryptoObject = globalThis.crypto;
const getRandomValues = cryptoObject?.getRandomValues;
const RuntimeError = WebAssembly.RuntimeError;

// ---------------------------------------------------------------- the instance
// The module is compiled once (./wasm-module.js); its instance is replaced if it ever traps (a
// trap can stop Rust code half-way, with the heap or a RefCell in any state),
// so that the next call runs on a fresh instance. `generation` counts the
// instances: prepared keys belong to the one they were made in.
glue.initSync({ module: compiled });
let generation = 0;

function replaceInstance() {
  generation++;
  glue.reinstantiate(compiled);
}

/**
 * A failed call into wasm: a trap (WebAssembly.RuntimeError), or a stack
 * overflow (RangeError) that may have stopped Rust code half-way, replaces the
 * instance; errors that Rust returned (plain Error) pass unchanged.
 */
function afterFailure(e) {
  if (!(e instanceof RuntimeError || e instanceof RangeError)) return e;
  replaceInstance();
  return new Error(
    'mldsa-simd: the WebAssembly instance failed during this call and has been replaced; ' +
      'the call had no result, and prepared keys made before must be made again',
    { cause: e },
  );
}

// The glue's exports that the API uses, each behind afterFailure: only these
// calls run wasm. (Named one by one so that bundlers drop the rest of the glue.)
const wasm = {};
for (const [name, fn] of Object.entries({
  keygen: glue.keygen,
  public_key: glue.public_key,
  sign: glue.sign,
  sign_internal: glue.sign_internal,
  sign_mu: glue.sign_mu,
  verify: glue.verify,
  verify_internal: glue.verify_internal,
  verify_mu: glue.verify_mu,
  memory_bytes: glue.memory_bytes,
  prepare_signer: glue.prepare_signer,
  prepare_verifier: glue.prepare_verifier,
  prepared_live: glue.prepared_live,
  prepared_free: glue.prepared_free,
  signer_sign: glue.signer_sign,
  signer_sign_mu: glue.signer_sign_mu,
  signer_stream_mu: glue.signer_stream_mu,
  verifier_verify: glue.verifier_verify,
  verifier_verify_mu: glue.verifier_verify_mu,
  verifier_stream_mu: glue.verifier_stream_mu,
  stream_mu_public: glue.stream_mu_public,
  stream_mu_secret: glue.stream_mu_secret,
  stream_prehash: glue.stream_prehash,
  stream_update: glue.stream_update,
  stream_finish: glue.stream_finish,
  prepare_signer_seed: glue.prepare_signer_seed,
  spki_decode: glue.spki_decode,
  spki_encode: glue.spki_encode,
  pkcs8_decode: glue.pkcs8_decode,
  pkcs8_encode: glue.pkcs8_encode,
  private_key: glue.private_key,
  pem_decode: glue.pem_decode,
  pem_encode: glue.pem_encode,
  base64url_decode: glue.base64url_decode,
  base64url_encode: glue.base64url_encode,
})) {
  wasm[name] = (...args) => {
    try {
      return fn(...args);
    } catch (e) {
      throw afterFailure(e);
    }
  };
}

// FIPS 204 Table 2 sizes, and the security strength of each category.
const PARAMS = {
  44: { publicKey: 1312, secretKey: 2560, signature: 2420, securityLevel: 128 },
  65: { publicKey: 1952, secretKey: 4032, signature: 3309, securityLevel: 192 },
  87: { publicKey: 2592, secretKey: 4896, signature: 4627, securityLevel: 256 },
};

const SEED_BYTES = 32;
const RND_BYTES = 32;
const MU_BYTES = 64;
const MAX_CONTEXT = 255;
const EMPTY = new U8(0);
// Messages longer than this never travel to wasm in one piece: μ (or PH(M))
// is computed over pieces of this size, so any message that fits in a JS
// Uint8Array can be signed and verified without growing wasm memory.
const CHUNK = 1 << 16;
// ---------------------------------------------------------------- reading arguments
//
// Every byte argument is read once, through the intrinsic getters, into a
// plain Uint8Array view of its real bytes, before anything is checked; only
// that view goes on (to the glue, which copies it into wasm memory). Like
// noble, any Uint8Array is accepted (Buffer, subarrays, views of a
// SharedArrayBuffer or of a resizable ArrayBuffer, one made in another realm),
// and nothing else: no other typed array, no plain array, no Proxy.

// What a wrong argument is, for the error message, without running any code
// of the argument's (no getters, no Proxy traps past Array.isArray).
const bufferKinds = [
  ['ArrayBuffer', ArrayBuffer],
  ['SharedArrayBuffer', globalThis.SharedArrayBuffer],
  ['DataView', DataView],
].flatMap(([name, C]) => (C ? [[name, Object.getOwnPropertyDescriptor(C.prototype, 'byteLength').get]] : []));
function describe(value) {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  const tag = apply(taTag, value, []);
  if (tag !== undefined) return tag;
  try {
    if (isArray(value)) return 'Array';
  } catch {} // a revoked Proxy
  for (const [name, byteLength] of bufferKinds) {
    try {
      apply(byteLength, value, []);
      return name;
    } catch {}
  }
  return 'object';
}

/** The real bytes of a Uint8Array, as a plain fixed-length view; TypeError for anything else. */
function readBytes(value, name) {
  if (apply(taTag, value, []) !== 'Uint8Array') throw new TypeError(`${name}: expected Uint8Array, got ${describe(value)}`);
  try {
    return new U8(apply(taBuffer, value, []), apply(taOffset, value, []), apply(taLength, value, []));
  } catch {
    // Only a detached buffer refuses a view of its (zero) length.
    throw new TypeError(`${name}: its ArrayBuffer is detached`);
  }
}

function readLength(value, length, name) {
  const bytes = readBytes(value, name);
  if (bytes.length !== length) throw new RangeError(`${name}: expected ${length} bytes, got ${bytes.length}`);
  return bytes;
}

/**
 * After code of the caller's has run (a pre-hash function): the views read
 * before must still see all their bytes. A view's buffer can be detached or
 * shrunk in the meantime, and a view out of bounds reads as empty.
 */
function checkIntact(bytes, length, name) {
  if (apply(taLength, bytes, []) !== length)
    throw new TypeError(`${name}: its ArrayBuffer was detached or resized during the call`);
}

/**
 * Options bag as noble reads it: undefined or a plain object; keys whose value
 * is undefined are ignored; any other key not in `allowed` throws, so that a
 * typo such as `{ ctx }` cannot silently drop the context. Each value is read
 * once, into a null-prototype snapshot, before any byte argument is read.
 */
function readOptions(options, allowed) {
  const out = Object.create(null);
  if (options === undefined) return out;
  if (options === null || typeof options !== 'object' || isArray(options) || apply(taTag, options, []) !== undefined)
    throw new TypeError(`options: expected a plain object or undefined, got ${describe(options)}`);
  const proto = Object.getPrototypeOf(options);
  if (proto !== Object.prototype && proto !== null)
    throw new TypeError(`options: expected a plain object, got ${describe(options)}`);
  for (const key of Object.keys(options)) {
    const value = options[key];
    if (value === undefined) continue;
    if (!allowed.includes(key))
      throw new TypeError(`options: unknown option "${key}"; expected one of: ${allowed.join(', ')}`);
    out[key] = value;
  }
  return out;
}

function readContext(context) {
  if (context === undefined) return EMPTY;
  const ctx = readBytes(context, 'context');
  if (ctx.length > MAX_CONTEXT)
    throw new RangeError(`context: expected at most ${MAX_CONTEXT} bytes, got ${ctx.length}`);
  return ctx;
}

// undefined: hedged; false: deterministic (32 zero bytes); bytes: exactly that rnd.
// Returns the rnd view, or undefined for hedged (drawn just before the call).
function readEntropy(extraEntropy) {
  if (extraEntropy === undefined || extraEntropy === false) return undefined;
  if (apply(taTag, extraEntropy, []) !== 'Uint8Array')
    throw new TypeError(`extraEntropy: expected Uint8Array or false, got ${describe(extraEntropy)}`);
  return readLength(extraEntropy, RND_BYTES, 'extraEntropy');
}

function readFlag(value, name) {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`${name}: expected boolean, got ${describe(value)}`);
  return value;
}

/**
 * Calls `each(view)` with each chunk of `source`, read into a plain view, one
 * chunk at a time (none is kept): a ReadableStream (read through its reader,
 * as not every browser's is async iterable), an async or sync iterable of
 * Uint8Array (a Node Readable, an async generator, an array), or a Blob or
 * File (its stream()). When a chunk is refused or `each` throws, the stream is
 * cancelled (an iterator is closed by for-await).
 */
async function eachChunk(source, each) {
  const read = (chunk) => {
    if (apply(taTag, chunk, []) !== 'Uint8Array')
      throw new TypeError(`source: expected chunks of Uint8Array, got ${describe(chunk)}`);
    each(readBytes(chunk, 'source'));
  };
  const notSource = () =>
    new TypeError(`source: expected a ReadableStream, an iterable of Uint8Array or a Blob, got ${describe(source)}`);
  // A typed array is iterable too, but of numbers.
  if (source === null || typeof source !== 'object' || apply(taTag, source, []) !== undefined) throw notSource();
  let stream = source;
  if (typeof source.getReader !== 'function') {
    if (typeof source[Symbol.asyncIterator] === 'function' || typeof source[Symbol.iterator] === 'function') {
      for await (const chunk of source) read(chunk);
      return;
    }
    if (typeof source.stream !== 'function') throw notSource();
    stream = source.stream();
  }
  const reader = stream.getReader();
  try {
    for (let r; !(r = await reader.read()).done; ) read(r.value);
  } catch (e) {
    reader.cancel(e).catch(() => {});
    throw e;
  } finally {
    reader.releaseLock();
  }
}

/** 32 fresh bytes from crypto.getRandomValues (as captured at load). */
function randomBytes(name) {
  if (typeof getRandomValues !== 'function')
    throw new Error(`${name}: no crypto.getRandomValues in this JavaScript environment`);
  const out = new U8(32);
  apply(getRandomValues, cryptoObject, [out]);
  return out;
}

/**
 * Runs `call(rnd)` with the signing randomness: the caller's bytes, 32 zero
 * bytes (deterministic), or 32 fresh random bytes (hedged); the package's own
 * buffer is wiped afterwards.
 */
function withRnd(options, given, call) {
  const own = given === undefined;
  const rnd = own ? (options.extraEntropy === false ? new U8(RND_BYTES) : randomBytes('extraEntropy')) : given;
  try {
    return call(rnd);
  } finally {
    if (own) apply(u8Fill, rnd, [0]);
  }
}

/** A view of bytes [start, end) of a plain view, without calling its methods. */
function part(bytes, start, end) {
  return new U8(apply(taBuffer, bytes, []), apply(taOffset, bytes, []) + start, end - start);
}

/**
 * Feeds `bytes` (a plain view) to a stream, in pieces of at most CHUNK: `state`
 * is the package's own buffer holding the stream's hash state (the stream_*
 * exports of src/wasm.rs say why it lives here), updated in place.
 */
function absorb(state, bytes) {
  for (let i = 0; i < bytes.length; i += CHUNK)
    if (!wasm.stream_update(state, part(bytes, i, Math.min(i + CHUNK, bytes.length))))
      throw new Error('mldsa-simd: internal error: not a stream state');
}

/** Feeds `parts` (plain views) to the stream of `state`, and returns its digest. */
function streamed(state, parts) {
  for (const bytes of parts) absorb(state, bytes);
  return wasm.stream_finish(state);
}

export {
  apply, U8, taTag, taBuffer, taOffset, taLength, u8Fill, u8Set, isArray,
  wasm, generation, PARAMS, SEED_BYTES, RND_BYTES, MU_BYTES, MAX_CONTEXT, EMPTY, CHUNK,
  describe, readBytes, readLength, checkIntact, readOptions, readContext, readEntropy, readFlag,
  randomBytes, withRnd, part, absorb, streamed, eachChunk,
};
