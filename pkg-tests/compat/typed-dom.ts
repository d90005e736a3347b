// Compiled (with typed.ts) in the projects whose lib has the DOM: the keys of
// mldsa-simd/webcrypto are assignable where the DOM's CryptoKey and
// CryptoKeyPair are expected (the platform's crypto.subtle takes them), and
// the DOM's keys where ours are.
import { subtle } from 'mldsa-simd/webcrypto';

export async function domKeys(): Promise<boolean> {
  const data = new Uint8Array([1, 2, 3]);
  const pair: CryptoKeyPair = await subtle.generateKey('ML-DSA-65', false, ['sign', 'verify']);
  const privateKey: CryptoKey = pair.privateKey;
  const imported: CryptoKey = await subtle.importKey('raw-public', new Uint8Array(1952), 'ML-DSA-65', true, ['verify']);
  const fromPrivate: CryptoKey = await subtle.getPublicKey(privateKey, ['verify']);
  const signature = await crypto.subtle.sign({ name: 'ML-DSA-65' }, privateKey, data);
  const ecdsa = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const theirs: ArrayBuffer = await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, ecdsa.privateKey, data);
  const keys: CryptoKey[] = [imported, fromPrivate, ecdsa.publicKey];
  return keys.length === 3 && theirs.byteLength > 0 && (await subtle.verify('ML-DSA-65', pair.publicKey, signature, data));
}
