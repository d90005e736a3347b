// A piscina worker: prepared verifiers for every trusted key, made at start.
import { workerData } from 'piscina';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from 'mldsa-simd';

const SETS = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };
const verifiers = new Map(workerData.keys.map((k) => [k.kid, SETS[k.alg].verifier(k.publicKey)]));

/** items: [{ kid, msg, sig, context? }] with kids the service has checked; → booleans. */
export default function verify(items) {
  return items.map(({ kid, msg, sig, context }) => {
    const verifier = verifiers.get(kid);
    if (!verifier) throw new Error(`kid: no verifier for "${kid}" in this worker`);
    return verifier.verify(sig, msg, context ? { context } : undefined);
  });
}

/** The start-up check: the module loaded and made its verifiers. */
export function ready() {
  return verifiers.size;
}
