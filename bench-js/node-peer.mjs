// The Node-only parts of the benchmark peers, shared by bench.mjs and
// big.mjs (core.mjs also runs in the browser page): node:crypto as a peer,
// its keys imported from raw FIPS 204 bytes, and the random source that
// liboqs-js's Emscripten runtime reads in Node.
import nodeCrypto from 'node:crypto';

// DER around raw FIPS 204 bytes (RFC 9881: id-ml-dsa-44/65/87 =
// 2.16.840.1.101.3.4.3.17/18/19, no parameters; the private key is the
// CHOICE seed [0] IMPLICIT OCTET STRING or expandedKey OCTET STRING).
function der(tag, body) {
  const n = body.length;
  const len = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...len]), Buffer.from(body)]);
}
const OID_ARC = { 44: 0x11, 65: 0x12, 87: 0x13 };
const algorithmId = (set) => der(0x30, der(0x06, [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, OID_ARC[set]]));
const spki = (set, publicKey) => der(0x30, Buffer.concat([algorithmId(set), der(0x03, Buffer.concat([Buffer.from([0]), publicKey]))]));
const pkcs8 = (set, privateKey) => der(0x30, Buffer.concat([der(0x02, [0]), algorithmId(set), der(0x04, privateKey)]));

export function nodeCryptoShaped() {
  return (set) => {
    const type = `ml-dsa-${set}`;
    const rawPublicKey = (keyObject) => {
      const d = keyObject.export({ format: 'der', type: 'spki' });
      return new Uint8Array(d.subarray(d.length - (set === 44 ? 1312 : set === 65 ? 1952 : 2592)));
    };
    return {
      // OpenSSL draws the seed itself; the result includes the KeyObjects' creation.
      keygen: () => nodeCrypto.generateKeyPairSync(type),
      publicKeyOf: (seed) =>
        rawPublicKey(nodeCrypto.createPublicKey(nodeCrypto.createPrivateKey({ key: pkcs8(set, der(0x80, seed)), format: 'der', type: 'pkcs8' }))),
      signer: (secretKey) => {
        const key = nodeCrypto.createPrivateKey({ key: pkcs8(set, der(0x04, secretKey)), format: 'der', type: 'pkcs8' });
        return (msg) => nodeCrypto.sign(null, msg, key);
      },
      verifier: (publicKey) => {
        const key = nodeCrypto.createPublicKey({ key: spki(set, publicKey), format: 'der', type: 'spki' });
        return (sig, msg) => nodeCrypto.verify(null, msg, key, sig);
      },
    };
  };
}

// liboqs-js's Emscripten runtime calls require('node:crypto').randomFillSync
// for randomness, looking the property up at each call; see liboqsShaped().
export function fixNodeRandom(fill) {
  const original = nodeCrypto.randomFillSync;
  nodeCrypto.randomFillSync = fill;
  return () => {
    nodeCrypto.randomFillSync = original;
  };
}
