// Prepared keys cannot grow memory without bound. Their expanded
// keys live in a pool of at most 192 slots of 72 KiB (src/bindings/wasm/prepared.rs); a key whose
// slot was taken is expanded again from its bytes on its next use. Here 10^5
// signers and 10^5 verifiers of all three sets are made and dropped without
// free() (no GC forced), each used once, while 300 long-lived keys (more than the
// pool holds) are used in turn, so that they are evicted and rebuilt again and
// again: every answer must be right, and wasm memory must stay under 16 MiB.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { lib, SETS, IMPL } from './lib/load.mjs';
import { Rng, equalBytes } from './lib/util.mjs';

const skip = IMPL === 'noble' ? 'prepared keys are not part of noble' : false;
const rng = new Rng('prepared-bound');
const DROPPED = Number(process.env.MLDSA_DROPPED_KEYS || 100000);
const LONG_LIVED = 300;
const BOUND = 16 * 1024 * 1024;

test(`${DROPPED} signers and ${DROPPED} verifiers dropped without free(): every answer right, wasm memory < 16 MiB`, { skip, timeout: 15 * 60_000 }, (t) => {
  // A few keys per set, with noble's deterministic signature of one message each.
  const msg = rng.bytes(64);
  const keys = [];
  for (const P of SETS)
    for (let i = 0; i < 2; i++) {
      const { publicKey, secretKey } = noble[P.key].keygen(rng.bytes(32));
      keys.push({ alg: lib[P.key], publicKey, secretKey, sig: noble[P.key].sign(msg, secretKey, { extraEntropy: false }) });
    }
  const wrong = (k) => keys[(keys.indexOf(k) + 2) % keys.length]; // another key of the same set
  // Long-lived keys, more than the pool has slots: using them in turn evicts and rebuilds.
  const kept = Array.from({ length: LONG_LIVED }, (_, i) => {
    const k = keys[i % keys.length];
    return { k, signer: k.alg.signer(k.secretKey), verifier: k.alg.verifier(k.publicKey) };
  });
  let peak = 0;
  const samples = [];
  for (let i = 0; i < DROPPED; i++) {
    const k = keys[i % keys.length];
    const s = k.alg.signer(k.secretKey); // dropped
    if (!equalBytes(s.sign(msg, { extraEntropy: false }), k.sig)) assert.fail(`step ${i}: dropped signer gave a wrong signature`);
    const v = k.alg.verifier(k.publicKey); // dropped
    if (v.verify(k.sig, msg) !== true) assert.fail(`step ${i}: dropped verifier refused a good signature`);
    if (i % 7 === 0 && v.verify(wrong(k).sig, msg) !== false) assert.fail(`step ${i}: dropped verifier accepted another key's signature`);
    if (i % 50 === 0) {
      const { k: kk, signer, verifier } = kept[(i / 50) % LONG_LIVED];
      if (!equalBytes(signer.sign(msg, { extraEntropy: false }), kk.sig)) assert.fail(`step ${i}: a long-lived signer gave a wrong signature`);
      if (verifier.verify(kk.sig, msg) !== true) assert.fail(`step ${i}: a long-lived verifier refused a good signature`);
    }
    if (i % 1000 === 0) {
      const bytes = lib.wasmMemoryBytes();
      peak = Math.max(peak, bytes);
      if (i % (DROPPED / 10) === 0) samples.push(`${i}: ${(bytes / 2 ** 20).toFixed(2)} MiB`);
      if (bytes >= BOUND) assert.fail(`step ${i}: wasm memory ${bytes} bytes, over the 16 MiB bound`);
    }
  }
  for (const { k, signer, verifier } of kept) {
    assert.ok(equalBytes(signer.sign(msg, { extraEntropy: false }), k.sig));
    assert.equal(verifier.verify(k.sig, msg), true);
  }
  peak = Math.max(peak, lib.wasmMemoryBytes());
  t.diagnostic(`dropped keys: wasm memory ${samples.join(', ')}; peak ${peak} bytes (bound ${BOUND})`);
  assert.ok(peak < BOUND);
});
