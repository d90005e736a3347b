// Long streams in bounded memory. In Node (a child process with --expose-gc):
// a 1 GiB stream of generated chunks (none kept) signed with signStream and
// verified with verifyStream, JS heap (with ArrayBuffer contents) and wasm
// memory sampled every 128 MiB; both must stay flat. The signature is checked against μ computed by
// node:crypto's SHAKE256 over the same bytes (so the whole stream was hashed),
// and a stream with its last bit flipped must not verify.
// In headless Chromium: a 256 MiB File built from one repeated 1 MiB chunk,
// signed and verified from the page; the signature must equal the one Node
// makes for the same bytes, and the page's heap and wasm memory stay flat.
//
// MLDSA_STREAM_GIB (default 1; fractions allowed) sets the Node size,
// MLDSA_STREAM_BROWSER_MIB (default 256) the browser's.
import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { IMPL, PKG_NAME, consumerDir, lib } from './lib/load.mjs';
import { toHex } from './lib/util.mjs';
import { openPage } from './lib/chromium.mjs';
import { serve } from './lib/serve.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package' : false;
const MiB = 2 ** 20;
const BOUND = 16 * MiB; // allowed growth of the JS heap and of wasm memory
const NODE_BYTES = Math.round(Number(process.env.MLDSA_STREAM_GIB || 1) * 1024) * MiB;
const BROWSER_BYTES = Number(process.env.MLDSA_STREAM_BROWSER_MIB || 256) * MiB;
const mib = (n) => `${(n / MiB).toFixed(1)} MiB`;

/** μ = SHAKE256(SHAKE256(pk, 64) ‖ 0 ‖ 0 ‖ M, 64) (pure ML-DSA, empty context) by node:crypto, M fed by `feed(update)`. */
function nodeMu(publicKey, feed) {
  const tr = crypto.createHash('shake256', { outputLength: 64 }).update(publicKey).digest();
  const h = crypto.createHash('shake256', { outputLength: 64 }).update(tr).update(Uint8Array.of(0, 0));
  feed((c) => h.update(c));
  return new Uint8Array(h.digest());
}

const NODE_SCRIPT = `
const { ml_dsa65, wasmMemoryBytes } = await import('mldsa-simd');
const crypto = await import('node:crypto');
const total = Number(process.env.BYTES);
const CH = 1 << 20; // 1 MiB chunks: the package hashes them in 64 KiB pieces
const kp = ml_dsa65.keygen(new Uint8Array(32).fill(1));
// heapUsed counts JS objects; the bytes of typed arrays are in arrayBuffers: both count.
const heap = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const samples = [];
// Chunk i: its number in the first 4 bytes, then a byte pattern of i; made fresh, never kept.
async function* source(flipLast) {
  for (let i = 0, off = 0; off < total; i++, off += CH) {
    const c = new Uint8Array(Math.min(CH, total - off)).fill((i * 7) & 255);
    new DataView(c.buffer).setUint32(0, i);
    if (flipLast && off + c.length === total) c[c.length - 1] ^= 1;
    if (i % 128 === 127) samples.push({ at: off + c.length, heap: heap(), wasm: wasmMemoryBytes() });
    yield c;
  }
}
// Warm-up, so that the instance and the code have their working sizes.
await ml_dsa65.verifyStream(await ml_dsa65.signStream([new Uint8Array(3 * CH)], kp.secretKey), [new Uint8Array(3 * CH)], kp.publicKey);
const before = { heap: heap(), wasm: wasmMemoryBytes(), rss: process.memoryUsage().rss };
let t = performance.now();
const sig = await ml_dsa65.signStream(source(false), kp.secretKey);
const signMs = performance.now() - t;
t = performance.now();
const ok = await ml_dsa65.verifyStream(sig, source(false), kp.publicKey);
const verifyMs = performance.now() - t;
const flipped = await ml_dsa65.verifyStream(sig, source(true), kp.publicKey);
const after = { heap: heap(), wasm: wasmMemoryBytes(), rss: process.memoryUsage().rss };
// μ of the same bytes by node:crypto's SHAKE256: the signature is over the whole stream.
const tr = crypto.createHash('shake256', { outputLength: 64 }).update(kp.publicKey).digest();
const mu = crypto.createHash('shake256', { outputLength: 64 }).update(tr).update(Uint8Array.of(0, 0));
for await (const c of source(false)) mu.update(c);
const muOk = ml_dsa65.internal.verify(sig, new Uint8Array(mu.digest()), kp.publicKey, { externalMu: true });
console.log(JSON.stringify({ ok, flipped, muOk, signMs, verifyMs, before, after, samples }));
`;

test(`Node: a ${mib(NODE_BYTES)} stream signed and verified in flat JS heap and wasm memory`, { skip, timeout: 15 * 60_000 }, (t) => {
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', NODE_SCRIPT], {
    cwd: consumerDir,
    encoding: 'utf8',
    env: { ...process.env, BYTES: String(NODE_BYTES) },
  });
  assert.equal(r.status, 0, r.stderr);
  const m = JSON.parse(r.stdout.trim().split('\n').pop());
  const rate = (ms) => `${(NODE_BYTES / MiB / (ms / 1000)).toFixed(0)} MiB/s`;
  t.diagnostic(
    `stream-memory: Node ${process.version}, ${mib(NODE_BYTES)}: signStream ${(m.signMs / 1000).toFixed(1)} s (${rate(m.signMs)}), verifyStream ${(m.verifyMs / 1000).toFixed(1)} s (${rate(m.verifyMs)})`,
  );
  t.diagnostic(
    `stream-memory: Node JS heap (heapUsed + arrayBuffers, after gc) ${mib(m.before.heap)} before, ${mib(m.after.heap)} after, at most ${mib(Math.max(...m.samples.map((s) => s.heap)))} during; wasm memory ${mib(m.before.wasm)} before, ${mib(m.after.wasm)} after; RSS ${mib(m.before.rss)} before, ${mib(m.after.rss)} after`,
  );
  assert.equal(m.ok, true, 'the streamed signature does not verify');
  assert.equal(m.muOk, true, 'the signature is not over the μ that node:crypto computes for the stream');
  assert.equal(m.flipped, false, 'the signature verifies for a stream with its last bit flipped');
  assert.ok(m.samples.length >= Math.floor(NODE_BYTES / (128 * MiB)) * 4, `only ${m.samples.length} samples`);
  for (const s of [...m.samples, { at: 'the end', ...m.after }]) {
    assert.ok(s.heap - m.before.heap < BOUND, `JS heap grew by ${mib(s.heap - m.before.heap)} at ${s.at}`);
    assert.ok(s.wasm - m.before.wasm < BOUND, `wasm memory grew by ${mib(s.wasm - m.before.wasm)} at ${s.at}`);
  }
});

// The page: a File of `total` bytes from one 1 MiB chunk, repeated; results to window.__result.
const page = (total, seed) => `<!doctype html><meta charset="utf-8"><title>mldsa-simd: streaming a File</title>
<pre id="out">running…</pre>
<script type="module">
import { ml_dsa65, wasmMemoryBytes } from '/node_modules/${PKG_NAME}/index.mjs';
const out = document.getElementById('out');
const heap = () => performance.memory?.usedJSHeapSize ?? NaN;
// Chromium releases the buffers of dead ArrayBuffers on a later gc(), not on the first:
// two gc() calls, a task apart, before reading performance.memory.
const tick = () => new Promise((r) => setTimeout(r, 50));
const mem = async () => { window.gc?.(); await tick(); window.gc?.(); await tick(); return { heap: heap(), wasm: wasmMemoryBytes() }; };
try {
  const MiB = 1 << 20;
  const kp = ml_dsa65.keygen(new Uint8Array(${JSON.stringify(Array.from(seed))}));
  const chunk = new Uint8Array(MiB).map((_, i) => (i * 31) >> 3);
  const file = new File(Array(${total / MiB}).fill(chunk), 'big.bin');
  const flipped = new File([file.slice(0, file.size - 1), Uint8Array.of(chunk[MiB - 1] ^ 1)], 'flipped.bin');
  await ml_dsa65.verifyStream(await ml_dsa65.signStream(new Blob([chunk]), kp.secretKey), new Blob([chunk]), kp.publicKey);
  const before = await mem();
  let t = performance.now();
  const sig = await ml_dsa65.signStream(file, kp.secretKey, { extraEntropy: false });
  const signMs = performance.now() - t;
  t = performance.now();
  const ok = await ml_dsa65.verifyStream(sig, file, kp.publicKey);
  const verifyMs = performance.now() - t;
  const bad = await ml_dsa65.verifyStream(sig, flipped, kp.publicKey);
  const after = await mem();
  // During a stream (the File's, passed through a TransformStream that samples every 32 MiB).
  const during = [];
  let seen = 0;
  const sampler = new TransformStream({
    async transform(c, ctl) {
      seen += c.length;
      if (seen % (32 * MiB) < c.length) during.push(await mem());
      ctl.enqueue(c);
    },
  });
  const okSampled = await ml_dsa65.verifyStream(sig, file.stream().pipeThrough(sampler), kp.publicKey);
  window.__result = { size: file.size, sig: Array.from(sig), ok, okSampled, bad, signMs, verifyMs, before, after, during, gc: typeof window.gc, userAgent: navigator.userAgent };
  out.textContent = JSON.stringify({ ...window.__result, sig: undefined }, null, 1);
} catch (e) {
  window.__result = { error: String(e && e.stack || e) };
  out.textContent = 'ERROR: ' + window.__result.error;
}
</script>`;

test(`Chromium: a ${mib(BROWSER_BYTES)} File signed and verified in the page in flat memory`, { skip, timeout: 10 * 60_000 }, async (t) => {
  const seed = crypto.randomBytes(32);
  const server = await serve(consumerDir, page(BROWSER_BYTES, seed));
  let browser;
  try {
    browser = await openPage({ viewport: { width: 900, height: 400 }, args: ['--js-flags=--expose-gc', '--enable-precise-memory-info'] });
    const { page: pg, problems, offsite } = browser;
    await pg.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: 'load' });
    await pg.waitForFunction(() => window.__result !== undefined, null, { timeout: 9 * 60_000, polling: 500 });
    const m = await pg.evaluate(() => window.__result);
    assert.equal(m.error, undefined, `the page threw: ${m.error}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(offsite, []);
    const rate = (ms) => `${(BROWSER_BYTES / MiB / (ms / 1000)).toFixed(0)} MiB/s`;
    t.diagnostic(`stream-memory: ${m.userAgent}`);
    t.diagnostic(
      `stream-memory: Chromium File of ${mib(m.size)}: signStream ${(m.signMs / 1000).toFixed(1)} s (${rate(m.signMs)}), verifyStream ${(m.verifyMs / 1000).toFixed(1)} s (${rate(m.verifyMs)})`,
    );
    const most = (key) => Math.max(...m.during.map((d) => d[key]));
    t.diagnostic(
      `stream-memory: Chromium JS heap (performance.memory, after gc) ${mib(m.before.heap)} before, ${mib(m.after.heap)} after, at most ${mib(most('heap'))} during; wasm memory ${mib(m.before.wasm)} before, ${mib(m.after.wasm)} after, at most ${mib(most('wasm'))} during`,
    );
    assert.equal(m.size, BROWSER_BYTES);
    assert.equal(m.ok, true, 'the File signature does not verify in the page');
    assert.equal(m.bad, false, 'the signature verifies for the File with its last bit flipped');
    assert.equal(m.gc, 'function', 'no gc() in the page: the heap figures would mean little');
    assert.ok(m.after.heap - m.before.heap < BOUND, `JS heap grew by ${mib(m.after.heap - m.before.heap)}`);
    assert.equal(m.okSampled, true);
    assert.ok(m.during.length >= BROWSER_BYTES / (32 * MiB), `only ${m.during.length} samples`);
    for (const s of [...m.during, m.after]) {
      assert.ok(s.heap - m.before.heap < BOUND, `JS heap grew by ${mib(s.heap - m.before.heap)}`);
      assert.ok(s.wasm - m.before.wasm < BOUND, `wasm memory grew by ${mib(s.wasm - m.before.wasm)}`);
    }
    // The same bytes in Node: the same deterministic signature, over the μ node:crypto computes.
    const { publicKey, secretKey } = lib.ml_dsa65.keygen(seed);
    const chunk = new Uint8Array(MiB).map((_, i) => (i * 31) >> 3);
    const repeated = Array(BROWSER_BYTES / MiB).fill(chunk);
    const sig = new Uint8Array(m.sig);
    assert.equal(toHex(sig), toHex(await lib.ml_dsa65.signStream(repeated, secretKey, { extraEntropy: false })), 'the page signed other bytes than Node');
    const mu = nodeMu(publicKey, (update) => repeated.forEach(update));
    assert.equal(lib.ml_dsa65.internal.verify(sig, mu, publicKey, { externalMu: true }), true, 'not a signature over the File');
  } finally {
    await browser?.close();
    await new Promise((r) => server.close(r));
  }
});
