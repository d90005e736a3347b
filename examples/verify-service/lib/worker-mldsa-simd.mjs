// A piscina worker: prepared verifiers for every trusted key, made at start.
import { workerData } from 'piscina';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from 'mldsa-simd';

const SETS = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };
const verifiers = new Map(workerData.keys.map((k) => [k.kid, SETS[k.alg].verifier(k.publicKey)]));

/**
 * A task of packTask() (backend-mldsa-simd.mjs): the records' msg, sig and context
 * bytes one after another in `bytes`, kids the service has checked; → booleans.
 */
export default function verify({ bytes, kids, lengths }) {
  const all = new Uint8Array(bytes);
  let at = 0;
  const take = (n) => all.subarray(at, (at += n));
  return kids.map((kid, i) => {
    const msg = take(lengths[3 * i]);
    const sig = take(lengths[3 * i + 1]);
    const context = take(lengths[3 * i + 2]);
    const verifier = verifiers.get(kid);
    if (!verifier) throw new Error(`kid: no verifier for "${kid}" in this worker`);
    // An empty context is FIPS 204's default: the same as none.
    return verifier.verify(sig, msg, context.length ? { context } : undefined);
  });
}

/** The start-up check: the module loaded and made its verifiers. */
export function ready() {
  return verifiers.size;
}
