// Compiled (never run) by compat-typescript.test.mjs under --strict in every
// project kind: the main API, the ./ml-dsa.js subpath, mldsa-simd/verify, mldsa-simd/keys, mldsa-simd/prehash,
// mldsa-simd/webcrypto, mldsa-simd/composite, mldsa-simd/worker and the task type of
// mldsa-simd/worker-task (which every condition declares), and the returned
// bytes where the platform takes a BufferSource or a BlobPart.
import { ml_dsa65 } from 'mldsa-simd';
import { ml_dsa44 } from 'mldsa-simd/ml-dsa.js';
import { exportPublicKey, exportSecretKey, importPublicKey, importSecretKey } from 'mldsa-simd/keys';
import type { ImportedSecretKey, MlDsaJwk } from 'mldsa-simd/keys';
import { sha512, shake256 } from 'mldsa-simd/prehash';
import { ml_dsa65 as verifyOnly } from 'mldsa-simd/verify';
import type { PrehashHash } from 'mldsa-simd/prehash';
import { install, subtle } from 'mldsa-simd/webcrypto';
import { composite, names } from 'mldsa-simd/composite';
import type { Composite, CompositeName } from 'mldsa-simd/composite';
import { createPool } from 'mldsa-simd/worker';
import type { WorkerTask } from 'mldsa-simd/worker-task';

const keys = ml_dsa65.keygen();
const msg = new TextEncoder().encode('typed');
const sig = ml_dsa65.sign(msg, keys.secretKey);
const ok: boolean = ml_dsa65.verify(sig, msg, keys.publicKey);
const k44 = ml_dsa44.keygen(new Uint8Array(32));
const ok44: boolean = ml_dsa44.verify(ml_dsa44.sign(msg, k44.secretKey, { extraEntropy: false }), msg, k44.publicKey);
const blob = new Blob([sig]);
// mldsa-simd/verify: the verifying half, with the same argument types; no sign.
const okVerifyOnly: boolean = verifyOnly.verify(sig, msg, keys.publicKey) && verifyOnly.prehash(sha512).verify(sig, msg, keys.publicKey);
// @ts-expect-error mldsa-simd/verify does not sign
verifyOnly.sign(msg, keys.secretKey);
// HashML-DSA takes a function of mldsa-simd/prehash; its digests are bytes the platform takes.
const hash: PrehashHash = shake256;
const phOk: boolean = ml_dsa65.prehash(sha512).verify(ml_dsa65.prehash(hash).sign(msg, keys.secretKey), msg, keys.publicKey);
const digests = new Blob([sha512(msg), hash.create().update(msg).update(sig).digest(), sha512.oid]);
// keygen's seed is the private key of the default export; PEM reads from a string or bytes;
// each format's overload gives its type (a string for PEM, a JWK object, bytes).
const pem: string = exportSecretKey(ml_dsa65, keys.seed, 'pem');
const imported: ImportedSecretKey = importSecretKey(ml_dsa65, new TextEncoder().encode(pem), 'pem');
const fromBytes: Uint8Array = imported.secretKey;
const jwk: MlDsaJwk = exportSecretKey(ml_dsa44, k44.seed, 'jwk');
const pub44: Uint8Array = importPublicKey(ml_dsa44, exportPublicKey(ml_dsa44, k44.publicKey, 'jwk'), 'jwk');
const both = new Blob([exportSecretKey(ml_dsa65, keys.seed, 'pkcs8', { form: 'both' })]);

export async function platformVerifies(): Promise<boolean> {
  const forced: boolean = await install({ force: true });
  const spki = exportPublicKey(ml_dsa65, keys.publicKey, 'spki');
  const key = await crypto.subtle.importKey('spki', spki, { name: 'ML-DSA-65' }, false, ['verify']);
  return forced && (await crypto.subtle.verify({ name: 'ML-DSA-65' }, key, sig, msg));
}

export async function oursVerifies(): Promise<boolean> {
  const pair = await subtle.generateKey('ML-DSA-65', false, ['sign', 'verify']);
  const s: ArrayBuffer = await subtle.sign({ name: 'ML-DSA-65' }, pair.privateKey, msg);
  return subtle.verify('ML-DSA-65', pair.publicKey, s, msg);
}

export async function pooled(): Promise<boolean> {
  const pool = createPool({ size: 1 });
  try {
    const pair = await pool.ml_dsa65.keygen();
    const s = await pool.ml_dsa65.sign(msg, pair.secretKey);
    new Blob([s, pair.publicKey]);
    return await pool.ml_dsa65.verify(s, msg, pair.publicKey);
  } finally {
    await pool.close();
  }
}

// Composite ML-DSA: async, over bytes the platform takes; PEM is a string.
export async function hybrid(): Promise<boolean> {
  const alg: Composite = composite('MLDSA65-Ed25519-SHA512');
  const { publicKey, secretKey } = await alg.keygen();
  const s = await alg.sign(msg, secretKey, { context: msg });
  const pem: string = alg.exportPublicKey(publicKey, 'pem');
  new Blob([s, alg.exportPublicKey(publicKey, 'spki'), alg.exportSecretKey(secretKey, 'pkcs8')]);
  const first: CompositeName = names[0];
  return (await alg.verify(s, msg, alg.importPublicKey(pem, 'pem'), { context: msg })) && alg.name === first;
}
// @ts-expect-error composite names are the draft's identifiers; plain ML-DSA is the main entry
composite('ML-DSA-65');
// @ts-expect-error a composite public key as PEM is a string
export const compositePem: Uint8Array = composite('MLDSA44-Ed25519-SHA512').exportPublicKey(keys.publicKey, 'pem');

// @ts-expect-error a message is bytes, not a string
ml_dsa65.sign('not bytes', keys.secretKey);
// @ts-expect-error the key formats take the parameter set first
importPublicKey(pem, 'pem');
// @ts-expect-error PEM is a string, not bytes, when written
export const notBytes: Uint8Array = exportPublicKey(ml_dsa65, keys.publicKey, 'pem');
// @ts-expect-error the internal interface is not a parameter set
exportPublicKey(ml_dsa65.internal, keys.publicKey, 'raw');
// @ts-expect-error prehash() takes a hash function of mldsa-simd/prehash, not its name
ml_dsa65.prehash('sha512');

export const task: WorkerTask = { set: 65, op: 'verify', args: [sig, msg, keys.publicKey] };
// @ts-expect-error a task names an operation of the synchronous API
export const unknownTask: WorkerTask = { set: 65, op: 'encrypt', args: [] };

export const summary = [ok, okVerifyOnly, ok44, blob.size, fromBytes.length, jwk.pub, pub44.length, both.size, phOk, digests.size];
