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
import * as wasm from '../build/wasm/mldsa_simd.js';
import { UNPACK_BASE64, WASM_LZMA_BASE64, WASM_LZMA_PROPS, WASM_BYTES } from '../build/wasm_base64.js';
import { unpackWasm } from './unpack.js';

function decodeBase64(text) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

wasm.initSync({ module: unpackWasm(decodeBase64(UNPACK_BASE64), WASM_LZMA_PROPS, decodeBase64(WASM_LZMA_BASE64), WASM_BYTES) });

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
const EMPTY = new Uint8Array(0);
// Stands for "the key is inside the prepared signer" where a secret key goes.
const PREPARED = Symbol('prepared key');
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

// ---------------------------------------------------------------- checks

// Like noble: any Uint8Array (Buffer and subarrays included), also one made in
// another realm (iframe, vm context), but no other typed array, no plain array.
// The %TypedArray%.prototype[Symbol.toStringTag] getter reads an internal slot,
// so unlike `instanceof` or `constructor.name` it cannot be faked.
const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
function isBytes(value) {
  return typedArrayTag.call(value) === 'Uint8Array';
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'Array';
  if (ArrayBuffer.isView(value)) return value.constructor?.name || 'ArrayBufferView';
  if (typeof value === 'object') return value.constructor?.name || 'object';
  return typeof value;
}

function checkBytes(value, name) {
  if (!isBytes(value)) throw new TypeError(`${name}: expected Uint8Array, got ${describe(value)}`);
  return value;
}

function checkLength(value, length, name) {
  checkBytes(value, name);
  if (value.length !== length) throw new RangeError(`${name}: expected ${length} bytes, got ${value.length}`);
  return value;
}

/**
 * Options bag as noble reads it: undefined or a plain object; keys whose value
 * is undefined are ignored; any other key not in `allowed` throws, so that a
 * typo such as `{ ctx }` cannot silently drop the context. Each value is read
 * once, into a null-prototype snapshot.
 */
function readOptions(options, allowed) {
  const out = Object.create(null);
  if (options === undefined) return out;
  if (options === null || typeof options !== 'object' || Array.isArray(options) || ArrayBuffer.isView(options))
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
  checkBytes(context, 'context');
  if (context.length > MAX_CONTEXT)
    throw new RangeError(`context: expected at most ${MAX_CONTEXT} bytes, got ${context.length}`);
  return context;
}

// undefined: hedged, wasm draws 32 fresh bytes from crypto.getRandomValues;
// false: deterministic (32 zero bytes); bytes: exactly that rnd.
function readEntropy(extraEntropy) {
  if (extraEntropy === undefined) return undefined;
  if (extraEntropy === false) return new Uint8Array(RND_BYTES);
  if (!isBytes(extraEntropy))
    throw new TypeError(`extraEntropy: expected Uint8Array or false, got ${describe(extraEntropy)}`);
  return checkLength(extraEntropy, RND_BYTES, 'extraEntropy');
}

function readFlag(value, name) {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`${name}: expected boolean, got ${describe(value)}`);
  return value;
}

// Feeds `parts` to the stream just opened in wasm and returns its digest.
function streamed(parts) {
  for (const part of parts)
    for (let i = 0; i < part.length; i += CHUNK) wasm.stream_update(part.subarray(i, i + CHUNK));
  return wasm.stream_finish();
}

// A named hash is hashed inside wasm; a noble-hashes function is called here.
function resolveHash(hash) {
  if (typeof hash === 'string') {
    const index = HASH_NAMES.indexOf(hash);
    if (index < 0)
      throw new RangeError(`hash: unknown hash name "${hash}"; expected one of: ${HASH_NAMES.join(', ')}`);
    const digest = (msg) => {
      wasm.stream_prehash(index);
      return streamed([msg]);
    };
    return { oid: Uint8Array.of(...NIST_HASH_OID_PREFIX, HASH_ARCS[index]), digest };
  }
  if (typeof hash !== 'function')
    throw new TypeError(`hash: expected a hash name or a hash function, got ${describe(hash)}`);
  const { oid, outputLen } = hash;
  if (!isBytes(oid) || oid.length !== 11 || NIST_HASH_OID_PREFIX.some((b, i) => oid[i] !== b))
    throw new TypeError('hash: expected a hash function whose .oid is a NIST hash OID (06 09 60 86 48 01 65 03 04 02 xx)');
  if (!Number.isSafeInteger(outputLen))
    throw new TypeError(`hash: expected .outputLen to be an integer, got ${String(outputLen)}`);
  const wantLen = PREHASH_OUTPUT_LEN[oid[10]];
  if (wantLen === undefined)
    throw new RangeError(`hash: OID 2.16.840.1.101.3.4.2.${oid[10]} is not a FIPS 204 pre-hash function`);
  if (outputLen !== wantLen)
    throw new RangeError(`hash: the function with OID 2.16.840.1.101.3.4.2.${oid[10]} must output ${wantLen} bytes for HashML-DSA, got outputLen ${outputLen}`);
  const oidCopy = Uint8Array.from(oid);
  const digest = (msg) => {
    const out = hash(msg);
    if (!isBytes(out) || out.length !== outputLen)
      throw new TypeError(`hash: expected the hash function to return ${outputLen} bytes, got ${isBytes(out) ? out.length + ' bytes' : describe(out)}`);
    return out;
  };
  return { oid: oidCopy, digest };
}

// M′ of HashML-DSA (FIPS 204 Algorithms 4 and 5): 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M).
function hashMPrime(ctx, oid, digest) {
  const out = new Uint8Array(2 + ctx.length + oid.length + digest.length);
  out[0] = 1;
  out[1] = ctx.length;
  out.set(ctx, 2);
  out.set(oid, 2 + ctx.length);
  out.set(digest, 2 + ctx.length + oid.length);
  return out;
}

// The argument checks shared by every sign and verify of the pure and
// pre-hash interfaces, in noble's order; they return the context.
function signArgs(msg, opts) {
  const options = readOptions(opts, SIGN_KEYS);
  checkBytes(msg, 'msg');
  return { options, ctx: readContext(options.context) };
}

function verifyArgs(sig, msg, opts) {
  const options = readOptions(opts, VERIFY_KEYS);
  checkBytes(sig, 'signature');
  checkBytes(msg, 'msg');
  return readContext(options.context);
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
    if (seed !== undefined) checkLength(seed, SEED_BYTES, 'seed');
    const both = wasm.keygen(ps, seed);
    const publicKey = both.slice(0, pkLen);
    const secretKey = both.slice(pkLen, pkLen + skLen);
    both.fill(0);
    return { publicKey, secretKey };
  };

  const getPublicKey = (secretKey) => wasm.public_key(ps, checkLength(secretKey, skLen, 'secretKey'));

  // Common shape of every signing call: checked rnd, checked key (none for a
  // prepared signer, which holds its own), and the library-made zero rnd wiped
  // afterwards.
  const withSigningInputs = (options, secretKey, call) => {
    const rnd = readEntropy(options.extraEntropy);
    const ownRnd = options.extraEntropy === false;
    try {
      if (secretKey !== PREPARED) checkLength(secretKey, skLen, 'secretKey');
      return call(rnd);
    } finally {
      if (ownRnd) rnd.fill(0);
    }
  };

  const sign = (msg, secretKey, opts) => {
    const { options, ctx } = signArgs(msg, opts);
    return withSigningInputs(options, secretKey, (rnd) => {
      if (msg.length <= CHUNK) return wasm.sign(ps, secretKey, msg, ctx, rnd);
      wasm.stream_mu_secret(ps, secretKey);
      return wasm.sign_mu(ps, secretKey, streamed([Uint8Array.of(0, ctx.length), ctx, msg]), rnd);
    });
  };

  const verify = (sig, msg, publicKey, opts) => {
    const ctx = verifyArgs(sig, msg, opts);
    checkLength(publicKey, pkLen, 'publicKey');
    if (sig.length !== sigLen) return false;
    if (msg.length <= CHUNK) return wasm.verify(ps, publicKey, sig, msg, ctx);
    wasm.stream_mu_public(ps, publicKey);
    return wasm.verify_mu(ps, publicKey, sig, streamed([Uint8Array.of(0, ctx.length), ctx, msg]));
  };

  // What the ML-DSA, HashML-DSA and internal objects share, as in noble.
  const keyOps = { lengths, keygen, getPublicKey };

  const internal = Object.freeze({
    info: Object.freeze({ type: 'internal-ml-dsa' }),
    ...keyOps,
    sign: (mOrMu, secretKey, opts) => {
      const options = readOptions(opts, INTERNAL_SIGN_KEYS);
      const externalMu = readFlag(options.externalMu, 'externalMu');
      if (externalMu) checkLength(mOrMu, MU_BYTES, 'mu');
      else checkBytes(mOrMu, 'msg');
      return withSigningInputs(options, secretKey, (rnd) => {
        if (externalMu) return wasm.sign_mu(ps, secretKey, mOrMu, rnd);
        if (mOrMu.length <= CHUNK) return wasm.sign_internal(ps, secretKey, mOrMu, rnd);
        wasm.stream_mu_secret(ps, secretKey);
        return wasm.sign_mu(ps, secretKey, streamed([mOrMu]), rnd);
      });
    },
    verify: (sig, mOrMu, publicKey, opts) => {
      const options = readOptions(opts, INTERNAL_VERIFY_KEYS);
      const externalMu = readFlag(options.externalMu, 'externalMu');
      checkBytes(sig, 'signature');
      if (externalMu) checkLength(mOrMu, MU_BYTES, 'mu');
      else checkBytes(mOrMu, 'msg');
      checkLength(publicKey, pkLen, 'publicKey');
      if (sig.length !== sigLen) return false;
      if (externalMu) return wasm.verify_mu(ps, publicKey, sig, mOrMu);
      if (mOrMu.length <= CHUNK) return wasm.verify_internal(ps, publicKey, sig, mOrMu);
      wasm.stream_mu_public(ps, publicKey);
      return wasm.verify_mu(ps, publicKey, sig, streamed([mOrMu]));
    },
  });

  const prehash = (hash) => {
    const { oid, digest } = resolveHash(hash);
    return Object.freeze({
      info: Object.freeze({ type: 'hashml-dsa' }),
      securityLevel,
      ...keyOps,
      sign: (msg, secretKey, opts) => {
        const { options, ctx } = signArgs(msg, opts);
        return withSigningInputs(options, secretKey, (rnd) =>
          wasm.sign_internal(ps, secretKey, hashMPrime(ctx, oid, digest(msg)), rnd),
        );
      },
      verify: (sig, msg, publicKey, opts) => {
        const ctx = verifyArgs(sig, msg, opts);
        checkLength(publicKey, pkLen, 'publicKey');
        if (sig.length !== sigLen) return false;
        return wasm.verify_internal(ps, publicKey, sig, hashMPrime(ctx, oid, digest(msg)));
      },
    });
  };

  // Prepared keys: the wasm object holds the expanded key; `live()` returns it
  // or throws once the object has been freed.
  const signer = (secretKey) => {
    checkLength(secretKey, skLen, 'secretKey');
    const live = prepared(new wasm.Signer(ps, secretKey), 'signer');
    return live.wrap({
      sign(msg, opts) {
        const { options, ctx } = signArgs(msg, opts);
        const inner = live();
        return withSigningInputs(options, PREPARED, (rnd) => {
          if (msg.length <= CHUNK) return inner.sign(msg, ctx, rnd);
          inner.stream_mu();
          return inner.sign_mu(streamed([Uint8Array.of(0, ctx.length), ctx, msg]), rnd);
        });
      },
    });
  };

  const verifier = (publicKey) => {
    checkLength(publicKey, pkLen, 'publicKey');
    const live = prepared(new wasm.Verifier(ps, publicKey), 'verifier');
    return live.wrap({
      verify(sig, msg, opts) {
        const ctx = verifyArgs(sig, msg, opts);
        const inner = live();
        if (sig.length !== sigLen) return false;
        if (msg.length <= CHUNK) return inner.verify(sig, msg, ctx);
        inner.stream_mu();
        return inner.verify_mu(sig, streamed([Uint8Array.of(0, ctx.length), ctx, msg]));
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

// Frees the wasm side of prepared keys that were dropped without free().
const finalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((inner) => inner.free()) : undefined;
const disposeSymbol = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('Symbol.dispose');

// Ownership of a wasm object behind a prepared key: `live()` gives the object
// or throws after free(); `live.wrap(methods)` adds free() and [Symbol.dispose]
// and registers the result with the finalizer.
function prepared(inner, what) {
  const live = () => {
    if (inner === undefined) throw new Error(`${what}: used after free()`);
    return inner;
  };
  live.wrap = (methods) => {
    const object = Object.freeze({
      ...methods,
      free() {
        if (inner === undefined) return;
        finalizer?.unregister(object);
        const doomed = inner;
        inner = undefined;
        doomed.free();
      },
      [disposeSymbol]() {
        object.free();
      },
    });
    finalizer?.register(object, inner, object);
    return object;
  };
  return live;
}

/** ML-DSA-44 (NIST security category 2). */
export const ml_dsa44 = /* @__PURE__ */ makeMlDsa(44);
/** ML-DSA-65 (NIST security category 3). */
export const ml_dsa65 = /* @__PURE__ */ makeMlDsa(65);
/** ML-DSA-87 (NIST security category 5). */
export const ml_dsa87 = /* @__PURE__ */ makeMlDsa(87);

/** Bytes of WebAssembly linear memory the shared instance holds (diagnostics; it never shrinks). */
export const wasmMemoryBytes = () => wasm.memory_bytes();
