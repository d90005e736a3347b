// Verification with node:crypto (ML-DSA from Node 24): the callback form of
// crypto.verify runs on the libuv thread pool (UV_THREADPOOL_SIZE, default 4).
import crypto from 'node:crypto';
import { KeyLoadError, SIGNATURE_BYTES } from './keys.mjs';

const TYPES = { 'ml-dsa-44': 'ML-DSA-44', 'ml-dsa-65': 'ML-DSA-65', 'ml-dsa-87': 'ML-DSA-87' };

/** KeyObject and parameter set of a key source, or KeyLoadError. */
export function parseKey(source) {
  const name = `key "${source.kid}" (${source.origin})`;
  let key;
  try {
    // createPublicKey would also take a private key and derive its public key: a
    // trusted-key file must be a public key and nothing else.
    if (source.pem !== undefined && !/^\s*-----BEGIN PUBLIC KEY-----[^-]*-----END PUBLIC KEY-----\s*$/.test(source.pem))
      throw new Error('expected one -----BEGIN PUBLIC KEY----- block');
    key = source.jwk ? crypto.createPublicKey({ key: source.jwk, format: 'jwk' }) : crypto.createPublicKey(source.pem);
  } catch (e) {
    throw new KeyLoadError(`${name}: not an ML-DSA public key: ${e.message}`);
  }
  const alg = TYPES[key.asymmetricKeyType];
  if (!alg) throw new KeyLoadError(`${name}: not an ML-DSA public key (node:crypto reads it as ${key.asymmetricKeyType})`);
  if (source.jwk && source.jwk.alg !== alg) throw new KeyLoadError(`${name}: "alg" is ${source.jwk.alg} but the key is ${alg}`);
  return { alg, key };
}

export async function createBackend(sources) {
  if (!hasMlDsa()) throw new KeyLoadError(`node:crypto of Node ${process.version} has no ML-DSA (Node 24 has it)`);
  const keys = new Map(sources.map((s) => [s.kid, parseKey(s)]));
  const verifyOne = ({ kid, msg, sig, context }) =>
    new Promise((resolve, reject) => {
      const { key } = keys.get(kid);
      crypto.verify(null, msg, context ? { key, context } : key, sig, (err, ok) => (err ? reject(err) : resolve(ok)));
    });
  return {
    name: 'node-crypto',
    threads: Number(process.env.UV_THREADPOOL_SIZE) || 4,
    keys: new Map([...keys].map(([kid, k]) => [kid, { alg: k.alg, signatureBytes: SIGNATURE_BYTES[k.alg] }])),
    // Work handed to libuv cannot be cancelled; a timed-out request just stops waiting.
    verify: (items) => Promise.all(items.map(verifyOne)),
    close: async () => {},
  };
}

// Node before 24 does not know the key type (ERR_INVALID_ARG_VALUE); a keygen is a fraction of a millisecond.
function hasMlDsa() {
  try {
    crypto.generateKeyPairSync('ml-dsa-44');
    return true;
  } catch {
    return false;
  }
}
