// The μ of a long message (more than 64 KiB, or any message given in pieces)
// hashed by the platform's own SHAKE256 (node:crypto) instead of the wasm one
// (js/boundary.js, nativeShake256): the signature must be the one the external-μ path gives for
// μ = SHAKE256(tr ‖ M′) computed by @noble/hashes, noble must accept it, and
// the hash is used only after it gave our digest for a probe. A node:crypto
// whose SHAKE256 lies or throws (patched before the first long message) must
// leave every result unchanged: the package falls back to its own.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { shake256 } from '@noble/hashes/sha3.js';
import { ml_dsa44 as n44, ml_dsa65 as n65, ml_dsa87 as n87 } from '@noble/post-quantum/ml-dsa.js';
import { IMPL, SETS, consumerDir, lib } from './lib/load.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const NOBLE = { ml_dsa44: n44, ml_dsa65: n65, ml_dsa87: n87 };
const LONG = (1 << 20) + 3; // over the 64 KiB of one call, and not a multiple of it

function message(n, salt) {
  const m = new Uint8Array(n);
  for (let i = 0; i < n; i++) m[i] = (i * 31 + salt + (i >> 9)) & 255;
  return m;
}

const cat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};

test('long messages: the signature of μ = SHAKE256(tr ‖ M′) as noble-hashes computes it, in both directions', { skip }, () => {
  for (const P of SETS) {
    const ours = lib[P.key];
    const { publicKey, secretKey } = ours.keygen(new Uint8Array(32).fill(P.k));
    const ctx = Uint8Array.of(1, 2, 3);
    const msg = message(LONG, P.k);
    const tr = shake256(publicKey, { dkLen: 64 });
    assert.deepEqual(tr, secretKey.subarray(64, 128), `${P.name}: tr in the secret key`);
    const mu = shake256(cat(tr, Uint8Array.of(0, ctx.length), ctx, msg), { dkLen: 64 });
    const sig = ours.sign(msg, secretKey, { context: ctx, extraEntropy: false });
    assert.deepEqual(sig, ours.internal.sign(mu, secretKey, { externalMu: true, extraEntropy: false }), `${P.name}: sign`);
    assert.equal(NOBLE[P.key].verify(sig, msg, publicKey, { context: ctx }), true, `${P.name}: noble verifies ours`);
    assert.equal(ours.verify(sig, msg, publicKey, { context: ctx }), true, `${P.name}: verify`);
    const other = msg.slice();
    other[LONG - 1] ^= 1;
    assert.equal(ours.verify(sig, other, publicKey, { context: ctx }), false, `${P.name}: last byte flipped`);
    assert.equal(ours.verify(sig, msg, publicKey), false, `${P.name}: another context`);
    const theirs = NOBLE[P.key].sign(other, secretKey, { extraEntropy: false });
    assert.equal(ours.verify(theirs, other, publicKey), true, `${P.name}: ours verifies noble's`);
    // M′ given whole (the internal interface) takes the same path.
    const mPrime = cat(Uint8Array.of(0, ctx.length), ctx, msg);
    assert.deepEqual(ours.internal.sign(mPrime, secretKey, { extraEntropy: false }), sig, `${P.name}: internal sign of M′`);
    assert.equal(ours.internal.verify(sig, mPrime, publicKey), true, `${P.name}: internal verify of M′`);
    // In pieces, and with prepared keys (from the secret key and from the seed).
    const pieces = (object) => {
      for (let i = 0; i < LONG; i += 100_000) object.update(msg.subarray(i, i + 100_000));
      return object;
    };
    const seed = new Uint8Array(32).fill(P.k);
    for (const key of [secretKey, seed])
      assert.deepEqual(pieces(ours.createSign(key, { context: ctx })).sign({ extraEntropy: false }), sig, `${P.name}: createSign`);
    assert.equal(pieces(ours.createVerify(publicKey, { context: ctx })).verify(sig), true, `${P.name}: createVerify`);
    assert.equal(pieces(ours.createVerify(publicKey, { context: ctx })).verify(theirs), false, `${P.name}: createVerify, another message`);
    for (const key of [secretKey, seed]) {
      const signer = ours.signer(key);
      assert.deepEqual(signer.sign(msg, { context: ctx, extraEntropy: false }), sig, `${P.name}: signer`);
      signer.free();
    }
    const verifier = ours.verifier(publicKey);
    assert.equal(verifier.verify(sig, msg, { context: ctx }), true, `${P.name}: verifier`);
    assert.equal(verifier.verify(sig, other, { context: ctx }), false, `${P.name}: verifier, last byte flipped`);
    assert.equal(verifier.verify(theirs, other), true, `${P.name}: verifier, noble's`);
    verifier.free();
  }
});

// A child Node process that patches node:crypto first (`patch`), then imports
// the package and prints what long-message sign and verify gave, and how
// often createHash was called.
function child(patch) {
  const code = `
    const c = process.getBuiltinModule('node:crypto');
    const created = c.createHash;
    let calls = 0;
    c.createHash = function (...a) { calls++; return created.apply(this, a); };
    // The byte lengths of the buffers under every view handed to the hash.
    const proto = Object.getPrototypeOf(created('shake256'));
    const realUpdate = proto.update;
    const buffers = new Set();
    proto.update = function (b) { buffers.add(b.buffer.byteLength); return realUpdate.apply(this, arguments); };
    ${patch}
    const { ml_dsa65 } = await import('mldsa-simd');
    const seed = new Uint8Array(32).fill(5);
    const { publicKey, secretKey } = ml_dsa65.keygen(seed);
    const msg = new Uint8Array(${LONG});
    for (let i = 0; i < msg.length; i++) msg[i] = (i * 7) & 255;
    const small = ml_dsa65.sign(msg.subarray(0, 1000), secretKey, { extraEntropy: false });
    ml_dsa65.verify(small, msg.subarray(0, 1000), publicKey);
    const afterSmall = calls;
    const forms = {};
    const count = (name, f) => { const before = calls; try { return f(); } catch (e) { return 'threw: ' + e.message; } finally { forms[name] = calls - before; } };
    const hex = (b) => typeof b === 'string' ? b : Buffer.from(b).toString('hex');
    const sig = ml_dsa65.sign(msg, secretKey, { extraEntropy: false });
    forms.sign = calls - afterSmall;
    const signs = {
      signer: hex(count('signer', () => ml_dsa65.signer(secretKey).sign(msg, { extraEntropy: false }))) === hex(sig),
      createSign: hex(count('createSign', () => ml_dsa65.createSign(secretKey).update(msg).sign({ extraEntropy: false }))),
    };
    signs.createSign = signs.createSign === hex(sig) || signs.createSign;
    const verifier = ml_dsa65.verifier(publicKey);
    const good = {
      verify: count('verify', () => ml_dsa65.verify(sig, msg, publicKey)),
      verifier: count('verifier', () => verifier.verify(sig, msg)),
      createVerify: count('createVerify', () => ml_dsa65.createVerify(publicKey).update(msg).verify(sig)),
    };
    msg[0] ^= 1;
    const bad = {
      verify: ml_dsa65.verify(sig, msg, publicKey),
      verifier: verifier.verify(sig, msg),
      createVerify: count('-', () => ml_dsa65.createVerify(publicKey).update(msg).verify(sig)),
    };
    console.log(JSON.stringify({ afterSmall, forms, buffers: [...buffers], secretKeyBytes: secretKey.length, good, bad, signs, sig: hex(sig) }));`;
  const file = path.join(consumerDir, `native-hash-${process.pid}-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(file, code);
  try {
    const r = spawnSync(process.execPath, [file], { cwd: consumerDir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

test('long messages: node:crypto hashes them, and only them; a lying or failing SHAKE256 is not used', { skip }, () => {
  const all = { verify: true, verifier: true, createVerify: true };
  const none = { verify: false, verifier: false, createVerify: false };
  const plain = child('');
  assert.equal(plain.afterSmall, 0, 'messages of one call never reach node:crypto');
  for (const [form, n] of Object.entries(plain.forms)) if (form !== '-') assert.ok(n >= 1, `${form}: node:crypto hashed its message (${n} hashes)`);
  assert.ok(!plain.buffers.includes(plain.secretKeyBytes), `no view of a secret key's buffer reaches node:crypto (buffers of ${plain.buffers} bytes)`);
  assert.deepEqual(plain.good, all);
  assert.deepEqual(plain.bad, none);
  assert.deepEqual(plain.signs, { signer: true, createSign: true }, 'signer and createSign give the signature of sign()');
  const patches = {
    // Every digest all zero, from the prototype the package reads its methods from.
    lying: `const d = proto.digest; proto.digest = function () { d.call(this); return Buffer.alloc(64); };`,
    // A digest of the right length for another input.
    shifted: `proto.update = function (b) { return realUpdate.call(this, b.subarray(1)); };`,
    throwing: `c.createHash = () => { calls++; throw new Error('no'); };`,
    missing: `c.createHash = undefined;`,
  };
  for (const [name, patch] of Object.entries(patches)) {
    const r = child(patch);
    assert.equal(r.sig, plain.sig, `${name}: the same signature as with the real hash`);
    assert.deepEqual(r.signs, { signer: true, createSign: true }, `${name}: signer and createSign too`);
    assert.deepEqual(r.good, all, `${name}: the signature verifies`);
    assert.deepEqual(r.bad, none, `${name}: a flipped message does not`);
  }
  // Right for the probe (μ of a made-up ML-DSA-44 public key of 1312 bytes
  // and a message of three blocks), refusing anything longer after it: the
  // one-shot and prepared forms fall back to wasm, and so does createVerify
  // (its tr = H(pk) already fails); a stream begun there cannot, so
  // createSign's update throws (the object is finished).
  const r = child(`proto.update = function (b) { if (b.length > 1500) throw new Error('refused'); return realUpdate.apply(this, arguments); };`);
  assert.equal(r.sig, plain.sig, 'after the probe: sign');
  assert.equal(r.signs.signer, true, 'after the probe: signer');
  assert.match(String(r.signs.createSign), /^threw: .*refused/, 'after the probe: createSign');
  assert.deepEqual(r.good, all, 'after the probe: verify, verifier, createVerify');
  assert.deepEqual(r.bad, none, 'after the probe: a flipped message');
});
