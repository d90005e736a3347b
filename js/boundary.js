/**
 * The boundary between callers and the wasm instance: the instance (replaced
 * after a trap) and the calls into it, with the argument reading of
 * js/args.js re-exported. js/index.js (the noble-shaped API) builds on it
 * (the key formats, js/keys.js, are plain JavaScript over js/index.js).
 * @module
 */
// (The module's bytes first: bundlers emit them at the start of the bundle, where they gzip best.)
import { compileModule } from './wasm-module.js';
import { MU_STATE_BYTES } from '../build/tables.js';
import {
  apply,
  U8,
  taTag,
  taBuffer,
  taOffset,
  taLength,
  u8Fill,
  u8Set,
  isArray,
  freeze,
  isSafeInteger,
  FR,
  register,
  unregister,
  len,
  PARAMS,
  SEED_BYTES,
  RND_BYTES,
  MU_BYTES,
  MAX_CONTEXT,
  EMPTY,
  CHUNK,
  lengthsOf,
  describe,
  readBytes,
  readLength,
  readSeedOrSecretKey,
  checkIntact,
  readOptions,
  readContext,
  readEntropy,
  readFlag,
} from './args.js';

// ---------------------------------------------------------------- intrinsics
// (Those that the argument reading needs are in js/args.js.)
// Node, Bun and Deno define globalThis.crypto as a getter that loads their
// whole WebCrypto on first use (in Node 24 that is most of an import of this
// package); verification never draws, so the property is captured at load and
// read at the first draw, and getRandomValues taken from it then: a script
// that replaces crypto.getRandomValues after the import and before the first
// keygen or hedged signature is the one used (as it would be for any caller
// of the platform's function).
const cryptoProperty = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
let cryptoObject, getRandomValues;

// ---------------------------------------------------------------- the instance
// The module is compiled and instantiated once, at import (./wasm-module.js).
// Where that fails, the import still succeeds: a page whose
// Content-Security-Policy lacks 'wasm-unsafe-eval', or a platform with
// WebAssembly disabled (or none), must not lose every other script that
// imports this package. Then isSupported() is false, and every call that
// needs wasm throws unsupported(): `broken` stays set and replaceInstance()
// throws it. Nothing is compiled again: neither a policy nor a missing
// WebAssembly changes while the page or process lives. A module that
// compiled but could not be instantiated (memory refused, say) is only
// instantiated again at the first call, as after a failed call.
//
// The instance is made and read with built-ins captured at load: a script
// that replaced WebAssembly.Instance, or the getters of an instance's
// exports or a memory's buffer, would otherwise be handed the exports or the
// memory, which holds every live prepared signer's expanded key. The
// exports take and return numbers only (src/bindings/wasm/mod.rs), so no glue code
// stands between them and this file. The module imports one function, which
// wasm-bindgen's start code would call to set up its table of JavaScript
// values; nothing uses that table here and the start code is never run
// (scripts/build.mjs fails the build if the module imports anything else).
const WA = globalThis.WebAssembly;
const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const Instance = WA && WA.Instance;
const exportsGet = WA && getter(Instance.prototype, 'exports');
const memoryBufferGet = WA && getter(WA.Memory.prototype, 'buffer');
const IMPORTS = freeze({ __proto__: null, './mldsa_simd_bg.js': freeze({ __proto__: null, __wbindgen_init_externref_table() {} }) });
let exports; // the live instance's exports (frozen, with no prototype: read as they are)

/** The instance's memory, as it is now (it grows, and an ArrayBuffer with it). */
const memoryBuffer = () => apply(memoryBufferGet, exports.memory, []);

function instantiate() {
  exports = undefined;
  exports = apply(exportsGet, new Instance(compiled, IMPORTS), []);
}

/** Wipes the live instance's memory (after a failed call). */
function wipeMemory() {
  if (exports !== undefined) apply(u8Fill, new U8(memoryBuffer()), [0]);
}

let compiled, loadFailure;
let startFailed = false;
try {
  compiled = compileModule();
} catch (e) {
  loadFailure = { error: e, noWasm: typeof WA !== 'object' };
}
if (loadFailure === undefined) {
  try {
    instantiate();
  } catch {
    startFailed = true;
  }
}

/** Whether the package can run here: false where WebAssembly was refused at import. Never throws. */
const isSupported = () => loadFailure === undefined;

/** The error of a call on a platform where the package cannot run (the platform's error is its cause). */
function unsupported() {
  const why = loadFailure.noWasm
    ? "this JavaScript environment has no WebAssembly (it is disabled, as by a browser's security settings or Node's --jitless)"
    : 'the platform refused to compile its WebAssembly module (the cause says why). ' +
      "A Content-Security-Policy whose script-src lacks 'wasm-unsafe-eval' does this: add script-src 'wasm-unsafe-eval' to the page's policy";
  return new Error(`mldsa-simd cannot run here: ${why}`, { cause: loadFailure.error });
}

// A call that fails inside the instance — a trap, a JS stack overflow
// (RangeError) in wasm or in the code around it, any exception thrown
// through it — can stop Rust code half-way,
// with the heap, a RefCell or the shadow stack in any state and secrets in
// memory that no destructor reached. Such an instance never serves another
// call: `broken` is set before every call and cleared only when the call
// returned (with a result or an error code), which needs no stack, so a
// failure at any depth, even in the recovery below, leaves it set. After a
// failure the instance's memory is wiped and the instance replaced at once
// where the stack allows, else at the start of the next call. `generation`
// counts the instances: prepared keys made in one are made again in the next.
let generation = 0;
let broken = loadFailure !== undefined || startFailed;

/** Wipes the instance's memory (unless `wiped` says it just was) and makes a new instance. */
function replaceInstance(wiped = false) {
  if (loadFailure !== undefined) throw unsupported();
  if (!wiped) wipeMemory();
  instantiate();
  generation++;
  broken = false;
}

/** The generation of the instance that the next call runs in (replacing a broken one first). */
function liveGeneration() {
  if (broken) replaceInstance();
  return generation;
}

/**
 * What a failed call throws: the instance is wiped and replaced. Every step
 * may itself run out of stack: then `broken` stays set and the next call
 * replaces the instance.
 */
function afterFailure(e, wiped) {
  try {
    replaceInstance(wiped);
  } catch {
    return e;
  }
  return new Error(
    'mldsa-simd: the WebAssembly instance failed during this call and has been replaced; ' +
      'the call had no result (prepared keys are made again at their next use)',
    { cause: e },
  );
}

// ---------------------------------------------------------------- calls
// The exports take and return numbers only (src/bindings/wasm/mod.rs): each byte
// argument is copied into a block of linear memory from `alloc`, each output
// is a block of its exact length, copied out after the call, and every block
// is given back with `dealloc`, which wipes it (so no copy of a secret stays
// in memory). What an export refuses comes back as a code; the messages are
// here. The JavaScript layer checks every argument before a call, so a code
// other than MALFORMED_SECRET_KEY or SIGNING_FAILED means a bug of ours.

// What the message argument of sign, verify, signer_sign and verifier_verify
// is (src/bindings/wasm/mod.rs has the same numbers): the message M with its
// context, M′ as given, or μ.
const MESSAGE = 0;
const M_PRIME = 1;
const MU = 2;

// The messages of the error codes (src/bindings/wasm/mod.rs) that a caller's input
// can cause; the others (a wrong parameter set, length, message kind, handle
// or stream state) would be a bug of ours.
const REFUSALS = {
  __proto__: null,
  3: 'context: expected at most 255 bytes',
  4: 'secretKey: malformed (not an ML-DSA secret key of this parameter set)',
  5: 'signing failed after the maximum number of attempts',
};

// The blocks of the call under way: address, length, address, length, …
// (No call runs caller code while blocks are held, so calls never nest.)
const blocks = [];
let blockCount = 0;
let refused = 0;

/** A new block of `n` bytes (the export traps when the memory cannot grow). */
function block(n) {
  const at = exports.alloc(n) >>> 0;
  blocks[blockCount++] = at;
  blocks[blockCount++] = n;
  return at;
}

// A view of the whole memory, made again when the memory has grown (its old
// ArrayBuffer is then detached: length 0) or the instance was replaced.
let memoryView = new U8(0);
let viewOf;

/** A block holding a copy of `bytes` (a plain view): its address. */
function put(bytes) {
  const at = block(len(bytes));
  if (viewOf !== exports || len(memoryView) === 0) {
    memoryView = new U8(memoryBuffer());
    viewOf = exports;
  }
  apply(u8Set, memoryView, [bytes, at]);
  return at;
}

/** A copy of the `n` bytes at `at`, or nothing once the call was refused. */
function read(at, n) {
  return refused ? undefined : new U8(new U8(memoryBuffer(), at, n));
}

/** Notes a code an export returned (0: success). */
function check(code) {
  if (code !== 0) refused = code;
}

/**
 * Runs `body` (which puts arguments, calls exports and reads outputs) as one
 * call into the instance: a broken instance is replaced first; every block
 * is given back afterwards; a refusal becomes an Error.
 */
function call(body) {
  if (broken) replaceInstance();
  broken = true;
  refused = 0;
  blockCount = 0;
  let result;
  try {
    result = body();
    for (let i = 0; i < blockCount; i += 2) exports.dealloc(blocks[i], blocks[i + 1]);
  } catch (e) {
    // The memory is wiped here first, in as few frames as can be: a failure
    // deep in the stack leaves little room, and the copies of secrets the
    // call made must not outlive it (afterFailure then replaces the
    // instance without wiping it again; where it cannot, the next call
    // replaces it).
    let wiped = false;
    try {
      apply(u8Fill, new U8(apply(memoryBufferGet, exports.memory, [])), [0]);
      wiped = true;
    } catch {}
    throw afterFailure(e, wiped);
  }
  blockCount = 0;
  broken = false;
  if (refused !== 0) throw new Error(REFUSALS[refused] ?? `mldsa-simd: internal error (code ${refused} from wasm)`);
  return result;
}

/**
 * Calls the export `name` as every export is called (src/bindings/wasm/exports.rs):
 * with the numbers `head`, then the address and length of a copy of each
 * plain view of `ins`, then, when `outLen` is not 0, those of an output block
 * of `outLen` bytes. With an output, the export returns an error code and
 * this returns a copy of the output; without one, this returns what the
 * export returns, or what `then` makes of it.
 */
function invoke(name, head, ins, outLen = 0, then = undefined) {
  return call(() => {
    const args = [];
    let n = 0;
    for (let i = 0; i < head.length; i++) args[n++] = head[i];
    for (let i = 0; i < ins.length; i++) {
      args[n++] = put(ins[i]);
      args[n++] = len(ins[i]);
    }
    const out = outLen ? block(outLen) : 0;
    if (outLen) {
      args[n++] = out;
      args[n++] = outLen;
    }
    const ret = apply(exports[name], undefined, args);
    if (!outLen) return then ? then(ret) : ret;
    check(ret);
    return read(out, outLen);
  });
}

// The exports as the API uses them: plain views in, new arrays out. Those
// that make keys or sign are apart (`wasmSign`), so that mldsa-simd/verify,
// whose module does not have them, does not carry them either.
const wasm = {
  // (The calls per signature, written out: a list of arguments built per call costs 1–2% of a verify.)
  verify: (ps, pk, kind, m, sig, ctx) => call(() => exports.verify(ps, kind, put(pk), len(pk), put(m), len(m), put(sig), len(sig), put(ctx), len(ctx)) === 1),
  prepare_verifier: (ps, pk) => invoke('prepare_verifier', [ps], [pk], 0, handle),
  prepared_live: (h) => invoke('prepared_live', [h], []) !== 0,
  prepared_free: (h) => invoke('prepared_free', [h], []),
  prepared_stream_mu: (h) => invoke('prepared_stream_mu', [h], [], MU_STATE_BYTES),
  // 1 or 0, or minus an error code (no such verifier).
  verifier_verify: (h, kind, m, sig, ctx) =>
    call(() => {
      const r = exports.verifier_verify(h, kind, put(m), len(m), put(sig), len(sig), put(ctx), len(ctx));
      check(r < 0 ? -r : 0);
      return r === 1;
    }),
  stream_mu: (ps, key, secret) => invoke('stream_mu', [ps, secret ? 1 : 0], [key], MU_STATE_BYTES),
  /** Absorbs `data` into the stream whose state is `state` (the package's own array, updated in place). */
  stream_update: (state, data) => apply(u8Set, state, [invoke('stream_update', [], [state, data], len(state))]),
  stream_finish: (state) => invoke('stream_finish', [], [state], MU_BYTES),
  memory_bytes: () => invoke('memory_bytes', [], []) >>> 0,
  memory_in_use: () => invoke('memory_in_use', [], []) >>> 0,
};

const wasmSign = {
  /** The key pair of ξ, in new arrays (the export writes pk ‖ sk into one block). */
  keygen: (ps, seed) =>
    call(() => {
      const pkLen = PARAMS[ps].publicKey;
      const skLen = PARAMS[ps].secretKey;
      const out = block(pkLen + skLen);
      check(exports.keygen(ps, put(seed), len(seed), out, pkLen + skLen));
      return { publicKey: read(out, pkLen), secretKey: read(out + pkLen, skLen) };
    }),
  public_key: (ps, sk) => invoke('public_key', [ps], [sk], PARAMS[ps].publicKey),
  sign: (ps, sk, kind, m, ctx, rnd) =>
    call(() => {
      const n = PARAMS[ps].signature;
      const sig = block(n);
      check(exports.sign(ps, kind, put(sk), len(sk), put(m), len(m), put(ctx), len(ctx), put(rnd), len(rnd), sig, n));
      return read(sig, n);
    }),
  prepare_signer: (ps, key, fromSeed) => invoke('prepare_signer', [ps, fromSeed ? 1 : 0], [key], 0, handle),
  signer_sign: (ps, h, kind, m, ctx, rnd) =>
    call(() => {
      const n = PARAMS[ps].signature;
      const sig = block(n);
      check(exports.signer_sign(h, kind, put(m), len(m), put(ctx), len(ctx), put(rnd), len(rnd), sig, n));
      return read(sig, n);
    }),
};

/** A prepared key's handle, or the refusal its negative value codes. */
function handle(h) {
  check(h < 0 ? -h : 0);
  return h;
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
    if (apply(taTag, chunk, []) !== 'Uint8Array') throw new TypeError(`source: expected chunks of Uint8Array, got ${describe(chunk)}`);
    each(readBytes(chunk, 'source'));
  };
  const notSource = () => new TypeError(`source: expected a ReadableStream, an iterable of Uint8Array or a Blob, got ${describe(source)}`);
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

/** 32 fresh bytes from crypto.getRandomValues (the property as captured at load). */
function randomBytes(name) {
  if (cryptoObject === undefined) {
    cryptoObject = cryptoProperty ? (cryptoProperty.get ? apply(cryptoProperty.get, globalThis, []) : cryptoProperty.value) : globalThis.crypto;
    getRandomValues = cryptoObject?.getRandomValues;
  }
  if (typeof getRandomValues !== 'function') throw new Error(`${name}: no crypto.getRandomValues in this JavaScript environment`);
  const out = new U8(32);
  apply(getRandomValues, cryptoObject, [out]);
  return out;
}

/** The rnd of deterministic signing (FIPS 204 Algorithm 2, line 5): public, never written. */
const ZERO_RND = new U8(RND_BYTES);

/**
 * Runs `call(rnd)` with the signing randomness: the caller's bytes, 32 zero
 * bytes (deterministic), or 32 fresh random bytes (hedged), which are wiped
 * afterwards.
 */
function withRnd(options, given, call) {
  if (given !== undefined) return call(given);
  if (options.extraEntropy === false) return call(ZERO_RND);
  const rnd = randomBytes('extraEntropy');
  try {
    return call(rnd);
  } finally {
    apply(u8Fill, rnd, [0]);
  }
}

/** A view of bytes [start, end) of a plain view, without calling its methods. */
function part(bytes, start, end) {
  return new U8(apply(taBuffer, bytes, []), apply(taOffset, bytes, []) + start, end - start);
}

/**
 * Feeds `bytes` (a plain view) to a stream, in pieces of at most CHUNK: `state`
 * is the package's own buffer holding the stream's hash state (the stream_*
 * exports of src/bindings/wasm/stream.rs say why it lives here), updated in place.
 */
function absorb(state, bytes) {
  eachPiece(bytes, CHUNK, (piece) => wasm.stream_update(state, piece));
}

/** Calls `each(view)` with the pieces of `bytes` (a plain view), in order, each at most `size` bytes. */
function eachPiece(bytes, size, each) {
  const n = len(bytes);
  for (let i = 0; i < n; i += size) each(part(bytes, i, i + size < n ? i + size : n));
}

/** Feeds `parts` (plain views) to the stream of `state`, and returns its digest. */
function streamed(state, parts) {
  for (let i = 0; i < parts.length; i++) absorb(state, parts[i]);
  return wasm.stream_finish(state);
}

export {
  apply,
  U8,
  taTag,
  taBuffer,
  taOffset,
  taLength,
  u8Fill,
  u8Set,
  isArray,
  freeze,
  isSafeInteger,
  FR,
  register,
  unregister,
  len,
  wasm,
  wasmSign,
  MESSAGE,
  M_PRIME,
  MU,
  liveGeneration,
  isSupported,
  PARAMS,
  SEED_BYTES,
  RND_BYTES,
  MU_BYTES,
  MAX_CONTEXT,
  EMPTY,
  CHUNK,
  lengthsOf,
  describe,
  readBytes,
  readLength,
  readSeedOrSecretKey,
  checkIntact,
  readOptions,
  readContext,
  readEntropy,
  readFlag,
  randomBytes,
  withRnd,
  part,
  eachPiece,
  absorb,
  streamed,
  eachChunk,
};
