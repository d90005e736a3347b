// Reading the trusted keys: PEM files in a directory (kid = file name without
// .pem) and/or a JWKS document (RFC 7517) of ML-DSA keys (RFC 9964). This module
// only reads and checks the files' shape; each backend parses the keys with its
// own library and refuses what is not an ML-DSA public key.
import fs from 'node:fs';
import path from 'node:path';

/** Signature length of each parameter set (FIPS 204, Table 2): the binary framing needs it. */
export const SIGNATURE_BYTES = Object.freeze({ 'ML-DSA-44': 2420, 'ML-DSA-65': 3309, 'ML-DSA-87': 4627 });
export const ALGORITHMS = Object.freeze(Object.keys(SIGNATURE_BYTES));

const MAX_KEY_FILE = 64 * 1024; // a PEM ML-DSA-87 key is under 4 KiB
const MAX_JWKS_FILE = 16 * 1024 * 1024;
const MAX_KID = 256;

/** Refusal of a trusted-key source at start; `message` says which key and why. */
export class KeyLoadError extends Error {
  name = 'KeyLoadError';
}

/**
 * @param {{ keysDir?: string, jwksFile?: string }} where
 * @returns {Array<{ kid: string, origin: string, pem?: string, jwk?: object }>}
 */
export function readKeySources({ keysDir, jwksFile } = {}) {
  if (!keysDir && !jwksFile) throw new KeyLoadError('no keys: give a directory of PEM files (--keys) and/or a JWKS file (--jwks)');
  const sources = [];
  if (keysDir) sources.push(...readPemDir(keysDir));
  if (jwksFile) sources.push(...readJwks(jwksFile));
  const seen = new Map();
  for (const s of sources) {
    if (seen.has(s.kid)) throw new KeyLoadError(`key "${s.kid}": defined twice (${seen.get(s.kid)} and ${s.origin})`);
    seen.set(s.kid, s.origin);
  }
  if (sources.length === 0) throw new KeyLoadError(`no keys found in ${[keysDir, jwksFile].filter(Boolean).join(' or ')}`);
  return sources;
}

function readPemDir(dir) {
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch (e) {
    throw new KeyLoadError(`--keys ${dir}: ${e.code === 'ENOENT' ? 'no such directory' : e.message}`);
  }
  return names
    .filter((n) => n.endsWith('.pem') && !n.startsWith('.'))
    .sort()
    .map((name) => {
      const file = path.join(dir, name);
      const kid = name.slice(0, -'.pem'.length);
      checkKid(kid, file);
      return { kid, origin: file, pem: readText(file, MAX_KEY_FILE) };
    });
}

function readJwks(file) {
  let doc;
  try {
    doc = JSON.parse(readText(file, MAX_JWKS_FILE));
  } catch (e) {
    if (e instanceof KeyLoadError) throw e;
    throw new KeyLoadError(`--jwks ${file}: not JSON (${e.message})`);
  }
  if (!isObject(doc) || !Array.isArray(doc.keys)) throw new KeyLoadError(`--jwks ${file}: expected a JWK Set, {"keys": [...]}`);
  return doc.keys.map((jwk, i) => {
    const where = `${file} keys[${i}]`;
    if (!isObject(jwk)) throw new KeyLoadError(`${where}: not an object`);
    if (typeof jwk.kid !== 'string') throw new KeyLoadError(`${where}: no "kid" (each trusted key needs one)`);
    checkKid(jwk.kid, where);
    const name = `key "${jwk.kid}" (${where})`;
    // A trusted-key set is public; a private part here means the file leaks a secret.
    if ('priv' in jwk || 'd' in jwk) throw new KeyLoadError(`${name}: has a private part; a set of trusted keys holds public keys only`);
    if (jwk.use !== undefined && jwk.use !== 'sig') throw new KeyLoadError(`${name}: "use" is ${JSON.stringify(jwk.use)}, not "sig"`);
    if (jwk.key_ops !== undefined && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes('verify')))
      throw new KeyLoadError(`${name}: "key_ops" does not allow "verify"`);
    if (!ALGORITHMS.includes(jwk.alg))
      throw new KeyLoadError(`${name}: not an ML-DSA key ("alg" must be ${ALGORITHMS.join(', ')}; got ${JSON.stringify(jwk.alg)})`);
    return { kid: jwk.kid, origin: where, jwk };
  });
}

function readText(file, max) {
  let fd;
  try {
    fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    if (size > max) throw new KeyLoadError(`${file}: ${size} bytes, more than a key file can be (${max})`);
    return fs.readFileSync(fd, 'utf8');
  } catch (e) {
    if (e instanceof KeyLoadError) throw e;
    throw new KeyLoadError(`${file}: ${e.message}`);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function checkKid(kid, where) {
  // The kid travels in URLs and logs: printable, bounded.
  if (kid.length === 0 || kid.length > MAX_KID || /[\u0000-\u001f\u007f]/.test(kid))
    throw new KeyLoadError(`${where}: kid must be 1 to ${MAX_KID} characters without control characters`);
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
