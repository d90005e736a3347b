/**
 * Verification for one parameter set: verify, the internal interface's
 * verify, HashML-DSA's verify, createVerify/verifyStream and the prepared
 * verifier. The main entry (./index.js) puts these beside the signing side
 * (./signing.js); mldsa-simd/verify (./verify.js) ships them alone, with a
 * .wasm that cannot sign.
 * @module
 */
import { U8, freeze, len, wasm, PARAMS, readBytes, readLength, readOptions, readContext, eachChunk } from './boundary.js';
import { muOf, trOfPublic, pureMessage, internalMessage, readInternal, readMOrMu, hashMessage, pureStream, hashStream } from './messages.js';
import { prepared } from './prepared.js';
import { incremental } from './incremental.js';

const VERIFY_KEYS = freeze(['context']);
const INTERNAL_VERIFY_KEYS = freeze(['externalMu']);

/** The arguments every verify reads, in noble's order: options, then the bytes. */
function verifyArgs(sig, msg, opts) {
  const options = readOptions(opts, VERIFY_KEYS);
  return { sig: readBytes(sig, 'signature'), msg: readBytes(msg, 'msg'), ctx: readContext(options.context) };
}

function verifying(ps) {
  const { publicKey: pkLen, signature: sigLen } = PARAMS[ps];
  // μ of M′ for a public key (see messages.js).
  const muFor = (pk) => (parts) => muOf(trOfPublic(pk), parts, () => wasm.stream_mu(ps, pk, false));
  const run = (pk, x, sig) => wasm.verify(ps, pk, x.kind, x.m, sig, x.ctx);

  const verify = (sig, msg, publicKey, opts) => {
    const a = verifyArgs(sig, msg, opts);
    const pk = readLength(publicKey, pkLen, 'publicKey');
    return len(a.sig) === sigLen && run(pk, pureMessage(a.msg, a.ctx, muFor(pk)), a.sig);
  };

  const internalVerify = (sig, mOrMu, publicKey, opts) => {
    const { externalMu } = readInternal(opts, INTERNAL_VERIFY_KEYS);
    const s = readBytes(sig, 'signature');
    const m = readMOrMu(mOrMu, externalMu);
    const pk = readLength(publicKey, pkLen, 'publicKey');
    return len(s) === sigLen && run(pk, internalMessage(m, externalMu, muFor(pk)), s);
  };

  // Incremental verification over a message mode `open` (messages.js). Every
  // argument is copied when read, since the object outlives the call.
  const streams = (open) => {
    const createVerify = (publicKey, opts) => {
      const ctx = new U8(readContext(readOptions(opts, VERIFY_KEYS).context));
      const pk = new U8(readLength(publicKey, pkLen, 'publicKey'));
      const msg = open(
        ctx,
        () => wasm.stream_mu(ps, pk, false),
        () => trOfPublic(pk),
      );
      const readSig = (sig) => new U8(readBytes(sig, 'signature'));
      return incremental('createVerify', msg.update, 'verify', readSig, (sig) => len(sig) === sigLen && run(pk, msg.message(), sig));
    };
    const verifyStream = async (signature, source, publicKey, opts) => {
      const options = readOptions(opts, VERIFY_KEYS);
      const sig = new U8(readBytes(signature, 'signature'));
      const object = createVerify(publicKey, { context: options.context });
      await eachChunk(source, object.update);
      return object.verify(sig);
    };
    return { createVerify, verifyStream };
  };

  // HashML-DSA with a resolved hash function (messages.js resolveHash).
  const prehash = (hash) => ({
    ...streams(hashStream(hash)),
    verify: (sig, msg, publicKey, opts) => {
      const a = verifyArgs(sig, msg, opts);
      const pk = readLength(publicKey, pkLen, 'publicKey');
      if (len(a.sig) !== sigLen) return false;
      const views = [
        [pk, pkLen, 'publicKey'],
        [a.sig, sigLen, 'signature'],
        [a.ctx, len(a.ctx), 'context'],
      ];
      return run(pk, hashMessage(hash, a.msg, a.ctx, views), a.sig);
    },
  });

  // The prepared verifier: the key bytes stay here, the expanded key in a
  // slot of the instance's bounded pool (./prepared.js).
  const verifier = (publicKey) => {
    const own = new U8(readLength(publicKey, pkLen, 'publicKey'));
    let tr; // H(pk, 64) by the platform's hash, at the first long message (null: wasm hashes)
    return prepared(
      'verifier',
      own,
      false,
      (pk) => wasm.prepare_verifier(ps, pk),
      (handle) => ({
        verify(sig, msg, opts) {
          const a = verifyArgs(sig, msg, opts);
          if (len(a.sig) !== sigLen) {
            handle(); // (after free(), an Error even for a signature of the wrong length)
            return false;
          }
          const x = pureMessage(a.msg, a.ctx, (parts) => {
            if (tr === undefined) tr = trOfPublic(own);
            return muOf(tr, parts, () => wasm.prepared_stream_mu(handle()));
          });
          return wasm.verifier_verify(handle(), x.kind, x.m, a.sig, x.ctx);
        },
      }),
    );
  };

  return { verify, internalVerify, prehash, verifier, ...streams(pureStream) };
}

export { verifying };
