/**
 * mldsa-simd: ML-DSA (FIPS 204) signatures from Rust compiled to WebAssembly
 * (simd128), with the API of `@noble/post-quantum/ml-dsa.js`.
 *
 * This file is only argument checks, conversions and calls into the wasm
 * exports; the algorithms live in the Rust crate (src/). The module is
 * instantiated synchronously at import from bytes inlined at build time
 * (LZMA-compressed, with a small decoder module: js/unpack.js), so there is no init
 * call for the user.
 * @module
 */
import * as glue from '../build/wasm/mldsa_simd.js';
import { UNPACK_BASE64, WASM_LZMA_BASE64, WASM_LZMA_PROPS, WASM_BYTES } from '../build/wasm_base64.js';
import { unpackWasm } from './unpack.js';

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

function decodeBase64(text) {
  if (typeof U8.fromBase64 === 'function') return U8.fromBase64(text);
  const binary = atob(text);
  const out = new U8(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

// ---------------------------------------------------------------- the instance
// The module is compiled once; its instance is replaced if it ever traps (a
// trap can stop Rust code half-way, with the heap or a RefCell in any state),
// so that the next call runs on a fresh instance. `generation` counts the
// instances: prepared keys belong to the one they were made in.
const compiled = new WebAssembly.Module(
  unpackWasm(decodeBase64(UNPACK_BASE64), WASM_LZMA_PROPS, decodeBase64(WASM_LZMA_BASE64), WASM_BYTES),
);
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

const SIGN_KEYS = Object.freeze(['context', 'extraEntropy']);
const VERIFY_KEYS = Object.freeze(['context']);
const INTERNAL_SIGN_KEYS = Object.freeze(['extraEntropy', 'externalMu']);
const INTERNAL_VERIFY_KEYS = Object.freeze(['externalMu']);

/** Hash names accepted by `prehash`; hashed inside wasm. */
const HASH_NAMES = Object.freeze([
  'sha224', 'sha256', 'sha384', 'sha512', 'sha512_224', 'sha512_256',
  'sha3_224', 'sha3_256', 'sha3_384', 'sha3_512', 'shake128', 'shake256',
]);
// The last OID arc of each of HASH_NAMES (2.16.840.1.101.3.4.2.x).
const HASH_ARCS = [4, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12];
// DER prefix of the NIST hash algorithm arc 2.16.840.1.101.3.4.2 (tag, length, 8 arc bytes).
const NIST_HASH_OID_PREFIX = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02];
// Output bytes of each hash function under that arc that FIPS 204 §5.4 admits as PH,
// by the OID's last byte: SHA2-256/384/512/224/512-224/512-256, SHA3-224/256/384/512,
// SHAKE128 (256-bit output) and SHAKE256 (512-bit output).
const PREHASH_OUTPUT_LEN = { 1: 32, 2: 48, 3: 64, 4: 28, 5: 28, 6: 32, 7: 28, 8: 32, 9: 48, 10: 64, 11: 32, 12: 64 };

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

/** Feeds `parts` (plain views) to stream `id`, just opened in wasm, and returns its digest. */
function streamed(id, parts) {
  for (const bytes of parts)
    for (let i = 0; i < bytes.length; i += CHUNK)
      if (!wasm.stream_update(id, part(bytes, i, Math.min(i + CHUNK, bytes.length))))
        throw new Error('mldsa-simd: internal error: the message stream was closed during the call');
  return wasm.stream_finish(id);
}

const mPrimeHeader = (ctx) => U8.of(0, ctx.length);

// A named hash is hashed inside wasm; a noble-hashes function is called here.
// Returns { oid, digest(msgView) -> plain bytes, callsOut }.
function resolveHash(hash) {
  if (typeof hash === 'string') {
    const index = HASH_NAMES.indexOf(hash);
    if (index < 0)
      throw new RangeError(`hash: unknown hash name "${hash}"; expected one of: ${HASH_NAMES.join(', ')}`);
    const digest = (msg) => streamed(wasm.stream_prehash(index), [msg]);
    return { oid: U8.of(...NIST_HASH_OID_PREFIX, HASH_ARCS[index]), digest, callsOut: false };
  }
  if (typeof hash !== 'function')
    throw new TypeError(`hash: expected a hash name or a hash function, got ${describe(hash)}`);
  const oidValue = hash.oid;
  const outputLen = hash.outputLen;
  const badOid = 'hash: expected a hash function whose .oid is a NIST hash OID (06 09 60 86 48 01 65 03 04 02 xx)';
  if (apply(taTag, oidValue, []) !== 'Uint8Array') throw new TypeError(badOid);
  const oid = new U8(readBytes(oidValue, 'hash.oid')); // a copy: read once, kept
  if (oid.length !== 11 || NIST_HASH_OID_PREFIX.some((b, i) => oid[i] !== b)) throw new TypeError(badOid);
  if (!Number.isSafeInteger(outputLen))
    throw new TypeError(`hash: expected .outputLen to be an integer, got ${String(outputLen)}`);
  const wantLen = PREHASH_OUTPUT_LEN[oid[10]];
  if (wantLen === undefined)
    throw new RangeError(`hash: OID 2.16.840.1.101.3.4.2.${oid[10]} is not a FIPS 204 pre-hash function`);
  if (outputLen !== wantLen)
    throw new RangeError(`hash: the function with OID 2.16.840.1.101.3.4.2.${oid[10]} must output ${wantLen} bytes for HashML-DSA, got outputLen ${outputLen}`);
  const digest = (msg) => {
    let out;
    try {
      out = hash(msg);
    } catch (e) {
      // The caller's function failed (for example on a buffer it detached
      // itself): say so, with its error as the cause.
      const Kind = e instanceof RangeError ? RangeError : TypeError;
      throw new Kind(`hash: the pre-hash function threw: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    const isU8 = apply(taTag, out, []) === 'Uint8Array';
    const bytes = isU8 ? readBytes(out, 'hash output') : undefined;
    if (!isU8 || bytes.length !== outputLen)
      throw new TypeError(`hash: expected the hash function to return ${outputLen} bytes, got ${isU8 ? bytes.length + ' bytes' : describe(out)}`);
    return bytes;
  };
  return { oid, digest, callsOut: true };
}

// M′ of HashML-DSA (FIPS 204 Algorithms 4 and 5): 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M).
function hashMPrime(ctx, oid, digest) {
  const out = new U8(2 + ctx.length + oid.length + digest.length);
  out[0] = 1;
  out[1] = ctx.length;
  apply(u8Set, out, [ctx, 2]);
  apply(u8Set, out, [oid, 2 + ctx.length]);
  apply(u8Set, out, [digest, 2 + ctx.length + oid.length]);
  return out;
}

// The argument reads shared by every sign and verify of the pure and
// pre-hash interfaces, in noble's order: options, then the bytes.
function signArgs(msg, opts) {
  const options = readOptions(opts, SIGN_KEYS);
  const m = readBytes(msg, 'msg');
  return { options, msg: m, ctx: readContext(options.context), rnd: readEntropy(options.extraEntropy) };
}

function verifyArgs(sig, msg, opts) {
  const options = readOptions(opts, VERIFY_KEYS);
  return { sig: readBytes(sig, 'signature'), msg: readBytes(msg, 'msg'), ctx: readContext(options.context) };
}

// ---------------------------------------------------------------- API

function makeMlDsa(ps) {
  const { publicKey: pkLen, secretKey: skLen, signature: sigLen, securityLevel } = PARAMS[ps];
  const lengths = Object.freeze({
    publicKey: pkLen,
    secretKey: skLen,
    signature: sigLen,
    seed: SEED_BYTES,
    signRand: RND_BYTES,
  });

  const keygen = (seed) => {
    const own = seed === undefined;
    const xi = own ? randomBytes('seed') : readLength(seed, SEED_BYTES, 'seed');
    let both;
    try {
      both = wasm.keygen(ps, xi);
    } finally {
      if (own) apply(u8Fill, xi, [0]);
    }
    const publicKey = both.slice(0, pkLen);
    const secretKey = both.slice(pkLen, pkLen + skLen);
    both.fill(0);
    return { publicKey, secretKey };
  };

  const getPublicKey = (secretKey) => wasm.public_key(ps, readLength(secretKey, skLen, 'secretKey'));

  // M′ = 0 ‖ |ctx| ‖ ctx ‖ M signed with a one-shot key; large messages via μ.
  const signPure = (msg, sk, ctx, rnd) => {
    if (msg.length <= CHUNK) return wasm.sign(ps, sk, msg, ctx, rnd);
    const mu = streamed(wasm.stream_mu_secret(ps, sk), [mPrimeHeader(ctx), ctx, msg]);
    return wasm.sign_mu(ps, sk, mu, rnd);
  };

  const sign = (msg, secretKey, opts) => {
    const a = signArgs(msg, opts);
    const sk = readLength(secretKey, skLen, 'secretKey');
    return withRnd(a.options, a.rnd, (rnd) => signPure(a.msg, sk, a.ctx, rnd));
  };

  const verifyPure = (sig, msg, pk, ctx) => {
    if (sig.length !== sigLen) return false;
    if (msg.length <= CHUNK) return wasm.verify(ps, pk, sig, msg, ctx);
    const mu = streamed(wasm.stream_mu_public(ps, pk), [mPrimeHeader(ctx), ctx, msg]);
    return wasm.verify_mu(ps, pk, sig, mu);
  };

  const verify = (sig, msg, publicKey, opts) => {
    const a = verifyArgs(sig, msg, opts);
    return verifyPure(a.sig, a.msg, readLength(publicKey, pkLen, 'publicKey'), a.ctx);
  };

  // What the ML-DSA, HashML-DSA and internal objects share, as in noble.
  const keyOps = { lengths, keygen, getPublicKey };

  // The internal interface: M′ as given, or an external μ.
  const internalArgs = (opts, allowed) => {
    const options = readOptions(opts, allowed);
    const externalMu = readFlag(options.externalMu, 'externalMu');
    return { options, externalMu };
  };
  const readMOrMu = (mOrMu, externalMu) => (externalMu ? readLength(mOrMu, MU_BYTES, 'mu') : readBytes(mOrMu, 'msg'));

  const internal = Object.freeze({
    info: Object.freeze({ type: 'internal-ml-dsa' }),
    ...keyOps,
    sign: (mOrMu, secretKey, opts) => {
      const { options, externalMu } = internalArgs(opts, INTERNAL_SIGN_KEYS);
      const m = readMOrMu(mOrMu, externalMu);
      const given = readEntropy(options.extraEntropy);
      const sk = readLength(secretKey, skLen, 'secretKey');
      return withRnd(options, given, (rnd) => {
        if (externalMu) return wasm.sign_mu(ps, sk, m, rnd);
        if (m.length <= CHUNK) return wasm.sign_internal(ps, sk, m, rnd);
        return wasm.sign_mu(ps, sk, streamed(wasm.stream_mu_secret(ps, sk), [m]), rnd);
      });
    },
    verify: (sig, mOrMu, publicKey, opts) => {
      const { externalMu } = internalArgs(opts, INTERNAL_VERIFY_KEYS);
      const s = readBytes(sig, 'signature');
      const m = readMOrMu(mOrMu, externalMu);
      const pk = readLength(publicKey, pkLen, 'publicKey');
      if (s.length !== sigLen) return false;
      if (externalMu) return wasm.verify_mu(ps, pk, s, m);
      if (m.length <= CHUNK) return wasm.verify_internal(ps, pk, s, m);
      return wasm.verify_mu(ps, pk, s, streamed(wasm.stream_mu_public(ps, pk), [m]));
    },
  });

  const prehash = (hash) => {
    const { oid, digest, callsOut } = resolveHash(hash);
    // PH(M), then M′. A caller's hash function runs code of its own: the views
    // read before it must still be whole afterwards.
    const mPrime = (msg, ctx, others) => {
      const d = digest(msg);
      if (callsOut) for (const [bytes, length, name] of others) checkIntact(bytes, length, name);
      return hashMPrime(ctx, oid, d);
    };
    return Object.freeze({
      info: Object.freeze({ type: 'hashml-dsa' }),
      securityLevel,
      ...keyOps,
      sign: (msg, secretKey, opts) => {
        const a = signArgs(msg, opts);
        const sk = readLength(secretKey, skLen, 'secretKey');
        const views = [[sk, skLen, 'secretKey'], [a.ctx, a.ctx.length, 'context']];
        if (a.rnd) views.push([a.rnd, RND_BYTES, 'extraEntropy']);
        return withRnd(a.options, a.rnd, (rnd) => wasm.sign_internal(ps, sk, mPrime(a.msg, a.ctx, views), rnd));
      },
      verify: (sig, msg, publicKey, opts) => {
        const a = verifyArgs(sig, msg, opts);
        const pk = readLength(publicKey, pkLen, 'publicKey');
        if (a.sig.length !== sigLen) return false;
        const views = [[pk, pkLen, 'publicKey'], [a.sig, sigLen, 'signature'], [a.ctx, a.ctx.length, 'context']];
        return wasm.verify_internal(ps, pk, a.sig, mPrime(a.msg, a.ctx, views));
      },
    });
  };

  // Prepared keys: the key bytes stay here, the expanded key in a slot of the
  // instance's bounded pool (src/wasm.rs), made again from the bytes when the
  // pool has evicted it.
  const signer = (secretKey) => {
    const key = prepared('signer', new U8(readLength(secretKey, skLen, 'secretKey')), true, (sk) =>
      wasm.prepare_signer(ps, sk),
    );
    return key.wrap({
      sign(msg, opts) {
        const a = signArgs(msg, opts);
        const h = key.handle();
        return withRnd(a.options, a.rnd, (rnd) => {
          if (a.msg.length <= CHUNK) return wasm.signer_sign(h, a.msg, a.ctx, rnd);
          const mu = streamed(wasm.signer_stream_mu(h), [mPrimeHeader(a.ctx), a.ctx, a.msg]);
          return wasm.signer_sign_mu(h, mu, rnd);
        });
      },
    });
  };

  const verifier = (publicKey) => {
    const key = prepared('verifier', new U8(readLength(publicKey, pkLen, 'publicKey')), false, (pk) =>
      wasm.prepare_verifier(ps, pk),
    );
    return key.wrap({
      verify(sig, msg, opts) {
        const a = verifyArgs(sig, msg, opts);
        const h = key.handle();
        if (a.sig.length !== sigLen) return false;
        if (a.msg.length <= CHUNK) return wasm.verifier_verify(h, a.sig, a.msg, a.ctx);
        const mu = streamed(wasm.verifier_stream_mu(h), [mPrimeHeader(a.ctx), a.ctx, a.msg]);
        return wasm.verifier_verify_mu(h, a.sig, mu);
      },
    });
  };

  return Object.freeze({
    info: Object.freeze({ type: 'ml-dsa' }),
    internal,
    securityLevel,
    ...keyOps,
    sign,
    verify,
    prehash,
    signer,
    verifier,
  });
}

// What a prepared key's finalizer needs: its handle in the instance of its
// generation, and its key bytes, wiped when it is dropped (secret keys).
// Frees the wasm slot of keys dropped without free(); the pool's bound holds
// either way.
const finalizer =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((state) => {
        if (state.secret) apply(u8Fill, state.bytes, [0]);
        if (state.generation === generation) wasm.prepared_free(state.handle);
      })
    : undefined;
const disposeSymbol = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('Symbol.dispose');

/**
 * A prepared key: `bytes` (the package's own copy of the key), expanded into
 * the pool by `make(bytes)`, which returns a handle. `handle()` gives a live
 * handle, expanding the key again if the pool evicted it, or throws after
 * free() or after the instance was replaced; `wrap(methods)` adds free() and
 * [Symbol.dispose] and registers the object with the finalizer.
 */
function prepared(what, bytes, secret, make) {
  let first;
  try {
    first = make(bytes);
  } catch (e) {
    if (secret) apply(u8Fill, bytes, [0]);
    throw e;
  }
  const state = { bytes, secret, generation, handle: first, freed: false };
  const handle = () => {
    if (state.freed) throw new Error(`${what}: used after free()`);
    if (state.generation !== generation)
      throw new Error(`${what}: the WebAssembly instance was replaced after a failure; make the ${what} again`);
    if (!wasm.prepared_live(state.handle)) state.handle = make(bytes);
    return state.handle;
  };
  const wrap = (methods) => {
    const object = Object.freeze({
      ...methods,
      free() {
        if (state.freed) return;
        state.freed = true;
        finalizer?.unregister(object);
        if (secret) apply(u8Fill, bytes, [0]);
        if (state.generation === generation) wasm.prepared_free(state.handle);
      },
      [disposeSymbol]() {
        object.free();
      },
    });
    finalizer?.register(object, state, object);
    return object;
  };
  return { handle, wrap };
}

/** ML-DSA-44 (NIST security category 2). */
export const ml_dsa44 = /* @__PURE__ */ makeMlDsa(44);
/** ML-DSA-65 (NIST security category 3). */
export const ml_dsa65 = /* @__PURE__ */ makeMlDsa(65);
/** ML-DSA-87 (NIST security category 5). */
export const ml_dsa87 = /* @__PURE__ */ makeMlDsa(87);

/** Bytes of WebAssembly linear memory the shared instance holds (diagnostics; it never shrinks). */
export const wasmMemoryBytes = () => wasm.memory_bytes();
