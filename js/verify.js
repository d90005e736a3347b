/**
 * mldsa-simd/verify: verification alone, for pages and services that only
 * verify: the verifying side of each parameter-set object of the main entry
 * (./verifying.js), with noble's shape, over a .wasm built without the
 * exports that make keys or sign (the crate's `verify-only` feature), so
 * that nothing of signing is downloaded. Its instance is its own: a page that
 * imports both entries has two.
 * @module
 */
import { freeze, wasm, lengthsOf, PARAMS } from './boundary.js';
import { resolveHash } from './messages.js';
import { verifying } from './verifying.js';

function makeVerifier(ps) {
  const { securityLevel } = PARAMS[ps];
  const lengths = lengthsOf(ps);
  const v = verifying(ps);
  const internal = freeze({ info: freeze({ type: 'internal-ml-dsa' }), lengths, verify: v.internalVerify });
  const prehash = (hash) => {
    const hv = v.prehash(resolveHash(hash));
    return freeze({
      info: freeze({ type: 'hashml-dsa' }),
      securityLevel,
      lengths,
      createVerify: hv.createVerify,
      verifyStream: hv.verifyStream,
      verify: hv.verify,
    });
  };
  return freeze({
    info: freeze({ type: 'ml-dsa' }),
    internal,
    securityLevel,
    lengths,
    verify: v.verify,
    createVerify: v.createVerify,
    verifyStream: v.verifyStream,
    prehash,
    verifier: v.verifier,
  });
}

/** ML-DSA-44 verification (NIST security category 2). */
export const ml_dsa44 = /* @__PURE__ */ makeVerifier(44);
/** ML-DSA-65 verification (NIST security category 3). */
export const ml_dsa65 = /* @__PURE__ */ makeVerifier(65);
/** ML-DSA-87 verification (NIST security category 5). */
export const ml_dsa87 = /* @__PURE__ */ makeVerifier(87);

/** Whether the package can run here (as in the main entry). */
export { isSupported } from './boundary.js';

/** Bytes of WebAssembly linear memory this entry's instance holds (diagnostics). */
export const wasmMemoryBytes = () => wasm.memory_bytes();
/** Bytes of that memory not on its allocator's free list (diagnostics). */
export const wasmMemoryInUse = () => wasm.memory_in_use();
