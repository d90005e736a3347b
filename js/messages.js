/**
 * Messages on their way to wasm, for signing and verification alike: what
 * wasm is given for a message, as { kind, m, ctx } for the sign and verify
 * exports (src/bindings/wasm/mod.rs): a message up to CHUNK (64 KiB) goes whole, with
 * its context (MESSAGE) or as M′ (M_PRIME); a longer one, or one given in
 * pieces, is hashed into μ = H(tr ‖ M′, 64) first (MU, FIPS 204 Algorithm 7
 * line 6, Algorithm 8 line 7), by the platform's SHAKE256 where it has one
 * (./native-hash.js), else by a wasm stream. HashML-DSA's M′ (Algorithms 4 and 5)
 * is built here with PH(M) from the caller's hash function. This is the one
 * place that decides where a message is hashed.
 * @module
 */
import {
  apply,
  U8,
  taTag,
  u8Set,
  isSafeInteger,
  len,
  wasm,
  MESSAGE,
  M_PRIME,
  MU,
  MU_BYTES,
  CHUNK,
  EMPTY,
  describe,
  readBytes,
  readLength,
  checkIntact,
  readOptions,
  readFlag,
  part,
  absorb,
  streamed,
} from './boundary.js';
import { nativeShake256, nativeShake256Start } from './native-hash.js';
import { NIST_HASH_OID_PREFIX, PREHASHES, SECRET_KEY_TR } from '../build/tables.js';

/** The first two bytes of M′ for pure ML-DSA: 0 ‖ |ctx| (FIPS 204 Algorithms 2 and 3). */
const mPrimeHeader = (ctx) => U8.of(0, len(ctx));

// ---------------------------------------------------------------- μ
// μ = H(tr ‖ parts…, 64), by the platform's hash where it can (`tr` null: it
// cannot), else by the wasm stream `wasmState()` holding the key's tr. tr is
// part of an encoded secret key (SECRET_KEY_TR: FIPS 204 Algorithm 24), and
// H(pk, 64) for a public key (Algorithm 8, line 6).
const muOf = (tr, parts, wasmState) => (tr && nativeShake256(tr, parts)) ?? streamed(wasmState(), parts);
const trOfSecret = (sk) => part(sk, SECRET_KEY_TR[0], SECRET_KEY_TR[1]);
const trOfPublic = (pk) => nativeShake256(pk, []);

// ---------------------------------------------------------------- one call
// `mu(parts)` gives μ of M′ = parts… for the key in use.

/** Pure ML-DSA: M with its context, or μ of M′ = 0 ‖ |ctx| ‖ ctx ‖ M. */
const pureMessage = (msg, ctx, mu) => (len(msg) <= CHUNK ? { kind: MESSAGE, m: msg, ctx } : { kind: MU, m: mu([mPrimeHeader(ctx), ctx, msg]), ctx: EMPTY });

/** The internal interface: μ as given (externalMu), M′ as given, or μ of M′. */
const internalMessage = (m, externalMu, mu) =>
  externalMu || len(m) > CHUNK ? { kind: MU, m: externalMu ? m : mu([m]), ctx: EMPTY } : { kind: M_PRIME, m, ctx: EMPTY };

/** The options of the internal interface, and whether its message is an external μ. */
function readInternal(opts, allowed) {
  const options = readOptions(opts, allowed);
  return { options, externalMu: readFlag(options.externalMu, 'externalMu') };
}

/** The message argument of the internal interface: M′, or a 64-byte μ. */
const readMOrMu = (mOrMu, externalMu) => (externalMu ? readLength(mOrMu, MU_BYTES, 'mu') : readBytes(mOrMu, 'msg'));

// ---------------------------------------------------------------- HashML-DSA

// The pre-hash functions FIPS 204 §5.4 admits, [name, last OID byte, output bytes],
// from the Rust crate (build/tables.js): a hash function's .oid must be one of them.
const prehashBy = (i, value) => PREHASHES.find((e) => e[i] === value);

/**
 * A hash function in noble-hashes' shape (as mldsa-simd/prehash makes them),
 * checked and read once: { oid, digest(msgView) -> plain bytes, start() ->
 * { update(view), digest() } }, where `start` begins an incremental PH(M).
 */
function resolveHash(hash) {
  if (typeof hash === 'string')
    throw new TypeError(
      `hash: expected a hash function, got a string of ${hash.length} characters; the named pre-hash functions are ` +
        'the exports of mldsa-simd/prehash: pass prehash(sha512), with sha512 imported from there',
    );
  if (typeof hash !== 'function') throw new TypeError(`hash: expected a hash function, got ${describe(hash)}`);
  const oidValue = hash.oid;
  const outputLen = hash.outputLen;
  const create = hash.create;
  const badOid = 'hash: expected a hash function whose .oid is a NIST hash OID (06 09 60 86 48 01 65 03 04 02 xx)';
  if (apply(taTag, oidValue, []) !== 'Uint8Array') throw new TypeError(badOid);
  const oid = new U8(readBytes(oidValue, 'hash.oid')); // a copy: read once, kept
  if (len(oid) !== 11 || NIST_HASH_OID_PREFIX.some((b, i) => oid[i] !== b)) throw new TypeError(badOid);
  if (!isSafeInteger(outputLen)) throw new TypeError(`hash: expected .outputLen to be an integer, got ${describe(outputLen)}`);
  const wantLen = prehashBy(1, oid[10])?.[2];
  if (wantLen === undefined) throw new RangeError('hash: its .oid is a NIST hash OID, but not one of the pre-hash functions FIPS 204 admits');
  if (outputLen !== wantLen) throw new RangeError(`hash: a function with this .oid must output ${wantLen} bytes for HashML-DSA, got .outputLen ${outputLen}`);
  const calling = (f) => {
    try {
      return f();
    } catch (e) {
      // The caller's function failed (for example on a buffer it detached
      // itself): say so, with its error as the cause (not in the message,
      // which could then carry bytes of an argument).
      const Kind = e instanceof RangeError ? RangeError : TypeError;
      throw new Kind('hash: the pre-hash function threw (its error is the cause)', { cause: e });
    }
  };
  const output = (out) => {
    const isU8 = apply(taTag, out, []) === 'Uint8Array';
    const bytes = isU8 ? readBytes(out, 'hash output') : undefined;
    if (!isU8 || len(bytes) !== outputLen)
      throw new TypeError(`hash: expected the hash function to return ${outputLen} bytes, got ${isU8 ? len(bytes) + ' bytes' : describe(out)}`);
    return bytes;
  };
  const digest = (msg) => output(calling(() => hash(msg)));
  // noble-hashes' incremental interface: create() -> { update(bytes), digest() }.
  const start = () => {
    if (typeof create !== 'function') throw new TypeError('hash: streaming needs a hash function with create() (an incremental hasher)');
    const h = calling(() => apply(create, hash, []));
    return { update: (bytes) => calling(() => h.update(bytes)), digest: () => output(calling(() => h.digest())) };
  };
  return { oid, digest, start };
}

// M′ of HashML-DSA (FIPS 204 Algorithms 4 and 5): 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M).
function hashMPrime(ctx, oid, digest) {
  const out = new U8(2 + len(ctx) + len(oid) + len(digest));
  out[0] = 1;
  out[1] = len(ctx);
  apply(u8Set, out, [ctx, 2]);
  apply(u8Set, out, [oid, 2 + len(ctx)]);
  apply(u8Set, out, [digest, 2 + len(ctx) + len(oid)]);
  return out;
}

/**
 * HashML-DSA's M′ for `msg`, hashed by the caller's function (`hash`, from
 * resolveHash). That function runs code of its own: `views`, [view, length,
 * name] of each argument read before it, must still be whole afterwards.
 */
function hashMessage(hash, msg, ctx, views) {
  const d = hash.digest(msg);
  // (Indexed, not iterated: the array iterator is a built-in a script could replace.)
  for (let i = 0; i < views.length; i++) checkIntact(views[i][0], views[i][1], views[i][2]);
  return { kind: M_PRIME, m: hashMPrime(ctx, hash.oid, d), ctx: EMPTY };
}

// ---------------------------------------------------------------- streams
// A message given in pieces: `open(ctx, muState, trOf)` starts the hash of
// one message and returns { update(view), message() }, message() giving what
// wasm signs or verifies; muState() is a wasm μ state with the key's tr, and
// trOf() gives tr itself (or null) for the platform's hash.

/**
 * Pure ML-DSA: μ = H(tr ‖ 0 ‖ |ctx| ‖ ctx ‖ M), then the μ paths of
 * Sign_internal and Verify_internal; hashed by the platform where it can.
 */
function pureStream(ctx, muState, trOf) {
  const tr = trOf();
  const h = tr && nativeShake256Start(tr);
  if (h) {
    h.update(mPrimeHeader(ctx));
    h.update(ctx);
    return { update: h.update, message: () => ({ kind: MU, m: h.digest(), ctx: EMPTY }) };
  }
  const state = muState();
  absorb(state, mPrimeHeader(ctx));
  absorb(state, ctx);
  return { update: (bytes) => absorb(state, bytes), message: () => ({ kind: MU, m: wasm.stream_finish(state), ctx: EMPTY }) };
}

/**
 * HashML-DSA with `hash` (from resolveHash): PH(M) in pieces, then M′ =
 * 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M), signed or verified whole.
 */
const hashStream = (hash) => (ctx) => {
  const h = hash.start();
  return { update: h.update, message: () => ({ kind: M_PRIME, m: hashMPrime(ctx, hash.oid, h.digest()), ctx: EMPTY }) };
};

export { muOf, trOfSecret, trOfPublic, pureMessage, internalMessage, readInternal, readMOrMu, resolveHash, hashMessage, pureStream, hashStream };
