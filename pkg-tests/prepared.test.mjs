// Prepared keys (ml_dsaXX.signer / .verifier): the same bytes and answers as the
// one-shot functions, argument errors, use after free, and no leaks: wasm memory
// stays flat over 100 000 create/use/free cycles, and keys dropped without
// free() are reclaimed by the FinalizationRegistry.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { lib, SETS, IMPL, consumerDir } from './lib/load.mjs';
import { Rng, toHex } from './lib/util.mjs';

const skip = IMPL === 'noble' ? 'prepared keys are not part of noble' : false;
const rng = new Rng('prepared');
const CYCLES = Number(process.env.MLDSA_LEAK_CYCLES || 100000);

for (const P of SETS) {
  test(`${P.name}: signer/verifier give the one-shot results`, { skip }, () => {
    const m = lib[P.key];
    const { publicKey, secretKey } = m.keygen(rng.bytes(32));
    const signer = m.signer(secretKey);
    const verifier = m.verifier(publicKey);
    for (const [mlen, clen] of [
      [0, undefined],
      [1, 0],
      [100, 7],
      [5000, 255],
    ]) {
      const msg = rng.bytes(mlen);
      const opts = clen === undefined ? {} : { context: rng.bytes(clen) };
      const det = signer.sign(msg, { ...opts, extraEntropy: false });
      assert.equal(toHex(det), toHex(m.sign(msg, secretKey, { ...opts, extraEntropy: false })));
      assert.equal(toHex(det), toHex(noble[P.key].sign(msg, secretKey, { ...opts, extraEntropy: false })));
      const rnd = rng.bytes(32);
      assert.equal(toHex(signer.sign(msg, { ...opts, extraEntropy: rnd })), toHex(m.sign(msg, secretKey, { ...opts, extraEntropy: rnd })));
      const hedged = signer.sign(msg, opts);
      assert.equal(verifier.verify(hedged, msg, opts), true);
      assert.equal(noble[P.key].verify(hedged, msg, publicKey, opts), true);
      const bad = Uint8Array.from(hedged);
      bad[rng.int(bad.length)] ^= 1 << rng.int(8);
      assert.equal(verifier.verify(bad, msg, opts), false);
      assert.equal(verifier.verify(hedged.subarray(1), msg, opts), false);
      assert.equal(verifier.verify(hedged, Uint8Array.of(...msg, 0), opts), false);
    }
    // Errors are those of the one-shot functions.
    assert.throws(
      () => m.signer(secretKey.subarray(1)),
      (e) => e instanceof RangeError && /secretKey/.test(e.message),
    );
    assert.throws(
      () => m.verifier('pk'),
      (e) => e instanceof TypeError && /publicKey/.test(e.message),
    );
    assert.throws(
      () => signer.sign('msg'),
      (e) => e instanceof TypeError && /msg/.test(e.message),
    );
    assert.throws(() => signer.sign(new Uint8Array(1), { ctx: new Uint8Array(1) }), TypeError);
    assert.throws(() => signer.sign(new Uint8Array(1), { context: new Uint8Array(256) }), RangeError);
    assert.throws(() => signer.sign(new Uint8Array(1), { extraEntropy: new Uint8Array(31) }), RangeError);
    assert.throws(() => verifier.verify([], new Uint8Array(1)), TypeError);
    const malformed = Uint8Array.from(secretKey);
    malformed[128] = 0xff;
    assert.throws(
      () => m.signer(malformed),
      (e) => e instanceof Error && /secretKey/.test(e.message),
    );
    // Use after free throws; free() twice and dispose are harmless.
    signer.free();
    signer.free();
    assert.throws(() => signer.sign(new Uint8Array(1)), /used after free/);
    verifier[Symbol.dispose]();
    assert.throws(() => verifier.verify(new Uint8Array(P.sig), new Uint8Array(1)), /used after free/);
    assert.ok(Object.isFrozen(signer) && Object.isFrozen(verifier));
  });
}

test(`no leak: ${CYCLES} verifier create/verify/free cycles (ML-DSA-44)`, { skip }, (t) => {
  const m = lib.ml_dsa44;
  const { publicKey, secretKey } = m.keygen(rng.bytes(32));
  const msg = rng.bytes(50);
  const sig = m.sign(msg, secretKey);
  let before;
  for (let i = 0; i < CYCLES; i++) {
    const v = m.verifier(publicKey);
    if (!v.verify(sig, msg)) assert.fail(`cycle ${i}: verification failed`);
    v.free();
    if (i === 100) before = lib.wasmMemoryBytes();
  }
  const after = lib.wasmMemoryBytes();
  t.diagnostic(`verifier cycles: wasm memory ${before} -> ${after} bytes`);
  assert.equal(after, before, `wasm memory grew from ${before} to ${after} bytes`);
});

test(`no leak: ${CYCLES} signer create/sign/free cycles (ML-DSA-44)`, { skip }, (t) => {
  const m = lib.ml_dsa44;
  const { publicKey, secretKey } = m.keygen(rng.bytes(32));
  const msg = rng.bytes(50);
  let before, sig;
  for (let i = 0; i < CYCLES; i++) {
    const s = m.signer(secretKey);
    sig = s.sign(msg);
    s.free();
    if (i === 100) before = lib.wasmMemoryBytes();
  }
  const after = lib.wasmMemoryBytes();
  t.diagnostic(`signer cycles: wasm memory ${before} -> ${after} bytes`);
  assert.equal(m.verify(sig, msg, publicKey), true);
  assert.equal(after, before, `wasm memory grew from ${before} to ${after} bytes`);
});

test('prepared keys dropped without free() are reclaimed (FinalizationRegistry)', { skip }, (t) => {
  // In a child process with --expose-gc: 20 rounds of 500 ML-DSA-87 verifiers
  // (64 KiB of wasm memory each) that are never freed. Without the safety net
  // memory would grow by ~640 MiB; with it, it stays within a few rounds' worth.
  const script = `
    const { ml_dsa87, wasmMemoryBytes } = await import('mldsa-simd');
    const { publicKey } = ml_dsa87.keygen(new Uint8Array(32));
    const tick = () => new Promise((r) => setTimeout(r, 10));
    let first = 0;
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 500; i++) ml_dsa87.verifier(publicKey);
      for (let j = 0; j < 3; j++) { globalThis.gc(); await tick(); }
      if (round === 1) first = wasmMemoryBytes();
    }
    console.log(JSON.stringify({ first, last: wasmMemoryBytes() }));
  `;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: consumerDir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { first, last } = JSON.parse(r.stdout.trim().split('\n').pop());
  t.diagnostic(`unfreed verifiers: wasm memory after round 2 ${first}, after round 20 ${last} bytes`);
  assert.ok(last <= first * 2, `wasm memory kept growing: ${first} -> ${last} bytes`);
});
