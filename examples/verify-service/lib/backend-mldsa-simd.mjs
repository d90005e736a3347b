// Verification with mldsa-simd on a piscina worker pool: the event loop only
// parses requests; each worker holds a prepared verifier (ml_dsaXX.verifier) per
// trusted key, made once when the worker starts.
import os from 'node:os';
import { Piscina } from 'piscina';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from 'mldsa-simd';
import { KeyLoadError, SIGNATURE_BYTES } from './keys.mjs';

const SETS = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };
// Items per worker task: a large batch is spread over the workers, and a small one
// does not pay a message round trip per item.
const CHUNK = 16;

/** Raw public key and parameter set of a key source, or KeyLoadError. */
export function parseKey(source) {
  const name = `key "${source.kid}" (${source.origin})`;
  if (source.jwk) {
    try {
      return { alg: source.jwk.alg, publicKey: SETS[source.jwk.alg].importPublicKey(source.jwk, 'jwk') };
    } catch (e) {
      throw new KeyLoadError(`${name}: not an ML-DSA public key: ${e.message}`);
    }
  }
  // A PEM file does not say its set outside the DER: the set that reads it is the one.
  let first;
  for (const [alg, set] of Object.entries(SETS)) {
    try {
      return { alg, publicKey: set.importPublicKey(source.pem, 'pem') };
    } catch (e) {
      first ??= e;
    }
  }
  throw new KeyLoadError(`${name}: not an ML-DSA public key: ${first.message}`);
}

/**
 * @param {Array} sources from readKeySources()
 * @param {{ threads?: number }} options
 */
export async function createBackend(sources, { threads = os.availableParallelism() } = {}) {
  const keys = sources.map((s) => ({ kid: s.kid, ...parseKey(s) }));
  const pool = new Piscina({
    filename: new URL('./worker-mldsa-simd.mjs', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    // The service bounds the pending work itself (maxPending); piscina's queue must not refuse first.
    maxQueue: Infinity,
    workerData: { keys },
  });
  // A worker that cannot load mldsa-simd or make its verifiers fails here, before the
  // service listens, rather than on the first request.
  await Promise.all(Array.from({ length: threads }, () => pool.run(null, { name: 'ready' })));
  return {
    name: 'mldsa-simd',
    threads,
    keys: new Map(keys.map((k) => [k.kid, { alg: k.alg, signatureBytes: SIGNATURE_BYTES[k.alg] }])),
    async verify(items, { signal } = {}) {
      const tasks = [];
      for (let i = 0; i < items.length; i += CHUNK) tasks.push(pool.run(items.slice(i, i + CHUNK), { signal }));
      return (await Promise.all(tasks)).flat();
    },
    close: () => pool.close(),
  };
}
