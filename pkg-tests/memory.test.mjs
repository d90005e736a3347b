// Linear memory of one instance that serves all three parameter sets: reported
// after keygen + sign + verify of ML-DSA-87 in a fresh process (the figure
// docs/memory.md gives), and bounded so that a regression that keeps k·ℓ matrices or
// whole messages around, or a stack back at 1 MiB, fails loudly.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { IMPL, consumerDir } from './lib/load.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package' : false;

test('wasm linear memory after keygen + sign + verify of ML-DSA-87, and of every set', { skip }, (t) => {
  const script = `
    const { ml_dsa44, ml_dsa65, ml_dsa87, wasmMemoryBytes } = await import('mldsa-simd');
    const out = { atLoad: wasmMemoryBytes() };
    const msg = new Uint8Array(1000);
    const k = ml_dsa87.keygen();
    const ok = ml_dsa87.verify(ml_dsa87.sign(msg, k.secretKey), msg, k.publicKey);
    out.after87 = wasmMemoryBytes();
    for (const m of [ml_dsa44, ml_dsa65, ml_dsa87]) {
      const kp = m.keygen();
      m.verify(m.sign(msg, kp.secretKey), msg, kp.publicKey);
    }
    // A 3 MiB message is streamed in 64 KiB pieces: it must not grow memory by megabytes.
    ml_dsa87.sign(new Uint8Array(3 << 20), k.secretKey);
    out.afterAll = wasmMemoryBytes();
    console.log(JSON.stringify({ ok, ...out }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: consumerDir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const m = JSON.parse(r.stdout.trim().split('\n').pop());
  t.diagnostic(`wasm memory: ${m.atLoad} bytes at load, ${m.after87} after keygen+sign+verify of ML-DSA-87, ${m.afterAll} after all sets and a 3 MiB message`);
  assert.equal(m.ok, true);
  assert.ok(m.atLoad <= 128 * 1024, `memory at load ${m.atLoad} > 128 KiB: is the stack back at 1 MiB?`);
  // The target: one instance serving all three sets stays within 256 KiB.
  assert.ok(m.after87 <= 256 * 1024, `memory after keygen+sign+verify of ML-DSA-87 is ${m.after87} > 256 KiB`);
  assert.ok(m.afterAll <= 512 * 1024, `memory ${m.afterAll} > 512 KiB`);
});
