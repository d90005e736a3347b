/**
 * Key generation and signing for one parameter set: keygen, getPublicKey,
 * sign, the internal interface's sign, HashML-DSA's sign,
 * createSign/signStream and the prepared signer. The main entry
 * (./index.js) puts these beside the verification side (./verifying.js).
 * @module
 */
import {
  apply,
  U8,
  u8Fill,
  freeze,
  register,
  unregister,
  len,
  wasm,
  wasmSign,
  PARAMS,
  SEED_BYTES,
  RND_BYTES,
  EMPTY,
  readBytes,
  readLength,
  readSeedOrSecretKey,
  readOptions,
  readContext,
  readEntropy,
  randomBytes,
  withRnd,
  eachChunk,
} from './boundary.js';
import { muOf, trOfSecret, pureMessage, internalMessage, readInternal, readMOrMu, hashMessage, pureStream, hashStream } from './messages.js';
import { prepared } from './prepared.js';
import { incremental, wipeDropped } from './incremental.js';

const SIGN_KEYS = freeze(['context', 'extraEntropy']);
const CONTEXT_KEYS = freeze(['context']);
const ENTROPY_KEYS = freeze(['extraEntropy']);
const INTERNAL_SIGN_KEYS = freeze(['extraEntropy', 'externalMu']);

/** The arguments every sign reads, in noble's order: options, then the bytes. */
function signArgs(msg, opts) {
  const options = readOptions(opts, SIGN_KEYS);
  const m = readBytes(msg, 'msg');
  return { options, msg: m, ctx: readContext(options.context), rnd: readEntropy(options.extraEntropy) };
}

function signing(ps) {
  const { secretKey: skLen } = PARAMS[ps];
  // μ of M′ for a secret key (see messages.js).
  const muFor = (sk) => (parts) => muOf(trOfSecret(sk), parts, () => wasm.stream_mu(ps, sk, true));
  const run = (sk, x, rnd) => wasmSign.sign(ps, sk, x.kind, x.m, x.ctx, rnd);

  // The key pair of ξ, in new arrays.
  const keyPair = (xi) => wasmSign.keygen(ps, xi);

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

  const getPublicKey = (secretKey) => wasmSign.public_key(ps, readLength(secretKey, skLen, 'secretKey'));

  const sign = (msg, secretKey, opts) => {
    const a = signArgs(msg, opts);
    const sk = readLength(secretKey, skLen, 'secretKey');
    return withRnd(a.options, a.rnd, (rnd) => run(sk, pureMessage(a.msg, a.ctx, muFor(sk)), rnd));
  };

  const internalSign = (mOrMu, secretKey, opts) => {
    const { options, externalMu } = readInternal(opts, INTERNAL_SIGN_KEYS);
    const m = readMOrMu(mOrMu, externalMu);
    const given = readEntropy(options.extraEntropy);
    const sk = readLength(secretKey, skLen, 'secretKey');
    return withRnd(options, given, (rnd) => run(sk, internalMessage(m, externalMu, muFor(sk)), rnd));
  };

  // Incremental signing over a message mode `open` (messages.js). Every
  // argument is copied when read, since the object outlives the call; the
  // copy of the key is wiped when the object finishes, or by wipeDropped when
  // it is dropped before.
  const streams = (open) => {
    const openSign = (secretKey, opts) => {
      const ctx = new U8(readContext(readOptions(opts, CONTEXT_KEYS).context));
      const bytes = readSeedOrSecretKey(secretKey, skLen);
      const sk = len(bytes) === SEED_BYTES ? keyPair(bytes).secretKey : new U8(bytes);
      let msg;
      try {
        msg = open(
          ctx,
          () => wasm.stream_mu(ps, sk, true),
          () => trOfSecret(sk),
        );
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
          return withRnd(options, rnd, (r) => run(sk, msg.message(), r));
        } finally {
          if (rnd) apply(u8Fill, rnd, [0]);
        }
      };
      const object = incremental('createSign', msg.update, 'sign', readSign, finishSign, close);
      register(wipeDropped, object, sk);
      return { object, close };
    };
    const createSign = (secretKey, opts) => openSign(secretKey, opts).object;
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
    return { createSign, signStream };
  };

  // HashML-DSA with a resolved hash function (messages.js resolveHash).
  const prehash = (hash) => ({
    ...streams(hashStream(hash)),
    sign: (msg, secretKey, opts) => {
      const a = signArgs(msg, opts);
      const sk = readLength(secretKey, skLen, 'secretKey');
      const views = [
        [sk, skLen, 'secretKey'],
        [a.ctx, len(a.ctx), 'context'],
        [a.rnd ?? EMPTY, a.rnd ? RND_BYTES : 0, 'extraEntropy'],
      ];
      return withRnd(a.options, a.rnd, (rnd) => run(sk, hashMessage(hash, a.msg, a.ctx, views), rnd));
    },
  });

  // The prepared signer, from a secret key or a 32-byte seed (a seed is what
  // it keeps): the key bytes stay here, the expanded key in a slot of the
  // instance's bounded pool (./prepared.js).
  const signer = (secretKey) => {
    const bytes = readSeedOrSecretKey(secretKey, skLen);
    const fromSeed = len(bytes) === SEED_BYTES;
    const own = new U8(bytes);
    // tr for the platform's hash: in a secret key, not in a seed (then wasm hashes).
    const tr = fromSeed ? null : trOfSecret(own);
    return prepared(
      'signer',
      own,
      true,
      (b) => wasmSign.prepare_signer(ps, b, fromSeed),
      (handle) => ({
        sign(msg, opts) {
          const a = signArgs(msg, opts);
          // handle() at each use: code between two uses (the platform's hash,
          // the first draw of randomness) can fail and replace the instance,
          // and a handle is only valid in the instance it was made in.
          return withRnd(a.options, a.rnd, (rnd) => {
            const x = pureMessage(a.msg, a.ctx, (parts) => muOf(tr, parts, () => wasm.prepared_stream_mu(handle())));
            return wasmSign.signer_sign(ps, handle(), x.kind, x.m, x.ctx, rnd);
          });
        },
      }),
    );
  };

  return { keygen, getPublicKey, sign, internalSign, prehash, signer, ...streams(pureStream) };
}

export { signing };
