/**
 * mldsa-simd: ML-DSA (FIPS 204) signatures from Rust compiled to WebAssembly
 * (simd128), with the API of `@noble/post-quantum/ml-dsa.js`.
 *
 * The algorithms live in the Rust crate (src/); the instance and the calls
 * into it in ./boundary.js, the argument reading in ./args.js, where a
 * message is hashed in ./messages.js, key generation and signing in
 * ./signing.js, verification in ./verifying.js (which mldsa-simd/verify,
 * ./verify.js, ships alone), the life of prepared keys in ./prepared.js and
 * the createSign/createVerify objects in ./incremental.js; the key formats
 * (mldsa-simd/keys) are ./keys.js, over this module. This file puts the two
 * sides together into noble's three parameter-set objects. The instance is
 * made at import, so there is no init call; where the platform refuses
 * WebAssembly the import still succeeds and isSupported() says so.
 * @module
 */
import { freeze, wasm, lengthsOf, PARAMS } from './boundary.js';
import { resolveHash } from './messages.js';
import { signing } from './signing.js';
import { verifying } from './verifying.js';

function makeMlDsa(ps) {
  const { securityLevel } = PARAMS[ps];
  const lengths = lengthsOf(ps);
  const s = signing(ps);
  const v = verifying(ps);
  // What the ML-DSA, HashML-DSA and internal objects share, as in noble.
  const keyOps = { lengths, keygen: s.keygen, getPublicKey: s.getPublicKey };
  const internal = freeze({ info: freeze({ type: 'internal-ml-dsa' }), ...keyOps, sign: s.internalSign, verify: v.internalVerify });
  const prehash = (hash) => {
    const h = resolveHash(hash);
    const hs = s.prehash(h);
    const hv = v.prehash(h);
    return freeze({
      info: freeze({ type: 'hashml-dsa' }),
      securityLevel,
      ...keyOps,
      createSign: hs.createSign,
      createVerify: hv.createVerify,
      signStream: hs.signStream,
      verifyStream: hv.verifyStream,
      sign: hs.sign,
      verify: hv.verify,
    });
  };
  return freeze({
    info: freeze({ type: 'ml-dsa' }),
    internal,
    securityLevel,
    ...keyOps,
    sign: s.sign,
    verify: v.verify,
    createSign: s.createSign,
    createVerify: v.createVerify,
    signStream: s.signStream,
    verifyStream: v.verifyStream,
    prehash,
    signer: s.signer,
    verifier: v.verifier,
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
