// A trap never leaves a broken instance. A real trap is forced:
// the test grows the instance's memory to the 4 GiB limit, so that the next
// allocation inside Rust fails and the allocator's error handler traps
// (`unreachable`). The call that trapped throws an Error saying so; the package
// has wiped the old instance's memory and replaced the instance by then, so the
// next calls work (checked against noble and every ACVP sigVer vector), and
// prepared keys made before are made again in the new instance at their next use.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { IMPL } from './lib/load.mjs';
import { Rng, equalBytes } from './lib/util.mjs';
import { importWatched } from './lib/instance.mjs';
import { runSigVer } from './lib/acvp.mjs';

const skip = IMPL === 'noble' ? 'looks inside the package instance' : false;
const rng = new Rng('trap');

test('after a trap the instance is replaced and the next calls work', { skip, timeout: 120_000 }, async (t) => {
  const { lib, instances, memory } = await importWatched('trap');
  const { ml_dsa44, ml_dsa87 } = lib;
  const seed = rng.bytes(32);
  const { publicKey, secretKey } = ml_dsa87.keygen(seed);
  const msg = rng.bytes(100);
  const signer = ml_dsa87.signer(secretKey);
  const verifier = ml_dsa44.verifier(ml_dsa44.keygen(seed).publicKey);
  const before = instances().length;

  // Every page up to 4 GiB is taken from outside, so Rust's next memory.grow fails.
  const mem = memory();
  const pages = mem.buffer.byteLength / 65536;
  mem.grow(65536 - pages);
  let trapped;
  try {
    // ML-DSA-87 signing needs more heap than a fresh instance has.
    ml_dsa87.sign(rng.bytes(200_000), secretKey);
  } catch (e) {
    trapped = e;
  }
  assert.ok(trapped instanceof Error, 'the call that trapped throws');
  assert.match(trapped.message, /instance failed during this call and has been replaced/);
  // (The first 16 MiB: all that the instance used before the test grew it.)
  assert.ok(
    new Uint8Array(mem.buffer, 0, 1 << 24).every((b) => b === 0),
    "the old instance's memory was wiped",
  );
  assert.ok(trapped.cause instanceof WebAssembly.RuntimeError, `the cause is the trap, got ${trapped.cause}`);
  assert.equal(instances().length, before + 1, 'a new instance was made');
  assert.ok(memory().buffer.byteLength < 1 << 20, 'the new instance has its own small memory');
  t.diagnostic(`trap: ${trapped.cause.message}; new instance with ${memory().buffer.byteLength} bytes`);

  // Prepared keys made before keep working: made again in the new instance.
  assert.equal(ml_dsa87.verify(signer.sign(msg), msg, publicKey), true, 'a signer made before the trap');
  const sig44 = ml_dsa44.sign(msg, ml_dsa44.keygen(seed).secretKey);
  assert.equal(verifier.verify(sig44, msg), true, 'a verifier made before the trap');
  assert.equal(verifier.verify(new Uint8Array(2420), msg), false);
  signer.free();
  verifier.free();

  // The next calls are right.
  const again = ml_dsa87.keygen(seed);
  assert.ok(equalBytes(again.publicKey, publicKey) && equalBytes(again.secretKey, secretKey), 'keygen after the trap');
  const sig = ml_dsa87.sign(msg, secretKey, { extraEntropy: false });
  assert.ok(equalBytes(sig, noble.ml_dsa87.sign(msg, secretKey, { extraEntropy: false })), 'deterministic signature = noble');
  assert.equal(ml_dsa87.verify(sig, msg, publicKey), true);
  sig[5] ^= 1;
  assert.equal(ml_dsa87.verify(sig, msg, publicKey), false);
  const fresh = ml_dsa87.signer(secretKey);
  assert.equal(ml_dsa87.verify(fresh.sign(msg), msg, publicKey), true, 'a signer made after the trap works');
  fresh.free();
  const { passed, total, failures } = runSigVer(lib);
  assert.deepEqual(failures, []);
  assert.equal(passed, total);
  t.diagnostic(`after the trap: ${passed}/${total} ACVP sigVer vectors right`);
});

// Code of the platform's that runs in the middle of a signature (here the
// first look-up of node:crypto's SHAKE256, which a script replaced) can make
// the instance fail and be replaced between two calls into wasm of the same
// signature. Handles restart in a new instance, so the signer must fetch its
// handle again at each call: otherwise the key first made in the new instance
// (here the attacker's) would sign the victim's message.
test("an instance replaced in the middle of a prepared signature: the signer's key, not the one now in its slot", { skip, timeout: 120_000 }, async () => {
  const { lib, memory } = await importWatched('trap-mid');
  const P = lib.ml_dsa44;
  const victim = P.keygen(rng.bytes(32));
  const attackerSeed = rng.bytes(32);
  const msg = rng.bytes(70_000); // over 64 KiB: μ is hashed first, by node:crypto where there is one
  const signer = P.signer(victim.secretKey); // an expanded key: tr is known, so the platform's hash is used
  const nodeCrypto = process.getBuiltinModule('node:crypto');
  const createHash = nodeCrypto.createHash;
  let replaced = false;
  let fired = false;
  nodeCrypto.createHash = function (...args) {
    nodeCrypto.createHash = createHash;
    // Once: the package keeps the function it looked up (a later replacement
    // must not reach it), so every hash of this process comes here; each
    // failure would leave another 4 GiB instance with the test.
    if (fired) return Reflect.apply(createHash, this, args);
    fired = true;
    const mem = memory();
    mem.grow(65536 - mem.buffer.byteLength / 65536);
    try {
      lib.ml_dsa87.keygen(rng.bytes(32)); // more heap than the instance has: its allocation traps
    } catch (e) {
      replaced = /has been replaced/.test(e.message);
    }
    P.signer(attackerSeed); // the first key of the new instance takes the slot the victim's handle names
    return Reflect.apply(createHash, this, args);
  };
  let sig;
  try {
    sig = signer.sign(msg, { extraEntropy: false });
  } finally {
    nodeCrypto.createHash = createHash;
  }
  assert.ok(replaced, 'the instance was replaced during the signature');
  assert.equal(P.verify(sig, msg, victim.publicKey), true, "the signature is the victim key's");
  assert.ok(equalBytes(sig, noble.ml_dsa44.sign(msg, victim.secretKey, { extraEntropy: false })), "and equals noble's");
});
