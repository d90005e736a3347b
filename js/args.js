/**
 * Reading the caller's arguments, with no WebAssembly: the intrinsics captured
 * at load, the FIPS 204 sizes, and the functions that read every argument once
 * into plain bytes or throw the TypeError/RangeError that names it. Shared by
 * the package (js/boundary.js) and by the main-thread side of mldsa-simd/worker,
 * which refuses a bad argument with the same error before anything travels.
 * @module
 */
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

export {
  apply, U8, taTag, taBuffer, taOffset, taLength, u8Fill, u8Set, isArray,
  PARAMS, SEED_BYTES, RND_BYTES, MU_BYTES, MAX_CONTEXT, EMPTY, CHUNK,
  describe, readBytes, readLength, checkIntact, readOptions, readContext, readEntropy, readFlag,
};
