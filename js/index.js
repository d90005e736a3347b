/**
 * mldsa-simd: ML-DSA (FIPS 204) signatures from Rust compiled to WebAssembly
 * (simd128), with the API of `@noble/post-quantum/ml-dsa.js`.
 *
 * The algorithms live in the Rust crate (src/); the instance and the calls
 * into it in ./boundary.js, the argument reading in ./args.js, the key
 * formats in ./keys.js, the life of prepared keys in ./prepared.js and the
 * createSign/createVerify objects in ./incremental.js. This file builds the
 * three parameter-set objects on them and routes messages: a message up to
 * 64 KiB goes to wasm whole; a longer one, or one given in pieces, is hashed
 * into μ (or PH(M) for HashML-DSA) first, by the platform's SHAKE256 where it
 * has one (boundary.js); M′ of HashML-DSA (FIPS 204 Algorithms 4 and 5) is
 * built here. The instance is made at import, so there is no init call;
 * where the platform refuses WebAssembly the import still succeeds and
 * isSupported() says so.
 * @module
 */
import {
  apply, U8, taTag, u8Fill, u8Set, freeze, isSafeInteger, register, unregister, len,
  wasm, liveGeneration, PARAMS, SEED_BYTES, RND_BYTES, MU_BYTES, CHUNK, EMPTY,
  describe, readBytes, readLength, readSeedOrSecretKey, checkIntact, readOptions, readContext, readEntropy, readFlag,
  randomBytes, withRnd, part, absorb, streamed, eachChunk, nativeShake256, nativeShake256Start,
} from './boundary.js';
import { prepared } from './prepared.js';
import { incremental, wipeDropped } from './incremental.js';
import { NIST_HASH_OID_PREFIX, PREHASHES, SECRET_KEY_TR } from '../build/tables.js';

const SIGN_KEYS = freeze(['context', 'extraEntropy']);
const VERIFY_KEYS = freeze(['context']);
const ENTROPY_KEYS = freeze(['extraEntropy']);
const INTERNAL_SIGN_KEYS = freeze(['extraEntropy', 'externalMu']);
const INTERNAL_VERIFY_KEYS = freeze(['externalMu']);

// The pre-hash functions FIPS 204 §5.4 admits, [name, last OID byte, output bytes],
// from the Rust crate (build/tables.js): a hash function's .oid must be one of them.
const prehashBy = (i, value) => PREHASHES.find((e) => e[i] === value);

const mPrimeHeader = (ctx) => U8.of(0, len(ctx));

// A hash function (noble-hashes' shape, as mldsa-simd/prehash makes them) is called here.
// Returns { oid, digest(msgView) -> plain bytes, start() -> { update(view), digest() } }:
// `start` begins an incremental PH(M).
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
  if (!isSafeInteger(outputLen))
    throw new TypeError(`hash: expected .outputLen to be an integer, got ${describe(outputLen)}`);
  const wantLen = prehashBy(1, oid[10])?.[2];
  if (wantLen === undefined)
    throw new RangeError('hash: its .oid is a NIST hash OID, but not one of the pre-hash functions FIPS 204 admits');
  if (outputLen !== wantLen)
    throw new RangeError(`hash: a function with this .oid must output ${wantLen} bytes for HashML-DSA, got .outputLen ${outputLen}`);
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
    if (typeof create !== 'function')
      throw new TypeError('hash: streaming needs a hash function with create() (an incremental hasher)');
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
  const lengths = freeze({
    publicKey: pkLen,
    secretKey: skLen,
    signature: sigLen,
    seed: SEED_BYTES,
    signRand: RND_BYTES,
  });

  // The key pair of ξ, in new arrays.
  const keyPair = (xi) => {
    const publicKey = new U8(pkLen);
    const secretKey = new U8(skLen);
    wasm.keygen(ps, xi, publicKey, secretKey);
    return { publicKey, secretKey };
  };

  // noble's { publicKey, secretKey }, and the seed: a copy of the one given,
  // or the 32 fresh bytes drawn, which are the caller's from here on (wiped
  // only if keygen fails).
  const keygen = (seed) => {
    const xi = seed === undefined ? randomBytes('seed') : new U8(readLength(seed, SEED_BYTES, 'seed'));
    try {
      const { publicKey, secretKey } = keyPair(xi);
      return { publicKey, secretKey, seed: xi };
    } catch (e) {
      apply(u8Fill, xi, [0]);
      throw e;
    }
  };

  const getPublicKey = (secretKey) => wasm.public_key(ps, readLength(secretKey, skLen, 'secretKey'));

  // μ = H(tr ‖ parts…, 64) of a long message, by the platform's hash where
  // it can (boundary.js, nativeShake256; `tr` null: it cannot), else by the
  // wasm stream `wasmState()` holding the key's tr. tr is part of an encoded
  // secret key (SECRET_KEY_TR: FIPS 204 Algorithm 24), H(pk, 64) for a public key
  // (Algorithm 8, line 6).
  const muOf = (tr, parts, wasmState) => (tr && nativeShake256(tr, parts)) ?? streamed(wasmState(), parts);
  const trOfSecret = (sk) => part(sk, SECRET_KEY_TR[0], SECRET_KEY_TR[1]);
  const trOfPublic = (pk) => nativeShake256(pk, []);
  const muSecret = (sk, parts) => muOf(trOfSecret(sk), parts, () => wasm.stream_mu_secret(ps, sk));
  const muPublic = (pk, parts) => muOf(trOfPublic(pk), parts, () => wasm.stream_mu_public(ps, pk));

  // M′ = 0 ‖ |ctx| ‖ ctx ‖ M signed with a one-shot key; large messages via μ.

  const signPure = (msg, sk, ctx, rnd) => {
    if (len(msg) <= CHUNK) return wasm.sign(ps, sk, msg, ctx, rnd);
    return wasm.sign_mu(ps, sk, muSecret(sk, [mPrimeHeader(ctx), ctx, msg]), rnd);
  };

  const sign = (msg, secretKey, opts) => {
    const a = signArgs(msg, opts);
    const sk = readLength(secretKey, skLen, 'secretKey');
    return withRnd(a.options, a.rnd, (rnd) => signPure(a.msg, sk, a.ctx, rnd));
  };

  const verifyPure = (sig, msg, pk, ctx) => {
    if (len(sig) !== sigLen) return false;
    if (len(msg) <= CHUNK) return wasm.verify(ps, pk, msg, sig, ctx);
    return wasm.verify_mu(ps, pk, muPublic(pk, [mPrimeHeader(ctx), ctx, msg]), sig);
  };

  const verify = (sig, msg, publicKey, opts) => {
    const a = verifyArgs(sig, msg, opts);
    return verifyPure(a.sig, a.msg, readLength(publicKey, pkLen, 'publicKey'), a.ctx);
  };

  // What the ML-DSA, HashML-DSA and internal objects share, as in noble.
  const keyOps = { lengths, keygen, getPublicKey };

  // Incremental signing and verification, over a message mode: `open(ctx,
  // muState, trOf)` starts the hash of one message and returns { update(view),
  // sign(sk, rnd), verify(pk, sig) }, where muState() is a wasm μ state with
  // the key's tr, and trOf() gives tr itself (or null) for the platform's hash.
  // Every argument is copied when read, since the object outlives the call.
  const streaming = (open) => {
    const openSign = (secretKey, opts) => {
      const ctx = new U8(readContext(readOptions(opts, VERIFY_KEYS).context));
      const bytes = readSeedOrSecretKey(secretKey, skLen);
      const sk = len(bytes) === SEED_BYTES ? keyPair(bytes).secretKey : new U8(bytes);
      let msg;
      try {
        msg = open(ctx, () => wasm.stream_mu_secret(ps, sk), () => trOfSecret(sk));
      } catch (e) {
        apply(u8Fill, sk, [0]);
        throw e;
      }
      const close = () => {
        unregister(wipeDropped, object);
        apply(u8Fill, sk, [0]);
      };
      const readSign = (opts) => {
        const options = readOptions(opts, ENTROPY_KEYS);
        const given = readEntropy(options.extraEntropy);
        return { options, rnd: given && new U8(given) };
      };
      const finishSign = ({ options, rnd }) => {
        try {
          return withRnd(options, rnd, (r) => msg.sign(sk, r));
        } finally {
          if (rnd) apply(u8Fill, rnd, [0]);
        }
      };
      const object = incremental('createSign', msg.update, 'sign', readSign, finishSign, close);
      register(wipeDropped, object, sk);
      return { object, close };
    };
    const createSign = (secretKey, opts) => openSign(secretKey, opts).object;

    const createVerify = (publicKey, opts) => {
      const ctx = new U8(readContext(readOptions(opts, VERIFY_KEYS).context));
      const pk = new U8(readLength(publicKey, pkLen, 'publicKey'));
      const msg = open(ctx, () => wasm.stream_mu_public(ps, pk), () => trOfPublic(pk));
      const readSig = (sig) => new U8(readBytes(sig, 'signature'));
      return incremental('createVerify', msg.update, 'verify', readSig, (sig) => len(sig) === sigLen && msg.verify(pk, sig));
    };

    const signStream = async (source, secretKey, opts) => {
      const options = readOptions(opts, SIGN_KEYS);
      const given = readEntropy(options.extraEntropy);
      const { object, close } = openSign(secretKey, { context: options.context });
      const rnd = given && new U8(given);
      try {
        await eachChunk(source, object.update);
        return object.sign({ extraEntropy: rnd ?? options.extraEntropy });
      } finally {
        close();
        if (rnd) apply(u8Fill, rnd, [0]);
      }
    };

    const verifyStream = async (signature, source, publicKey, opts) => {
      const options = readOptions(opts, VERIFY_KEYS);
      const sig = new U8(readBytes(signature, 'signature'));
      const object = createVerify(publicKey, { context: options.context });
      await eachChunk(source, object.update);
      return object.verify(sig);
    };
    return { createSign, createVerify, signStream, verifyStream };
  };

  // Pure ML-DSA: μ = H(tr ‖ 0 ‖ |ctx| ‖ ctx ‖ M), then the μ paths of
  // Sign_internal and Verify_internal; hashed by the platform where it can
  // (trOf gives tr for that, or null).
  const pureStreaming = streaming((ctx, muState, trOf) => {
    const tr = trOf();
    const h = tr && nativeShake256Start(tr);
    if (h) {
      h.update(mPrimeHeader(ctx));
      h.update(ctx);
      return {
        update: h.update,
        sign: (sk, rnd) => wasm.sign_mu(ps, sk, h.digest(), rnd),
        verify: (pk, sig) => wasm.verify_mu(ps, pk, h.digest(), sig),
      };
    }
    const state = muState();
    absorb(state, mPrimeHeader(ctx));
    absorb(state, ctx);
    return {
      update: (bytes) => absorb(state, bytes),
      sign: (sk, rnd) => wasm.sign_mu(ps, sk, wasm.stream_finish(state), rnd),
      verify: (pk, sig) => wasm.verify_mu(ps, pk, wasm.stream_finish(state), sig),
    };
  });

  // The internal interface: M′ as given, or an external μ.
  const internalArgs = (opts, allowed) => {
    const options = readOptions(opts, allowed);
    const externalMu = readFlag(options.externalMu, 'externalMu');
    return { options, externalMu };
  };
  const readMOrMu = (mOrMu, externalMu) => (externalMu ? readLength(mOrMu, MU_BYTES, 'mu') : readBytes(mOrMu, 'msg'));

  const internal = freeze({
    info: freeze({ type: 'internal-ml-dsa' }),
    ...keyOps,
    sign: (mOrMu, secretKey, opts) => {
      const { options, externalMu } = internalArgs(opts, INTERNAL_SIGN_KEYS);
      const m = readMOrMu(mOrMu, externalMu);
      const given = readEntropy(options.extraEntropy);
      const sk = readLength(secretKey, skLen, 'secretKey');
      return withRnd(options, given, (rnd) => {
        if (externalMu) return wasm.sign_mu(ps, sk, m, rnd);
        if (len(m) <= CHUNK) return wasm.sign_internal(ps, sk, m, rnd);
        return wasm.sign_mu(ps, sk, muSecret(sk, [m]), rnd);
      });
    },
    verify: (sig, mOrMu, publicKey, opts) => {
      const { externalMu } = internalArgs(opts, INTERNAL_VERIFY_KEYS);
      const s = readBytes(sig, 'signature');
      const m = readMOrMu(mOrMu, externalMu);
      const pk = readLength(publicKey, pkLen, 'publicKey');
      if (len(s) !== sigLen) return false;
      if (externalMu) return wasm.verify_mu(ps, pk, m, s);
      if (len(m) <= CHUNK) return wasm.verify_internal(ps, pk, m, s);
      return wasm.verify_mu(ps, pk, muPublic(pk, [m]), s);
    },
  });

  const prehash = (hash) => {
    const { oid, digest, start } = resolveHash(hash);
    // PH(M), then M′. A caller's hash function runs code of its own: the views
    // read before it must still be whole afterwards.
    const mPrime = (msg, ctx, others) => {
      const d = digest(msg);
      // (Indexed, not iterated: the array iterator is a built-in a script could replace.)
      for (let i = 0; i < others.length; i++) checkIntact(others[i][0], others[i][1], others[i][2]);
      return hashMPrime(ctx, oid, d);
    };
    // HashML-DSA: PH(M) in pieces, then M′ = 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M) signed
    // as one-shot prehash().sign does. (The object holds its own copies of every
    // argument, so the caller's hash code cannot change them.)
    const hashStreaming = streaming((ctx) => {
      const h = start();
      return {
        update: h.update,
        sign: (sk, rnd) => wasm.sign_internal(ps, sk, hashMPrime(ctx, oid, h.digest()), rnd),
        verify: (pk, sig) => wasm.verify_internal(ps, pk, hashMPrime(ctx, oid, h.digest()), sig),
      };
    });
    return freeze({
      info: freeze({ type: 'hashml-dsa' }),
      securityLevel,
      ...keyOps,
      ...hashStreaming,
      sign: (msg, secretKey, opts) => {
        const a = signArgs(msg, opts);
        const sk = readLength(secretKey, skLen, 'secretKey');
        const views = [[sk, skLen, 'secretKey'], [a.ctx, len(a.ctx), 'context'], [a.rnd ?? EMPTY, a.rnd ? RND_BYTES : 0, 'extraEntropy']];
        return withRnd(a.options, a.rnd, (rnd) => wasm.sign_internal(ps, sk, mPrime(a.msg, a.ctx, views), rnd));
      },
      verify: (sig, msg, publicKey, opts) => {
        const a = verifyArgs(sig, msg, opts);
        const pk = readLength(publicKey, pkLen, 'publicKey');
        if (len(a.sig) !== sigLen) return false;
        const views = [[pk, pkLen, 'publicKey'], [a.sig, sigLen, 'signature'], [a.ctx, len(a.ctx), 'context']];
        return wasm.verify_internal(ps, pk, mPrime(a.msg, a.ctx, views), a.sig);
      },
    });
  };

  // Prepared keys: the key bytes stay here, the expanded key in a slot of the
  // instance's bounded pool (src/wasm/prepared.rs), made again from the bytes when the
  // pool has evicted it.
  // From a secret key or a 32-byte seed; a seed is what the signer keeps.
  const signer = (secretKey) => {
    const bytes = readSeedOrSecretKey(secretKey, skLen);
    const fromSeed = len(bytes) === SEED_BYTES;
    const own = new U8(bytes);
    // tr for the platform's hash: in a secret key, not in a seed (then wasm hashes).
    const tr = fromSeed ? null : trOfSecret(own);
    const make = fromSeed ? (b) => wasm.prepare_signer_seed(ps, b) : (b) => wasm.prepare_signer(ps, b);
    return prepared('signer', own, true, make, (handle) => ({
      sign(msg, opts) {
        const a = signArgs(msg, opts);
        // handle() at each use: code between two uses (the platform's hash,
        // the first draw of randomness) can fail and replace the instance,
        // and a handle is only valid in the instance it was made in.
        return withRnd(a.options, a.rnd, (rnd) => {
          if (len(a.msg) <= CHUNK) return wasm.signer_sign(handle(), a.msg, a.ctx, rnd);
          const mu = muOf(tr, [mPrimeHeader(a.ctx), a.ctx, a.msg], () => wasm.signer_stream_mu(handle()));
          return wasm.signer_sign_mu(handle(), mu, rnd);
        });
      },
    }));
  };

  const verifier = (publicKey) => {
    const own = new U8(readLength(publicKey, pkLen, 'publicKey'));
    let tr; // H(pk, 64) by the platform's hash, at the first long message (null: wasm hashes)
    return prepared('verifier', own, false, (pk) => wasm.prepare_verifier(ps, pk), (handle) => ({
      verify(sig, msg, opts) {
        const a = verifyArgs(sig, msg, opts);
        if (len(a.sig) !== sigLen) {
          handle(); // (after free(), an Error even for a signature of the wrong length)
          return false;
        }
        if (len(a.msg) <= CHUNK) return wasm.verifier_verify(handle(), a.msg, a.sig, a.ctx);
        if (tr === undefined) tr = trOfPublic(own);
        const mu = muOf(tr, [mPrimeHeader(a.ctx), a.ctx, a.msg], () => wasm.verifier_stream_mu(handle()));
        return wasm.verifier_verify_mu(handle(), mu, a.sig);
      },
    }));
  };

  return freeze({
    info: freeze({ type: 'ml-dsa' }),
    internal,
    securityLevel,
    ...keyOps,
    sign,
    verify,
    ...pureStreaming,
    prehash,
    signer,
    verifier,
  });
}

/** ML-DSA-44 (NIST security category 2). */
export const ml_dsa44 = /* @__PURE__ */ makeMlDsa(44);
/** ML-DSA-65 (NIST security category 3). */
export const ml_dsa65 = /* @__PURE__ */ makeMlDsa(65);
/** ML-DSA-87 (NIST security category 5). */
export const ml_dsa87 = /* @__PURE__ */ makeMlDsa(87);

/** Whether the package can run here (false where the platform refused WebAssembly at import; see index.d.ts). */
export { isSupported } from './boundary.js';

/** Bytes of WebAssembly linear memory the shared instance holds (diagnostics; it never shrinks). */
export const wasmMemoryBytes = () => wasm.memory_bytes();
/** Bytes of that memory not on its allocator's free list (diagnostics; see index.d.ts). */
export const wasmMemoryInUse = () => wasm.memory_in_use();
