// Demo keys and signed requests, for make-demo.mjs, the load test and the tests:
// alice (ML-DSA-65) and bob (ML-DSA-44) as PEM files in DIR/keys, carol (ML-DSA-87)
// in DIR/jwks.json. The secret keys stay in memory; wipe() clears them.
import fs from 'node:fs';
import path from 'node:path';
import { ml_dsa44, ml_dsa65, ml_dsa87 } from 'mldsa-simd';
import { exportPublicKey } from 'mldsa-simd/keys';

const text = (s) => (typeof s === 'string' ? new TextEncoder().encode(s) : s);
const b64 = (bytes) => Buffer.from(bytes).toString('base64');

export function makeDemo(dir) {
  const people = { alice: ml_dsa65, bob: ml_dsa44, carol: ml_dsa87 };
  const keys = {};
  for (const [kid, set] of Object.entries(people)) keys[kid] = { set, ...set.keygen() };
  fs.mkdirSync(path.join(dir, 'keys'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'keys/alice.pem'), exportPublicKey(ml_dsa65, keys.alice.publicKey, 'pem'));
  fs.writeFileSync(path.join(dir, 'keys/bob.pem'), exportPublicKey(ml_dsa44, keys.bob.publicKey, 'pem'));
  const carol = { ...exportPublicKey(ml_dsa87, keys.carol.publicKey, 'jwk'), kid: 'carol', use: 'sig' };
  fs.writeFileSync(path.join(dir, 'jwks.json'), JSON.stringify({ keys: [carol] }, null, 2) + '\n');

  const sign = (kid, msg, context) => keys[kid].set.sign(msg, keys[kid].secretKey, context ? { context } : undefined);
  return {
    keysDir: path.join(dir, 'keys'),
    jwksFile: path.join(dir, 'jwks.json'),
    publicKeys: Object.fromEntries(Object.entries(keys).map(([kid, k]) => [kid, k.publicKey])),
    /** Raw signature of `message` (string or bytes) by `kid`. */
    sign: (kid, message, context) => sign(kid, text(message), context && text(context)),
    /** A JSON request item {kid, msg, sig, context?}. */
    item(kid, message, context) {
      const msg = text(message);
      const ctx = context && text(context);
      return { kid, msg: b64(msg), sig: b64(sign(kid, msg, ctx)), ...(ctx ? { context: b64(ctx) } : {}) };
    },
    /** A binary record: u32 BE message length ‖ message ‖ signature. */
    record(kid, message, signature) {
      const msg = text(message);
      const len = Buffer.alloc(4);
      len.writeUInt32BE(msg.length);
      return Buffer.concat([len, msg, signature ?? sign(kid, msg)]);
    },
    wipe() {
      for (const k of Object.values(keys)) k.secretKey.fill(0);
    },
  };
}
