/**
 * The boundary between callers and the wasm instance: the instance (replaced
 * after a trap) and the calls into it, with the argument reading of
 * js/args.js re-exported. js/index.js (the noble-shaped API) builds on it
 * (the key formats, js/keys.js, are plain JavaScript over js/index.js).
 * @module
 */
import * as glue from '../build/wasm/mldsa_simd.js';
import { compileModule } from './wasm-module.js';
import {
  apply, U8, taTag, taBuffer, taOffset, taLength, u8Fill, u8Set, isArray, freeze, isSafeInteger, FR, register, unregister, len,
  PARAMS, SEED_BYTES, RND_BYTES, MU_BYTES, MAX_CONTEXT, EMPTY, CHUNK,
  describe, readBytes, readLength, readSeedOrSecretKey, checkIntact, readOptions, readContext, readEntropy, readFlag,
} from './args.js';
import { NIST_HASH_OID_PREFIX, PREHASHES } from '../build/tables.js';

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
// Node's (and Bun's, Deno's) way to its built-in modules, without an import
// (see nativeShake256); reading the function loads nothing.
const processObject = globalThis.process;
const getBuiltinModule = processObject?.getBuiltinModule;
const getPrototypeOf = Object.getPrototypeOf;

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
let compiled, loadFailure;
let startFailed = false;
try {
  compiled = compileModule();
} catch (e) {
  loadFailure = { error: e, noWasm: typeof globalThis.WebAssembly !== 'object' };
}
if (loadFailure === undefined) {
  try {
    glue.initSync({ module: compiled });
  } catch {
    startFailed = true;
  }
}

/** Whether the package can run here: false where WebAssembly was refused at import. Never throws. */
const isSupported = () => loadFailure === undefined;

/** The error of a call on a platform where the package cannot run (the platform's error is its cause). */
function unsupported() {
  const why = loadFailure.noWasm
    ? 'this JavaScript environment has no WebAssembly (it is disabled, as by a browser\'s security settings or Node\'s --jitless)'
    : 'the platform refused to compile its WebAssembly module (the cause says why). ' +
      "A Content-Security-Policy whose script-src lacks 'wasm-unsafe-eval' does this: add script-src 'wasm-unsafe-eval' to the page's policy";
  return new Error(`mldsa-simd cannot run here: ${why}`, { cause: loadFailure.error });
}

// A call that fails inside the instance — a trap, a JS stack overflow
// (RangeError) in wasm or in the glue around it, any exception thrown
// through it — can stop Rust code half-way,
// with the heap, a RefCell or the shadow stack in any state and secrets in
// memory that no destructor reached. Such an instance never serves another
// call: `broken` is set before every call and cleared only when the call
// returned (or Rust returned an error of its own), which needs no stack, so a
// failure at any depth, even in the recovery below, leaves it set. After a
// failure the instance's memory is wiped and the instance replaced at once
// where the stack allows, else at the start of the next call. `generation`
// counts the instances: prepared keys made in one are made again in the next.
let generation = 0;
let broken = loadFailure !== undefined || startFailed;

function replaceInstance() {
  if (loadFailure !== undefined) throw unsupported();
  glue.reinstantiate(compiled); // wipes the old instance's memory first (scripts/glue.mjs)
  generation++;
  broken = false;
}

/** Whether `e` is an error that Rust returned (not a failure of the call, nor the package unable to run). */
const fromRust = (e) => e === glue.rustError;

/** The generation of the instance that the next call runs in (replacing a broken one first). */
function liveGeneration() {
  if (broken) replaceInstance();
  return generation;
}

/**
 * What a failed call throws. Rust's own errors (which the glue throws after
 * the call returned, and marks: scripts/glue.mjs) leave the instance as it
 * was; anything else wipes and replaces it. Every step may itself run out of
 * stack: then `broken` stays set and the next call replaces the instance.
 */
function afterFailure(e) {
  if (fromRust(e)) {
    broken = false;
    return e;
  }
  try {
    glue.wipeMemory();
    replaceInstance();
  } catch {
    return e;
  }
  return new Error(
    'mldsa-simd: the WebAssembly instance failed during this call and has been replaced; ' +
      'the call had no result (prepared keys are made again at their next use)',
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
  memory_in_use: glue.memory_in_use,
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
})) {
  // (Rest parameters and Reflect.apply: no array iterator, which a script
  // could have replaced, sees the arguments.)
  wasm[name] = (...args) => {
    if (broken) replaceInstance();
    broken = true;
    let result;
    try {
      result = apply(fn, undefined, args);
    } catch (e) {
      throw afterFailure(e);
    }
    broken = false;
    return result;
  };
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

/** 32 fresh bytes from crypto.getRandomValues (the property as captured at load). */
function randomBytes(name) {
  if (cryptoObject === undefined) {
    cryptoObject = cryptoProperty ? (cryptoProperty.get ? apply(cryptoProperty.get, globalThis, []) : cryptoProperty.value) : globalThis.crypto;
    getRandomValues = cryptoObject?.getRandomValues;
  }
  if (typeof getRandomValues !== 'function')
    throw new Error(`${name}: no crypto.getRandomValues in this JavaScript environment`);
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
 * exports of src/wasm/stream.rs say why it lives here), updated in place.
 */
function absorb(state, bytes) {
  eachPiece(bytes, CHUNK, (piece) => {
    if (!wasm.stream_update(state, piece)) throw new Error('mldsa-simd: internal error: not a stream state');
  });
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

// ---------------------------------------------------------------- the platform's SHAKE256
// A long message costs one SHAKE256 stream: μ = H(tr ‖ M′, 64) (FIPS 204
// Algorithm 7 line 6, Algorithm 8 line 7), and there the one-lane Keccak-f
// of wasm is the bound. Where the platform has its own SHAKE256 (Node's
// node:crypto, OpenSSL's native code), the μ of a message longer than CHUNK,
// or given in pieces, is hashed there; nothing secret goes in (tr is a hash
// of the public key, copied out of the secret key's buffer first; M′ is the
// message). The hash is looked up at the first such message (an
// import of node:crypto at load would cost more than the package's own
// start), and used only if it gives, for a probe of three blocks, the digest
// our SHAKE256 gives; anything else (no node:crypto, a hash that throws or
// differs, a shared buffer it refuses) falls back to the wasm stream.

const SHAKE256_OID = U8.of(...NIST_HASH_OID_PREFIX, PREHASHES.find((e) => e[0] === 'shake256')[1]);
const NATIVE_PIECE = 1 << 30;
let native; // undefined: not looked up yet; null: none

/** A SHAKE256 of node:crypto with `head` absorbed: { update(view), digest() }. */
function nativeHash(n, head) {
  const h = apply(n.createHash, n.module, ['shake256', { outputLength: MU_BYTES }]);
  // node:crypto refuses a view of 2^31 bytes or more (ERR_OUT_OF_RANGE): pieces of at most 2^30.
  const update = (bytes) => eachPiece(bytes, NATIVE_PIECE, (piece) => apply(n.update, h, [piece]));
  update(new U8(head)); // a copy: the view may be of a secret key's buffer (tr = bytes 64..127)
  return {
    update,
    digest: () => {
      const d = apply(n.digest, h, []);
      if (apply(taTag, d, []) !== 'Uint8Array' || apply(taLength, d, []) !== MU_BYTES) throw new Error('mldsa-simd: node:crypto gave no SHAKE256 digest');
      return new U8(d);
    },
  };
}

// Looks the platform's SHAKE256 up and probes it; `native` is set only once
// the look-up has finished. What node:crypto throws means "none" (null); a
// failure of our own (the wasm digest of the probe, or a RangeError: the
// caller's stack ran out) propagates, and the look-up runs again next time.
function lookUpNative() {
  const probe = new U8(3 * 136 + 7);
  for (let i = 0; i < len(probe); i++) probe[i] = (i * 151 + 7) & 255;
  let found, theirs;
  try {
    if (typeof getBuiltinModule !== 'function') return (native = null);
    const module = apply(getBuiltinModule, processObject, ['node:crypto']);
    const createHash = module?.createHash;
    if (typeof createHash !== 'function') return (native = null);
    const proto = getPrototypeOf(apply(createHash, module, ['shake256', { outputLength: MU_BYTES }]));
    found = { __proto__: null, module, createHash, update: proto.update, digest: proto.digest };
    theirs = nativeHash(found, probe).digest();
  } catch (e) {
    if (e instanceof RangeError) throw e;
    return (native = null);
  }
  const ours = streamed(wasm.stream_prehash(SHAKE256_OID), [probe]);
  let differ = 0;
  for (let i = 0; i < MU_BYTES; i++) differ |= theirs[i] ^ ours[i];
  native = differ === 0 ? found : null;
}

/**
 * The platform's SHAKE256 (64-byte output) with `head` (a plain view)
 * absorbed, as { update(view), digest() }, or null where there is none (the
 * caller hashes in wasm).
 */
function nativeShake256Start(head) {
  if (native === undefined) lookUpNative();
  if (!native) return null;
  try {
    return nativeHash(native, head);
  } catch (e) {
    if (e instanceof RangeError) throw e;
    return null;
  }
}

/** SHAKE256(head ‖ parts…, 64 bytes) by the platform's own hash, or null (as nativeShake256Start). */
function nativeShake256(head, parts) {
  const h = nativeShake256Start(head);
  if (!h) return null;
  try {
    for (let i = 0; i < parts.length; i++) h.update(parts[i]);
    return h.digest();
  } catch (e) {
    if (e instanceof RangeError) throw e;
    return null;
  }
}

export {
  apply, U8, taTag, taBuffer, taOffset, taLength, u8Fill, u8Set, isArray, freeze, isSafeInteger, FR, register, unregister, len,
  wasm, liveGeneration, isSupported, fromRust, PARAMS, SEED_BYTES, RND_BYTES, MU_BYTES, MAX_CONTEXT, EMPTY, CHUNK,
  describe, readBytes, readLength, readSeedOrSecretKey, checkIntact, readOptions, readContext, readEntropy, readFlag,
  randomBytes, withRnd, part, absorb, streamed, eachChunk, nativeShake256, nativeShake256Start,
};
