/**
 * mldsa-simd/webcrypto: ML-DSA-44/65/87 through the Web Cryptography API, as
 * the WICG "Modern Algorithms in the Web Cryptography API" draft defines them
 * (generateKey, importKey, exportKey, sign, verify, getPublicKey, supports),
 * for platforms whose crypto.subtle has no ML-DSA.
 *
 * `subtle` handles ML-DSA itself and passes every other algorithm, and every
 * platform CryptoKey, to the platform's crypto.subtle. `install()` makes
 * globalThis.crypto.subtle do the same. Built on the package's public API
 * (./index.js), so it shares its WebAssembly instance.
 * @module
 */
import { ml_dsa44, ml_dsa65, ml_dsa87, isSupported, wasmMemoryBytes } from './index.js';
import { importPublicKey, exportPublicKey, importSecretKey, exportSecretKey } from './keys.js';
import { PARAMS } from '../build/tables.js';
import { keyCache } from './key-cache.js';

// ---------------------------------------------------------------- intrinsics
// Captured once, at load (as js/args.js does for the main API), so that a
// script that replaces a built-in afterwards never gets a key's state or
// bytes of key material: every built-in called on such a value is one of
// these, called through `apply`; key states and the objects that carry key
// material have no prototype, so that no read or write of a missing
// property reaches Object.prototype; and no argument list is spread (which
// would call the array iterator with the arguments).
const { apply, construct, defineProperty, getPrototypeOf, setPrototypeOf } = Reflect;
const { freeze, getOwnPropertyDescriptor } = Object;
const ObjectPrototype = Object.prototype;
const hasOwn = ObjectPrototype.hasOwnProperty;
const U8 = Uint8Array;
const PromiseCtor = Promise;
const typedArrayProto = getPrototypeOf(U8.prototype);
const getter = (proto, name) => getOwnPropertyDescriptor(proto, name)?.get;
const taBuffer = getter(typedArrayProto, 'buffer');
const taOffset = getter(typedArrayProto, 'byteOffset');
const taByteLength = getter(typedArrayProto, 'byteLength');
const taTag = getter(typedArrayProto, Symbol.toStringTag);
const dvBuffer = getter(DataView.prototype, 'buffer');
const dvOffset = getter(DataView.prototype, 'byteOffset');
const dvByteLength = getter(DataView.prototype, 'byteLength');
const abByteLength = getter(ArrayBuffer.prototype, 'byteLength');
const abResizable = getter(ArrayBuffer.prototype, 'resizable');
const abDetached = getter(ArrayBuffer.prototype, 'detached');
const sabByteLength = globalThis.SharedArrayBuffer ? getter(SharedArrayBuffer.prototype, 'byteLength') : undefined;
const u8Fill = typedArrayProto.fill;
const u8Set = typedArrayProto.set;
const isView = ArrayBuffer.isView;
const { get: mapGet, set: mapSet } = WeakMap.prototype;
const WeakSetCtor = WeakSet;
const Registry = typeof FinalizationRegistry === 'function' ? FinalizationRegistry : undefined;
const register = Registry?.prototype.register;
const cryptoObject = globalThis.crypto;
const getRandomValues = cryptoObject?.getRandomValues;

// The algorithm names (the sets' names, from the crate: build/tables.js).
const SETS = freeze({ __proto__: null, [PARAMS[44].name]: ml_dsa44, [PARAMS[65].name]: ml_dsa65, [PARAMS[87].name]: ml_dsa87 });
const NAMES = [PARAMS[44].name, PARAMS[65].name, PARAMS[87].name];

// The platform's, as they were at load (install() replaces the prototype's methods).
const platformSubtle = globalThis.crypto?.subtle;
const SubtleProto = globalThis.SubtleCrypto?.prototype;
const PLATFORM = { __proto__: null };
for (const name of [
  'encrypt',
  'decrypt',
  'sign',
  'verify',
  'digest',
  'generateKey',
  'deriveKey',
  'deriveBits',
  'importKey',
  'exportKey',
  'wrapKey',
  'unwrapKey',
  'getPublicKey',
  'encapsulateKey',
  'encapsulateBits',
  'decapsulateKey',
  'decapsulateBits',
]) {
  const fn = SubtleProto?.[name];
  if (typeof fn === 'function') PLATFORM[name] = fn;
}
const platformSupports = typeof globalThis.SubtleCrypto?.supports === 'function' ? globalThis.SubtleCrypto.supports : undefined;
const PlatformCryptoKey = typeof globalThis.CryptoKey === 'function' ? globalThis.CryptoKey : undefined;
const platformKeyType = PlatformCryptoKey ? getter(PlatformCryptoKey.prototype, 'type') : undefined;

const DOMExceptionCtor =
  globalThis.DOMException ??
  class DOMException extends Error {
    constructor(message, name) {
      super(message);
      this.name = name;
    }
  };
/** A DOMException named `name`; `cause`, when given, is the error that led to it. */
function fail(name, message, cause) {
  const e = new DOMExceptionCtor(message, name);
  if (cause !== undefined) defineProperty(e, 'cause', { value: cause, writable: true, configurable: true });
  return e;
}
const RuntimeError = globalThis.WebAssembly?.RuntimeError;

/** An OperationError for an error the operation did not expect (of the main API, or of the wasm instance). */
const operationError = (op, cause) => fail('OperationError', `${op}: the operation failed (see cause)`, cause);

/**
 * Where the package cannot run (no WebAssembly, or a policy that refuses it:
 * isSupported() of the main API is false), a NotSupportedError with the
 * message of the error that every call into wasm throws then (it says why),
 * and the platform's error as its cause.
 */
function cannotRun(op) {
  try {
    wasmMemoryBytes();
  } catch (e) {
    return fail('NotSupportedError', `${op}: ${e.message}`, e.cause);
  }
  return fail('NotSupportedError', `${op}: mldsa-simd cannot run here`);
}

/**
 * Where the package cannot run, the platform's own ML-DSA makes and imports
 * keys if it has one (its keys then go to it for everything else too); else
 * the NotSupportedError that says why the package cannot run.
 */
async function platformOrCannotRun(op, self, args) {
  if (PLATFORM[op] && platformSubtle && (await platformHasMlDsa())) return platform(op, self, args);
  throw cannotRun(op);
}

/** Runs an ML-DSA operation (its arguments converted): what it throws is a DOMException. */
async function operation(op, run) {
  if (!isSupported()) throw cannotRun(op);
  try {
    return await run();
  } catch (e) {
    throw e instanceof DOMExceptionCtor ? e : operationError(op, e);
  }
}

// The main API's error for a call during which the wasm instance failed (a
// trap, or a stack overflow) and was replaced: not a fault of the data.
const instanceFailed = (e) => (RuntimeError !== undefined && e?.cause instanceof RuntimeError) || e?.cause instanceof RangeError;

const KEY_USAGES = [
  'encrypt',
  'decrypt',
  'sign',
  'verify',
  'deriveKey',
  'deriveBits',
  'wrapKey',
  'unwrapKey',
  'encapsulateKey',
  'encapsulateBits',
  'decapsulateKey',
  'decapsulateBits',
];
const KEY_FORMATS = ['raw', 'spki', 'pkcs8', 'jwk', 'raw-public', 'raw-private', 'raw-seed', 'raw-secret'];

// ---------------------------------------------------------------- arguments (WebIDL conversions)

/** WebIDL's conversion to BufferSource: an ArrayBuffer or a view of one (not shared, not resizable), else TypeError. */
function bufferSource(value, name) {
  let buffer = value;
  if (isView(value)) buffer = apply(taTag, value, []) !== undefined ? apply(taBuffer, value, []) : apply(dvBuffer, value, []);
  else {
    try {
      apply(abByteLength, value, []);
    } catch {
      throw new TypeError(`${name}: expected an ArrayBuffer, a TypedArray or a DataView`);
    }
  }
  if (sabByteLength) {
    let shared = true;
    try {
      apply(sabByteLength, buffer, []);
    } catch {
      shared = false;
    }
    if (shared) throw new TypeError(`${name}: a SharedArrayBuffer is not a BufferSource`);
  }
  if (abResizable && apply(abResizable, buffer, [])) throw new TypeError(`${name}: a resizable ArrayBuffer is not a BufferSource`);
  return value;
}

/** Whether `value` is an ArrayBuffer, a SharedArrayBuffer or a view of one. */
function isBufferSource(value) {
  if (isView(value)) return true;
  for (const byteLength of [abByteLength, sabByteLength]) {
    try {
      if (byteLength) {
        apply(byteLength, value, []);
        return true;
      }
    } catch {}
  }
  return false;
}

/** "Get a copy of the bytes held by the buffer source" (a converted one), as they are now. */
function copyBufferSource(value) {
  let buffer, offset, length;
  if (isView(value)) {
    if (apply(taTag, value, []) !== undefined) {
      buffer = apply(taBuffer, value, []);
      offset = apply(taOffset, value, []);
      length = apply(taByteLength, value, []);
    } else {
      buffer = apply(dvBuffer, value, []);
      offset = apply(dvOffset, value, []);
      length = apply(dvByteLength, value, []);
    }
  } else {
    buffer = value;
    offset = 0;
    length = apply(abByteLength, value, []);
  }
  if (abDetached && apply(abDetached, buffer, [])) return new U8(0);
  let view;
  try {
    view = new U8(buffer, offset, length);
  } catch {
    return new U8(0); // detached (where ArrayBuffer.prototype.detached is missing): no bytes, as WebIDL copies it
  }
  return copy(view);
}

/** A new Uint8Array with the bytes of `view` (not slice(), which looks up a species constructor on the view). */
function copy(view) {
  const out = new U8(apply(taByteLength, view, []));
  apply(u8Set, out, [view]);
  return out;
}

const wipe = (bytes) => bytes && apply(u8Fill, bytes, [0]);

/** ToString of WebIDL's DOMString (a Symbol throws TypeError). */
const domString = (value) => `${value}`;

/**
 * What a caller's value is, for an error message, without its contents: a
 * string where a format or usage name belongs may be key material (a PEM or
 * base64 text given in the wrong position).
 */
const describe = (value) => (typeof value === 'string' ? `a string of ${value.length} characters` : value === null ? 'null' : typeof value);
const quoted = (names) => names.map((n) => `"${n}"`).join(', ');

// Usage lists, read with plain loops (no method of Array.prototype, which a
// script may replace after load, decides what a key may do).
/** Whether `list` holds `value`. */
function holds(list, value) {
  for (let i = 0; i < list.length; i++) if (list[i] === value) return true;
  return false;
}
/** Whether every entry of `list` is one of `allowed`. */
function within(list, allowed) {
  for (let i = 0; i < list.length; i++) if (!holds(allowed, list[i])) return false;
  return true;
}
/** A new array of the entries of `list` that are `value` (none or one: usages are distinct). */
const only = (list, value) => (holds(list, value) ? [value] : []);

/**
 * AlgorithmIdentifier → { name, object } for ML-DSA names (matched without
 * regard to ASCII case; `object` is the caller's, if it gave one), or
 * undefined for any other algorithm.
 */
function mlDsaAlgorithm(algorithm) {
  let name;
  if (algorithm !== null && typeof algorithm === 'object') {
    const n = algorithm.name;
    if (n === undefined) throw new TypeError('algorithm: the name member is required');
    name = domString(n);
  } else {
    name = domString(algorithm);
  }
  const canonical = NAMES.find((n) => n.toLowerCase() === name.toLowerCase());
  return canonical && { name: canonical, object: typeof algorithm === 'object' ? algorithm : undefined };
}

/** ContextParams: the context member, copied, or the empty string. */
function readContext(alg) {
  const context = alg.object?.context;
  return context === undefined ? new U8(0) : copyBufferSource(bufferSource(context, 'context'));
}

function readUsages(usages) {
  if (usages === null || typeof usages !== 'object' || typeof usages[Symbol.iterator] !== 'function')
    throw new TypeError('keyUsages: expected a sequence of KeyUsage strings');
  const out = [];
  for (const u of usages) {
    const s = domString(u);
    if (!holds(KEY_USAGES, s)) throw new TypeError(`keyUsages: expected KeyUsage names (${quoted(KEY_USAGES)}), got ${describe(s)}`);
    if (!holds(out, s)) out[out.length] = s;
  }
  return out;
}

function readFormat(format) {
  const i = KEY_FORMATS.indexOf(domString(format));
  if (i < 0) throw new TypeError(`format: expected a KeyFormat (${quoted(KEY_FORMATS)}), got ${describe(domString(format))}`);
  return KEY_FORMATS[i];
}

/**
 * A member of the caller's JsonWebKey, own or inherited as WebIDL reads it,
 * except from Object.prototype: the JWK holds key material, and a getter put
 * there would be called with the JWK as `this`.
 */
function jwkMember(jwk, name) {
  let depth = 0;
  for (let o = jwk; o !== null && o !== ObjectPrototype; o = getPrototypeOf(o)) {
    // (A proxy's getPrototypeOf may return itself: the walk would not end.)
    if (++depth > 1000) throw new TypeError('keyData: the JsonWebKey has a prototype chain that does not end');
    const d = getOwnPropertyDescriptor(o, name);
    if (d === undefined) continue;
    if (apply(hasOwn, d, ['value'])) return d.value;
    return d.get === undefined ? undefined : apply(d.get, jwk, []);
  }
  return undefined;
}

/** The members of a JsonWebKey dictionary that ML-DSA reads, each read once and converted. */
function readJwk(value) {
  // (A BufferSource is not a JsonWebKey: WebIDL's union conversion makes it the BufferSource.)
  if (value === null || typeof value !== 'object' || isBufferSource(value)) throw new TypeError('keyData: expected a JsonWebKey object for the jwk format');
  const out = { __proto__: null };
  // WebIDL reads dictionary members in lexicographic order.
  for (const member of ['alg', 'ext', 'key_ops', 'kty', 'priv', 'pub', 'use']) {
    const v = jwkMember(value, member);
    if (v === undefined) continue;
    if (member === 'ext') out.ext = Boolean(v);
    else if (member === 'key_ops') {
      if (v === null || typeof v !== 'object' || typeof v[Symbol.iterator] !== 'function')
        throw new TypeError('keyData: key_ops must be a sequence of strings');
      out.key_ops = [...v].map(domString);
    } else out[member] = domString(v);
  }
  return out;
}

// ---------------------------------------------------------------- keys

// Each key's state, out of reach of JavaScript: { set, type, extractable,
// algorithm, usages, publicKey, seed (private keys) }.
const STATE = new WeakMap();
// The prepared signers of private keys and verifiers of public keys, by
// their state, under the package's one cache policy (./key-cache.js): a
// signer made at a key's first signature, a verifier at its second
// verification (a verifying key is often used once), each freed when
// evicted or when its key is dropped. (The key material is the key's: the
// cache does not wipe it.)
const prepared = keyCache();
// A dropped key's prepared object is freed and its seed wiped.
const registry = Registry
  ? new Registry((s) => {
      try {
        prepared.drop(s);
      } finally {
        wipe(s.seed);
      }
    })
  : undefined;

/**
 * A CryptoKey of this package: the shape of the platform's (and, where there
 * is one, an instance of it). Each key is made by the WeakSet constructor
 * with this class's prototype: an object with an internal slot, which the
 * structured clone algorithm (structuredClone, postMessage) refuses with a
 * DataCloneError where it would copy a plain object as {}. (A platform
 * CryptoKey can be cloned; no ordinary object can be cloned into one.) The
 * slot is never used.
 */
class CryptoKey {
  constructor() {
    throw new TypeError('Illegal constructor');
  }
  get type() {
    return state(this).type;
  }
  get extractable() {
    return state(this).extractable;
  }
  get algorithm() {
    return state(this).algorithm;
  }
  get usages() {
    return state(this).usages;
  }
}
defineProperty(CryptoKey, 'name', { value: 'CryptoKey', configurable: true }); // whatever a minifier calls the class
defineProperty(CryptoKey.prototype, Symbol.toStringTag, { value: 'CryptoKey', configurable: true });
// `key instanceof CryptoKey` (the platform's) holds for these keys too, and
// `key.constructor` is the platform's CryptoKey, as for its own keys.
if (PlatformCryptoKey) {
  setPrototypeOf(CryptoKey.prototype, PlatformCryptoKey.prototype);
  defineProperty(CryptoKey.prototype, 'constructor', { value: PlatformCryptoKey, writable: true, configurable: true });
}
// Node's util.inspect prints a key as Node prints its own CryptoKey (whose
// inspect hook, on the platform prototype above, reads the platform's
// internal slots and throws on ours).
defineProperty(CryptoKey.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value: function inspect(depth, options, nodeInspect) {
    const s = apply(mapGet, STATE, [this]);
    if (s === undefined || typeof nodeInspect !== 'function') return this;
    if (depth < 0) return 'CryptoKey {}';
    const shown = { type: s.type, extractable: s.extractable, algorithm: s.algorithm, usages: s.usages };
    return `CryptoKey ${nodeInspect(shown, { ...options, depth: options.depth == null ? null : options.depth - 1 })}`;
  },
  writable: true,
  configurable: true,
});

function state(key) {
  const s = apply(mapGet, STATE, [key]);
  if (!s) throw new TypeError('not a CryptoKey of mldsa-simd');
  return s;
}

/**
 * Records a key's state: `key` is one of ours (made here) or, where the
 * platform has ML-DSA, a platform CryptoKey this module made or imported
 * (`native`), whose seed and public key it keeps to sign and verify in wasm.
 */
function remember(key, set, type, extractable, usages, publicKey, seed, native) {
  const s = {
    __proto__: null,
    set,
    type,
    extractable,
    algorithm: freeze({ __proto__: ObjectPrototype, name: set }),
    usages: freeze(copyList(usages)),
    publicKey,
    seed,
    native,
    verified: false, // (a public key verified with once: its next verification prepares it)
  };
  apply(mapSet, STATE, [key, s]);
  if (registry) apply(register, registry, [key, s]);
  return key;
}

/** A new array with the entries of `list` (no spread: that would call the array iterator). */
function copyList(list) {
  const out = [];
  for (let i = 0; i < list.length; i++) out[i] = list[i];
  return out;
}

function makeKey(set, type, extractable, usages, publicKey, seed) {
  return remember(construct(WeakSetCtor, [], CryptoKey), set, type, extractable, usages, publicKey, seed, false);
}

/** Whether `key` is a key of this package (not a platform CryptoKey, even one it made). */
const isOurs = (key) => key !== null && typeof key === 'object' && apply(mapGet, STATE, [key])?.native === false;
/** The state of a key this module made or imported (ours or the platform's), or undefined. */
const known = (key) => (key !== null && typeof key === 'object' ? apply(mapGet, STATE, [key]) : undefined);
function isPlatformKey(key) {
  if (!platformKeyType || key === null || typeof key !== 'object') return false;
  try {
    apply(platformKeyType, key, []);
    return true;
  } catch {
    return false;
  }
}
function checkKey(key, name) {
  if (!isOurs(key) && !isPlatformKey(key)) throw new TypeError(`${name}: expected a CryptoKey`);
}

/** The bytes of a Uint8Array as an ArrayBuffer of their own. */
function toArrayBuffer(bytes) {
  const buffer = apply(taBuffer, bytes, []);
  const whole = apply(taOffset, bytes, []) === 0 && apply(taByteLength, bytes, []) === apply(abByteLength, buffer, []);
  return whole ? buffer : apply(taBuffer, copy(bytes), []);
}

// ---------------------------------------------------------------- the platform's ML-DSA
//
// Where the platform's crypto.subtle has ML-DSA, the keys this module makes
// or imports are the platform's own CryptoKeys, so that they clone, go into
// IndexedDB and work with the platform's crypto.subtle (and so with every
// library that calls it). Their seed and public key are kept in STATE beside
// them, so that signing (and verifying) with them still runs in wasm, the
// faster engine; a platform key never seen here (one made by the platform, or
// a clone) is left to the platform. What the platform can do is found out
// once per parameter set, by trying it, never from the name alone: importing
// a seed (raw-seed, else PKCS#8) and a public key (raw-public, else SPKI),
// and signing, with a context too, signatures that ours verify (and it
// verifies ours). Keys this module knows are exported from their state here
// (so the platform's JWK support does not matter for them).

const nativeSupport = { __proto__: null }; // set → a promise of what the platform can do with it, or of null

function platformCall(name, args) {
  return apply(PLATFORM[name], platformSubtle, args);
}

/**
 * How the platform's ML-DSA takes keys of parameter set `set` ({ seed,
 * publicKey }: the formats; derive: whether its getPublicKey gives the
 * public key), or null if it has none that does all ours does.
 */
function platformMlDsa(set) {
  // A probe that fails (rather than finding the platform lacking) is tried
  // again at the next need: a passing failure must not decide for good.
  return (nativeSupport[set] ??= probe(set).catch(() => {
    nativeSupport[set] = undefined;
    return null;
  }));
}

async function probe(set) {
  if (!PLATFORM.importKey || !PLATFORM.sign || !PLATFORM.verify || !platformSubtle) return null;
  const ml = SETS[set];
  const seed = new U8(32);
  apply(u8Fill, seed, [7]); // a public probe, not a secret
  const { publicKey, secretKey } = ml.keygen(seed);
  const message = new U8([1, 2, 3]);
  const tryImport = async (formats, usage) => {
    for (const [format, data] of formats) {
      try {
        return { format, key: await platformCall('importKey', [format, data, set, false, [usage]]) };
      } catch {}
    }
  };
  const priv = await tryImport(
    [
      ['raw-seed', seed],
      ['pkcs8', exportSecretKey(ml, seed, 'pkcs8')],
    ],
    'sign',
  );
  const pub = await tryImport(
    [
      ['raw-public', publicKey],
      ['spki', exportPublicKey(ml, publicKey, 'spki')],
    ],
    'verify',
  );
  if (!priv || !pub) return null;
  // Its keys must be ours: its signature verifies under ours and ours under its.
  const theirs = new U8(await platformCall('sign', [set, priv.key, message]));
  if (!ml.verify(theirs, message, publicKey)) return null;
  if (!(await platformCall('verify', [set, pub.key, ml.sign(message, secretKey), message]))) return null;
  // A context, too: a key that leaves this module (a clone, a key loaded
  // from storage) is signed with by the platform, with whatever context the
  // caller gives (some platforms' first ML-DSA refused any).
  const params = { name: set, context: new U8([1]) };
  if (!ml.verify(new U8(await platformCall('sign', [params, priv.key, message])), message, publicKey, { context: params.context })) return null;
  // Whether a key pair is made faster from a seed by the platform alone
  // (importing it, then its getPublicKey) than with our keygen beside it.
  let derive = false;
  try {
    const pair = await platformCall('getPublicKey', [priv.key, ['verify']]);
    derive = equal(new U8(await platformCall('exportKey', ['raw-public', pair])), publicKey);
  } catch {}
  return { seed: priv.format, publicKey: pub.format, derive };
}

function equal(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A key of parameter set `set` with this material: a platform CryptoKey
 * where the platform has ML-DSA, else one of ours. Takes over `seed`.
 */
async function newKey(set, type, extractable, usages, publicKey, seed) {
  const can = await platformMlDsa(set);
  if (!can) return makeKey(set, type, extractable, usages, publicKey, seed);
  return remember(await platformKey(can, set, type, extractable, usages, publicKey, seed), set, type, extractable, usages, publicKey, seed, true);
}

/** The platform's key of this material (wipes `seed` if the platform refuses it). */
async function platformKey(can, set, type, extractable, usages, publicKey, seed) {
  const ml = SETS[set];
  let data;
  if (type === 'private') data = can.seed === 'raw-seed' ? copy(seed) : exportSecretKey(ml, seed, 'pkcs8');
  else data = can.publicKey === 'raw-public' ? publicKey : exportPublicKey(ml, publicKey, 'spki');
  let key;
  try {
    key = await platformCall('importKey', [type === 'private' ? can.seed : can.publicKey, data, set, extractable, usages]);
  } catch (e) {
    wipe(seed);
    throw e;
  } finally {
    if (type === 'private') wipe(data);
  }
  return key;
}

/** A key pair from `seed`: the platform's where it has ML-DSA, else ours. Takes over `seed`. */
async function newKeyPair(set, extractable, signUsages, verifyUsages, seed) {
  const can = await platformMlDsa(set);
  if (!can?.derive) {
    const { publicKey, secretKey, seed: copy } = SETS[set].keygen(seed);
    wipe(secretKey);
    wipe(copy); // keygen's copy of the seed (the key holds `seed`)
    const privateKey = await newKey(set, 'private', extractable, signUsages, publicKey, seed);
    return { publicKey: await newKey(set, 'public', true, verifyUsages, publicKey), privateKey };
  }
  const privateKey = await platformKey(can, set, 'private', extractable, signUsages, undefined, seed);
  let publicKey, bytes;
  try {
    publicKey = await platformCall('getPublicKey', [privateKey, verifyUsages]);
    bytes = new U8(await platformCall('exportKey', ['raw-public', publicKey]));
  } catch (e) {
    wipe(seed);
    throw e;
  }
  remember(privateKey, set, 'private', extractable, signUsages, bytes, seed, true);
  return { publicKey: remember(publicKey, set, 'public', true, verifyUsages, bytes, undefined, true), privateKey };
}

// ---------------------------------------------------------------- the ML-DSA operations

async function generateKey(alg, extractable, usages) {
  if (!within(usages, ['sign', 'verify'])) throw fail('SyntaxError', 'generateKey: ML-DSA keys have only the usages "sign" and "verify"');
  if (!holds(usages, 'sign')) throw fail('SyntaxError', 'generateKey: the private key would have no usages (ask for "sign")');
  if (typeof getRandomValues !== 'function') throw fail('OperationError', 'generateKey: no crypto.getRandomValues here');
  const seed = new U8(32);
  apply(getRandomValues, cryptoObject, [seed]);
  return newKeyPair(alg.name, extractable, only(usages, 'sign'), only(usages, 'verify'), seed);
}

function onlyUsage(usages, allowed, format) {
  if (!within(usages, [allowed])) throw fail('SyntaxError', `importKey: a key in ${format} format can only have the usage "${allowed}"`);
}

function importKey(format, keyData, alg, extractable, usages) {
  const ml = SETS[alg.name];
  const dataError = (e) =>
    instanceFailed(e) ? operationError('importKey', e) : fail('DataError', `importKey: ${e instanceof Error ? e.message : 'the key data is not valid'}`, e);
  let type, publicKey, seed;
  switch (format) {
    case 'spki':
    case 'raw-public': {
      onlyUsage(usages, 'verify', format);
      try {
        publicKey = importPublicKey(ml, keyData, format === 'spki' ? 'spki' : 'raw');
      } catch (e) {
        throw dataError(e);
      }
      type = 'public';
      break;
    }
    case 'pkcs8':
    case 'raw-seed': {
      onlyUsage(usages, 'sign', format);
      const expandedOnly = () => fail('NotSupportedError', 'importKey: a PKCS#8 key in the expandedKey form (without its seed) is not supported');
      let key;
      try {
        key = importSecretKey(ml, keyData, format === 'pkcs8' ? 'pkcs8' : 'raw-seed');
      } catch (e) {
        // The draft refuses the expandedKey form before any check of its contents.
        if (/^pkcs8: the expandedKey is malformed/.test(e.message)) throw expandedOnly();
        throw dataError(e);
      }
      wipe(key.secretKey);
      if (!key.seed) throw expandedOnly();
      ({ publicKey, seed } = key);
      type = 'private';
      break;
    }
    case 'jwk': {
      const jwk = keyData;
      const priv = jwk.priv !== undefined;
      onlyUsage(usages, priv ? 'sign' : 'verify', 'jwk');
      if (jwk.kty !== 'AKP') throw fail('DataError', 'importKey: the JWK kty must be "AKP"');
      if (jwk.alg !== alg.name) throw fail('DataError', `importKey: the JWK alg must be "${alg.name}"`);
      if (usages.length && jwk.use !== undefined && jwk.use !== 'sig') throw fail('DataError', 'importKey: the JWK use must be "sig"');
      if (jwk.key_ops !== undefined) {
        if (new Set(jwk.key_ops).size !== jwk.key_ops.length) throw fail('DataError', 'importKey: the JWK key_ops has duplicates');
        if (!within(usages, jwk.key_ops)) throw fail('DataError', 'importKey: the JWK key_ops does not allow the usages asked for');
      }
      if (jwk.ext === false && extractable) throw fail('DataError', 'importKey: the JWK is not extractable (ext: false)');
      const object = { __proto__: null, kty: 'AKP', alg: alg.name, pub: jwk.pub };
      if (priv) object.priv = jwk.priv;
      try {
        if (priv) {
          const key = importSecretKey(ml, object, 'jwk');
          wipe(key.secretKey);
          ({ publicKey, seed } = key);
        } else {
          publicKey = importPublicKey(ml, object, 'jwk');
        }
      } catch (e) {
        throw dataError(e);
      }
      type = priv ? 'private' : 'public';
      break;
    }
    default:
      throw fail('NotSupportedError', `importKey: ML-DSA keys have no "${format}" format`);
  }
  if (type === 'private' && usages.length === 0) {
    wipe(seed);
    throw fail('SyntaxError', 'importKey: a private key needs a usage ("sign")');
  }
  return newKey(alg.name, type, extractable, usages, publicKey, seed);
}

/** The draft's checks of exporting a key in `format` (extractable, then the format for its type), for `op`. */
function checkExport(s, format, op) {
  if (!s.extractable) throw fail('InvalidAccessError', `${op}: the key is not extractable`);
  const type = format === 'spki' || format === 'raw-public' ? 'public' : format === 'pkcs8' || format === 'raw-seed' ? 'private' : undefined;
  if (type === undefined && format !== 'jwk') throw fail('NotSupportedError', `${op}: ML-DSA keys have no ${format} format`);
  if (type !== undefined && s.type !== type) throw fail('InvalidAccessError', `${op}: ${format} is a format for ${type} keys`);
}

function exportKey(format, key) {
  const s = state(key);
  checkExport(s, format, 'exportKey');
  const ml = SETS[s.set];
  switch (format) {
    case 'spki':
      return toArrayBuffer(exportPublicKey(ml, s.publicKey, 'spki'));
    case 'raw-public':
      return toArrayBuffer(copy(s.publicKey));
    case 'pkcs8':
      return toArrayBuffer(exportSecretKey(ml, s.seed, 'pkcs8'));
    case 'raw-seed':
      return toArrayBuffer(copy(s.seed));
    default: {
      const jwk = s.type === 'private' ? exportSecretKey(ml, s.seed, 'jwk') : exportPublicKey(ml, s.publicKey, 'jwk');
      return { ...jwk, key_ops: [...s.usages], ext: s.extractable };
    }
  }
}

function checkUse(alg, key, usage) {
  const s = state(key);
  if (alg.name !== s.set) throw fail('InvalidAccessError', `${usage}: the key is an ${s.set} key, not ${alg.name}`);
  if (!holds(s.usages, usage)) throw fail('InvalidAccessError', `${usage}: the key's usages do not include "${usage}"`);
  if (s.type !== (usage === 'sign' ? 'private' : 'public'))
    throw fail('InvalidAccessError', `${usage}: needs a ${usage === 'sign' ? 'private' : 'public'} key`);
  return s;
}

function sign(alg, key, context, data) {
  const s = checkUse(alg, key, 'sign');
  if (context.length > 255) throw fail('OperationError', 'sign: the context is longer than 255 bytes');
  return toArrayBuffer(
    withPrepared(
      s,
      () => SETS[s.set].signer(s.seed),
      (signer) => signer.sign(data, { context }),
    ),
  );
}

function verify(alg, key, context, signature, data) {
  const s = checkUse(alg, key, 'verify');
  if (context.length > 255) throw fail('OperationError', 'verify: the context is longer than 255 bytes');
  if (!s.verified && !prepared.get(s)) {
    s.verified = true;
    return SETS[s.set].verify(signature, data, s.publicKey, { context });
  }
  return withPrepared(
    s,
    () => SETS[s.set].verifier(s.publicKey),
    (verifier) => verifier.verify(signature, data, { context }),
  );
}

/**
 * `use(object)` with the key's prepared object, made by `make()` if it has
 * none. A prepared object lives in the wasm instance it was made in, which
 * is replaced if it ever fails (a trap): one made before this call that
 * fails is made again, and the operation run once more.
 */
function withPrepared(s, make, use) {
  const hit = prepared.get(s);
  if (hit) {
    try {
      return use(hit.object);
    } catch {
      try {
        prepared.drop(s);
      } catch {} // an instance that failed during free() was replaced: nothing left to free
    }
  }
  return use(prepared.put(s, { object: make(), bytes: undefined, secret: false }).object);
}

function getPublicKey(key, usages) {
  const s = known(key);
  if (s.type !== 'private') throw fail('InvalidAccessError', 'getPublicKey: needs a private key');
  if (!within(usages, ['verify'])) throw fail('SyntaxError', 'getPublicKey: an ML-DSA public key can only have the usage "verify"');
  return newKey(s.set, 'public', true, usages, s.publicKey);
}

// ---------------------------------------------------------------- SubtleCrypto

/** Runs `work` (argument conversion, then the operation) as the promise of a SubtleCrypto method. */
function promise(work) {
  return new PromiseCtor((resolve) => resolve(work()));
}
function platform(name, self, args) {
  const fn = PLATFORM[name];
  if (!fn || !platformSubtle) return PromiseCtor.reject(fail('NotSupportedError', `${name}: not supported here`));
  return apply(fn, self ?? platformSubtle, args);
}

// The methods, written once: `this` is the SubtleCrypto the call came to (the
// platform's own object once installed, undefined from `subtle`), which
// calls passed to the platform keep.
const methods = {
  generateKey(algorithm, extractable, keyUsages) {
    return promise(() => {
      const alg = mlDsaAlgorithm(algorithm);
      if (!alg) return platform('generateKey', this, [algorithm, extractable, keyUsages]);
      if (!isSupported()) return platformOrCannotRun('generateKey', this, [algorithm, extractable, keyUsages]);
      const usages = readUsages(keyUsages);
      return operation('generateKey', () => generateKey(alg, Boolean(extractable), usages));
    });
  },
  importKey(format, keyData, algorithm, extractable, keyUsages) {
    return promise(() => {
      const alg = mlDsaAlgorithm(algorithm);
      if (!alg) return platform('importKey', this, [format, keyData, algorithm, extractable, keyUsages]);
      if (!isSupported()) return platformOrCannotRun('importKey', this, [format, keyData, algorithm, extractable, keyUsages]);
      const f = readFormat(format);
      const data = f === 'jwk' ? readJwk(keyData) : copyBufferSource(bufferSource(keyData, 'keyData'));
      try {
        const usages = readUsages(keyUsages);
        return operation('importKey', () => importKey(f, data, alg, Boolean(extractable), usages));
      } finally {
        if (f !== 'jwk') wipe(data);
      }
    });
  },
  exportKey(format, key) {
    return promise(() => {
      const f = readFormat(format);
      checkKey(key, 'key');
      if (!known(key)) return platform('exportKey', this, [format, key]);
      return operation('exportKey', () => exportKey(f, key));
    });
  },
  // WebIDL converts the arguments, then the algorithm is normalized (its
  // getters run, its context is copied), then the bytes are copied: the
  // spec's order since w3c/webcrypto#426, so that nothing a getter does
  // reaches the bytes after their copy.
  sign(algorithm, key, data) {
    return promise(() => {
      const s = known(key);
      if (!s) return unknownKey('sign', this, [algorithm, key, data]);
      bufferSource(data, 'data');
      const alg = mlDsaAlgorithm(algorithm);
      if (!alg) return s.native ? platform('sign', this, [algorithm, key, data]) : otherAlgorithm('sign', this, [algorithm, key, data], 1);
      const context = readContext(alg);
      const bytes = copyBufferSource(data);
      return operation('sign', () => sign(alg, key, context, bytes));
    });
  },
  verify(algorithm, key, signature, data) {
    return promise(() => {
      const s = known(key);
      if (!s) return unknownKey('verify', this, [algorithm, key, signature, data]);
      bufferSource(signature, 'signature');
      bufferSource(data, 'data');
      const alg = mlDsaAlgorithm(algorithm);
      if (!alg)
        return s.native ? platform('verify', this, [algorithm, key, signature, data]) : otherAlgorithm('verify', this, [algorithm, key, signature, data], 1);
      const context = readContext(alg);
      const sig = copyBufferSource(signature);
      const bytes = copyBufferSource(data);
      return operation('verify', () => verify(alg, key, context, sig, bytes));
    });
  },
  getPublicKey(key, keyUsages) {
    return promise(() => {
      checkKey(key, 'key');
      if (!known(key)) return platform('getPublicKey', this, [key, keyUsages]);
      const usages = readUsages(keyUsages);
      return operation('getPublicKey', () => getPublicKey(key, usages));
    });
  },
};

/**
 * sign or verify with a key this module does not know: the platform's call,
 * except for a platform key of another algorithm with an ML-DSA algorithm,
 * which the spec's steps refuse after normalizing the algorithm (which
 * succeeds: ML-DSA is supported here) with an InvalidAccessError, where a
 * platform without ML-DSA would refuse its name (NotSupportedError).
 */
function unknownKey(name, self, args) {
  const key = args[1];
  if (!isPlatformKey(key) || NAMES.includes(apply(platformKeyAlgorithm, key, []).name)) return platform(name, self, args);
  for (let i = 2; i < args.length; i++) bufferSource(args[i], i === 2 && name === 'verify' ? 'signature' : 'data');
  const alg = mlDsaAlgorithm(args[0]);
  if (!alg) return platform(name, self, args);
  readContext(alg);
  throw fail('InvalidAccessError', `${name}: the key is not an ${alg.name} key`);
}
const ML_DSA_METHODS = ['generateKey', 'importKey', 'exportKey', 'sign', 'verify', 'getPublicKey'];

// ---------------------------------------------------------------- the methods ML-DSA has no use for
//
// Given one of our keys, each answers as the spec's steps do for a key whose
// algorithm does not match: first the errors of normalizing its algorithms
// (NotSupportedError, or a TypeError of WebIDL), then InvalidAccessError.
// Only the platform can normalize algorithms other than ML-DSA, so the call
// goes to it with our key replaced by a platform key that fails the same
// checks: a public key with no usages. wrapKey may also be given one of our
// keys to wrap: after the wrapping key and algorithm pass the platform's
// checks (with an extractable stand-in to wrap), the spec's steps for the
// key to wrap run (extractable, then the format), and then it is refused
// (NotSupportedError): our keys are not wrapped.

// The argument that is the key performing each operation.
const KEY_ARGUMENT = {
  __proto__: null,
  encrypt: 1,
  decrypt: 1,
  deriveBits: 1,
  deriveKey: 1,
  wrapKey: 2,
  unwrapKey: 2,
  encapsulateKey: 1,
  encapsulateBits: 1,
  decapsulateKey: 1,
  decapsulateBits: 1,
};
const PASS_THROUGH = [
  'encrypt',
  'decrypt',
  'digest',
  'deriveKey',
  'deriveBits',
  'wrapKey',
  'unwrapKey',
  'encapsulateKey',
  'encapsulateBits',
  'decapsulateKey',
  'decapsulateBits',
];

let standIns; // a promise of { unusable, wrappable }: platform keys, made at the first need
function getStandIns() {
  if (standIns === undefined) {
    const generate = (algorithm, usages) => apply(PLATFORM.generateKey, platformSubtle, [algorithm, true, usages]);
    standIns = (async () => {
      const { publicKey } = await generate({ name: 'ECDSA', namedCurve: 'P-256' }, ['sign']);
      const wrappable = await generate({ name: 'HMAC', hash: 'SHA-256', length: 256 }, ['sign']);
      return { unusable: publicKey, wrappable };
    })();
    standIns.catch(() => (standIns = undefined)); // tried again at the next need
  }
  return standIns;
}

/** The platform's method `name` with `args`, our key at `at` (and, for wrapKey, at 1) replaced by a stand-in. */
async function standingIn(name, self, args, at) {
  if (!PLATFORM[name] || !PLATFORM.generateKey || !platformSubtle) return platform(name, self, args);
  const { unusable, wrappable } = await getStandIns();
  const list = [];
  for (let i = 0; i < args.length; i++) list[i] = args[i];
  if (name === 'wrapKey' || name === 'unwrapKey') list[0] = 'raw'; // the stand-ins' format; ours was read already
  if (name === 'wrapKey') list[1] = wrappable;
  if (at !== undefined) list[at] = unusable;
  return platform(name, self, list);
}

/** sign or verify with one of our keys and an algorithm other than ML-DSA. */
async function otherAlgorithm(name, self, args, at) {
  await standingIn(name, self, args, at);
  throw fail('InvalidAccessError', `${name}: the key is an ML-DSA key`); // (the stand-in fails first)
}

function passThrough(name, self, args) {
  const at = KEY_ARGUMENT[name];
  const usesOurs = at !== undefined && isOurs(args[at]);
  const wrapsOurs = name === 'wrapKey' && isOurs(args[1]);
  if (!usesOurs && !wrapsOurs) return platform(name, self, args);
  return promise(async () => {
    const format = name === 'wrapKey' || name === 'unwrapKey' ? readFormat(args[0]) : undefined;
    await standingIn(name, self, args, usesOurs ? at : undefined);
    if (usesOurs) throw fail('InvalidAccessError', `${name}: the key is an ML-DSA key`); // (the stand-in fails first)
    checkExport(state(args[1]), format, 'wrapKey');
    throw fail('NotSupportedError', 'wrapKey: keys of mldsa-simd are not wrapped (export the key and encrypt it)');
  });
}

for (const name of PASS_THROUGH) {
  methods[name] = {
    [name](...args) {
      return passThrough(name, this, args);
    },
  }[name];
}

const ML_DSA_OPERATIONS = ['sign', 'verify', 'generateKey', 'importKey', 'exportKey', 'getPublicKey'];

/**
 * SubtleCrypto.supports(operation, algorithm, lengthOrAdditionalAlgorithm)
 * for ML-DSA; other algorithms are answered by the platform's `supports`
 * where it has one, else false.
 */
function supports(operation, algorithm, lengthOrAdditional) {
  let alg;
  try {
    alg = mlDsaAlgorithm(algorithm);
    // A context longer than 255 bytes: sign and verify refuse it.
    if (alg && (operation === 'sign' || operation === 'verify') && readContext(alg).length > 255) return false;
  } catch {
    return false;
  }
  // Other algorithms, and ML-DSA where the package cannot run: the platform's answer.
  if (!alg || !isSupported()) return platformSupports ? apply(platformSupports, globalThis.SubtleCrypto, [operation, algorithm, lengthOrAdditional]) : false;
  return holds(ML_DSA_OPERATIONS, domString(operation));
}

/** A SubtleCrypto with ML-DSA; everything else goes to the platform's crypto.subtle. */
export const subtle = freeze({
  ...Object.fromEntries(Object.keys(methods).map((name) => [name, (...args) => apply(methods[name], undefined, args)])),
  supports,
  [Symbol.toStringTag]: 'SubtleCrypto',
});

let installed = false;

/**
 * Makes globalThis.crypto.subtle handle ML-DSA where the platform does not:
 * the SubtleCrypto prototype's generateKey, importKey, exportKey, sign,
 * verify and getPublicKey take ML-DSA algorithms and this package's keys and
 * pass everything else on; its other methods that take keys answer for ours
 * as the spec does; and SubtleCrypto.supports answers for ML-DSA. A
 * platform that has ML-DSA already is left alone, unless `force` is set; so
 * is every platform where this package cannot run (isSupported() of the main
 * API is false: no WebAssembly, or a policy that refuses it), whose
 * crypto.subtle stays as it is. Resolves to whether it installed (true also
 * when already installed).
 */
export async function install({ force = false } = {}) {
  if (installed) return true;
  if (!SubtleProto || !platformSubtle)
    throw fail('NotSupportedError', 'install: this platform has no crypto.subtle (WebCrypto needs a secure context in browsers)');
  if (!isSupported()) return false;
  if (!force && (await platformHasMlDsa())) return false;
  // Ours, and those of the platform's other methods that take keys.
  for (const name of Object.keys(methods))
    if (ML_DSA_METHODS.includes(name) || (KEY_ARGUMENT[name] !== undefined && PLATFORM[name] !== undefined))
      defineProperty(SubtleProto, name, { value: methods[name], writable: true, configurable: true, enumerable: true });
  defineProperty(globalThis.SubtleCrypto, 'supports', { value: supports, writable: true, configurable: true });
  installed = true;
  return true;
}

async function platformHasMlDsa() {
  if (platformSupports) {
    try {
      return apply(platformSupports, globalThis.SubtleCrypto, ['sign', NAMES[0]]) === true;
    } catch {}
  }
  try {
    await apply(PLATFORM.generateKey, platformSubtle, [NAMES[0], false, ['sign']]);
    return true;
  } catch {
    return false;
  }
}

export { CryptoKey };

// ---------------------------------------------------------------- sealed records (for mldsa-simd/keystore)
//
// Our keys cannot be cloned into IndexedDB, so mldsa-simd/keystore stores a
// record of each instead: its attributes, and its key material (a private
// key's seed, a public key's bytes) encrypted with AES-GCM under a platform
// key, with the attributes and a label of the caller's (where the record is
// kept) as the additional data, so that a record altered in storage, or
// moved, does not open. A private key's public key is computed again from
// its seed. The wrapping key must be a non-extractable AES-GCM key, so that
// sealing is never a way to a seed under a key whose bytes can be read out
// of the browser. (It is no barrier to a script that may decrypt with that
// key: the keystore's documentation says what it protects.) Calls go to the
// platform's methods as they were at load.

const platformKeyGetter = (name) => (PlatformCryptoKey ? getter(PlatformCryptoKey.prototype, name) : undefined);
const platformKeyAlgorithm = platformKeyGetter('algorithm');
const platformKeyExtractable = platformKeyGetter('extractable');
const textEncoder = typeof TextEncoder === 'function' ? new TextEncoder() : undefined;
const encodeText = textEncoder && TextEncoder.prototype.encode;
const jsonText = JSON.stringify;

/** `label` as a string (once), or a TypeError naming it. */
function readLabel(label, op) {
  try {
    return domString(label);
  } catch {
    throw new TypeError(`${op}: label: expected a string`);
  }
}

/** The platform's `method` (encrypt or decrypt) with AES-GCM under `wrappingKey`, a non-extractable AES-GCM key, for record `r`. */
function aesGcm(op, method, wrappingKey, r, label, data) {
  if (!isPlatformKey(wrappingKey)) throw new TypeError(`${op}: wrappingKey: expected a platform CryptoKey`);
  if (apply(platformKeyAlgorithm, wrappingKey, []).name !== 'AES-GCM' || apply(platformKeyExtractable, wrappingKey, []))
    throw fail('InvalidAccessError', `${op}: wrappingKey must be a non-extractable AES-GCM key`);
  // The attributes and the label, as JSON (which ends where it ends).
  const additionalData = apply(encodeText, textEncoder, [jsonText(['mldsa-simd sealed key', r.version, r.algorithm, r.type, r.extractable, r.usages, label])]);
  return apply(PLATFORM[method], platformSubtle, [{ name: 'AES-GCM', iv: r.iv, additionalData }, wrappingKey, data]);
}

/**
 * A record of one of our keys, sealed under `wrappingKey` (a non-extractable
 * AES-GCM platform key with the usage "encrypt") with `label`: plain data,
 * which IndexedDB can store. The copy of the seed encrypted is wiped.
 */
export async function sealKey(key, wrappingKey, label = '') {
  if (!isOurs(key)) throw new TypeError("sealKey: key: expected a CryptoKey of mldsa-simd's own (a platform CryptoKey needs no sealing)");
  const s = state(key);
  label = readLabel(label, 'sealKey');
  const r = { version: 1, algorithm: s.set, type: s.type, extractable: s.extractable, usages: copyList(s.usages), iv: new U8(12) };
  apply(getRandomValues, cryptoObject, [r.iv]);
  const plain = copy(s.seed ?? s.publicKey);
  try {
    r.sealed = new U8(await aesGcm('sealKey', 'encrypt', wrappingKey, r, label, plain));
    return r;
  } finally {
    wipe(plain);
  }
}

/**
 * The key a record of sealKey holds, opened with the same `wrappingKey`
 * (with the usage "decrypt") and `label`: the same type, algorithm,
 * extractability, usages and key material. A record that is not as sealKey
 * wrote it (altered, or sealed under another key or label) is a DataError.
 */
export async function unsealKey(record, wrappingKey, label = '') {
  const refused = (cause) => fail('DataError', 'unsealKey: the record does not open (altered, or sealed under another key or label)', cause);
  label = readLabel(label, 'unsealKey');
  const { version, algorithm, type, extractable, usages, iv, sealed } = record ?? {};
  let uses;
  try {
    uses = jsonText(usages);
  } catch (e) {
    throw refused(e);
  }
  if (
    version !== 1 ||
    !NAMES.includes(algorithm) ||
    typeof extractable !== 'boolean' ||
    !(iv instanceof U8) ||
    !(sealed instanceof U8) ||
    !(type === 'private' ? uses === '["sign"]' : type === 'public' && (uses === '[]' || uses === '["verify"]'))
  )
    throw refused();
  const r = { version, algorithm, type, extractable, usages: uses === '[]' ? [] : [type === 'private' ? 'sign' : 'verify'], iv: copy(iv) };
  let plain;
  try {
    plain = new U8(await aesGcm('unsealKey', 'decrypt', wrappingKey, r, label, copy(sealed)));
  } catch (e) {
    throw e?.name === 'OperationError' ? refused(e) : e;
  }
  const length = apply(taByteLength, plain, []);
  if (type === 'public') {
    if (length !== PARAMS[algorithm.slice(-2)].publicKey) throw refused();
    return makeKey(algorithm, type, extractable, r.usages, plain);
  }
  let publicKey;
  try {
    if (length !== 32) throw refused();
    publicKey = await operation('unsealKey', () => {
      const k = SETS[algorithm].keygen(plain);
      wipe(k.secretKey);
      wipe(k.seed);
      return k.publicKey;
    });
  } catch (e) {
    wipe(plain);
    throw e;
  }
  return makeKey(algorithm, type, extractable, r.usages, publicKey, plain);
}
