#!/usr/bin/env node
// Benchmark of the built package (pkg/) against its peers, in one process
// (`npm run bench`).
//
//   node bench-js/bench.mjs [--quick] [--ops keygen,sign,verify] [--sets 44,65,87]
//                           [--peers ours,noble] [--out bench-js/results.json]
//
// Method (DESIGN.md §4): for each operation and parameter set, every peer is
// warmed up first (V8 compiles wasm in a baseline tier and optimises it later,
// in the background, between calls), then the peers run in interleaved rounds
// (A B, B A, A B, ...) until a time budget is spent; each round gives one
// µs/op sample per peer and the table shows the medians.
//
// - keygen: seeds vary per call; a round is a batch sized to take ~20 ms.
// - sign: deterministic, empty context, the key pair from KeyGen(ξ = 0), and
//   the C2SP/CCTV benchmark messages (../shared/vectors/cctv-bench): one round
//   is one pass over the whole set, so a sample is the representative mean
//   over rejection-loop iterations; within a pass the peers alternate every
//   4 messages. (--quick signs only the first 16: a smoke run, not a
//   representative mean.)
// - verify: signatures of those messages under that key.
// Before timing, the peers' outputs are compared (same keys, same
// deterministic signatures, verification true) and any mismatch is reported.
//
// A peer is an entry in PEERS: `load()` resolves to `(set) => ops | null`,
// with ops working on raw FIPS 204 encodings:
//   keygen(seed)                 -> anything (a key pair in any form)
//   publicKeyOf(seed)            -> raw public key bytes (for the cross-check)
//   signer(rawSecretKey, seed)   -> (msg) => raw signature (deterministic, empty context)
//   verifier(rawPublicKey)       -> (sig, msg) => boolean
// so peers with other key formats (node:crypto KeyObjects, liboqs-js) can
// import the raw bytes once, outside the timed loop.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

// ------------------------------------------------------------------ options
function parseArgs(argv) {
  const opts = {
    quick: false,
    ops: ['keygen', 'sign', 'verify'],
    sets: [44, 65, 87],
    peers: null,
    out: path.join(here, 'results.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--quick') opts.quick = true;
    else if (a === '--ops') opts.ops = value().split(',');
    else if (a === '--sets') opts.sets = value().split(',').map(Number);
    else if (a === '--peers') opts.peers = value().split(',');
    else if (a === '--out') opts.out = path.resolve(value());
    else if (a === '-h' || a === '--help') {
      console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 8).join('\n'));
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  for (const op of opts.ops) if (!['keygen', 'sign', 'verify'].includes(op)) throw new Error(`unknown op ${op}`);
  for (const s of opts.sets) if (![44, 65, 87].includes(s)) throw new Error(`unknown parameter set ${s}`);
  return opts;
}

// ------------------------------------------------------------------ peers
// Any module with the API of @noble/post-quantum/ml-dsa.js.
function nobleShaped(mod) {
  return (set) => {
    const impl = mod[`ml_dsa${set}`];
    if (!impl) return null;
    return {
      keygen: (seed) => impl.keygen(seed),
      publicKeyOf: (seed) => impl.keygen(seed).publicKey,
      signer: (secretKey) => (msg) => impl.sign(msg, secretKey, { extraEntropy: false }),
      verifier: (publicKey) => (sig, msg) => impl.verify(sig, msg, publicKey),
    };
  };
}

function packageVersion(spec) {
  try {
    const dir = path.join(root, 'node_modules', spec);
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

const PEERS = [
  {
    id: 'ours',
    name: 'mldsa-simd (pkg/)',
    load: async () => {
      const entry = path.join(root, 'pkg', 'index.mjs');
      if (!fs.existsSync(entry)) throw new Error('pkg/index.mjs not found: run `npm run build` first');
      const version = JSON.parse(fs.readFileSync(path.join(root, 'pkg', 'package.json'), 'utf8')).version;
      return { version, impl: nobleShaped(await import(pathToFileURL(entry).href)) };
    },
  },
  {
    id: 'noble',
    name: '@noble/post-quantum',
    load: async () => ({
      version: packageVersion('@noble/post-quantum'),
      impl: nobleShaped(await import('@noble/post-quantum/ml-dsa.js')),
    }),
  },
  // Later: { id: 'liboqs', ... }, { id: 'node', name: 'node:crypto (OpenSSL)', ... }
];

// ------------------------------------------------------------------ data
const te = new TextEncoder();

function loadMessages(set) {
  const file = path.resolve(root, '..', 'shared', 'vectors', 'cctv-bench', `ML-DSA-${set}.json`);
  if (fs.existsSync(file)) {
    return { source: path.relative(root, file), messages: JSON.parse(fs.readFileSync(file, 'utf8')).map((s) => te.encode(s)) };
  }
  // Fallback on a machine without the shared vectors: fixed messages (not a
  // representative mix of rejection-loop iterations).
  return {
    source: 'generated (CCTV set not found)',
    messages: Array.from({ length: 64 }, (_, i) => te.encode(`mldsa-simd benchmark message ${i}`)),
  };
}

function seedFor(i) {
  const seed = new Uint8Array(32);
  seed[0] = 0xa5;
  new DataView(seed.buffer).setUint32(28, i >>> 0);
  return seed;
}

// ------------------------------------------------------------------ timing
const now = () => performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo);
}

/**
 * runners: [{ id, run(n) }] where run(n) performs n operations.
 * plan: { warmMs, batch: number | null (null = calibrate to batchMs), batchMs,
 *         budgetMs, minRounds, maxRounds, beforeRound? }
 */
async function measure(runners, plan) {
  // Warm-up, interleaved and with pauses so that V8's background tier-up lands.
  for (let rep = 0; rep < 3; rep++) {
    for (const r of runners) {
      const end = now() + plan.warmMs / 3;
      do r.run(1);
      while (now() < end);
    }
    await sleep(15);
  }
  for (const r of runners) {
    if (plan.batch) {
      r.batch = plan.batch;
      continue;
    }
    let n = 1;
    for (;;) {
      const t0 = now();
      r.run(n);
      const dt = now() - t0;
      if (dt >= plan.batchMs / 4 || n >= 1 << 20) {
        r.batch = Math.max(1, Math.round((n * plan.batchMs) / Math.max(dt, 1e-3)));
        break;
      }
      n *= 2;
    }
  }
  // A round runs every peer's batch; with plan.slice, the batches are cut
  // into slices of that many operations and the peers alternate slice by
  // slice, so that load from other processes hits all peers alike.
  const samples = new Map(runners.map((r) => [r.id, []]));
  const start = now();
  for (let round = 0; round < plan.maxRounds; round++) {
    if (round >= plan.minRounds && now() - start >= plan.budgetMs) break;
    const order = round % 2 ? [...runners].reverse() : runners;
    const elapsed = new Map(runners.map((r) => [r.id, 0]));
    for (const r of order) plan.beforeRound?.(r);
    const slices = plan.slice ? Math.ceil(plan.batch / plan.slice) : 1;
    for (let k = 0; k < slices; k++) {
      for (const r of k % 2 ? [...order].reverse() : order) {
        const n = plan.slice ? Math.min(plan.slice, r.batch - k * plan.slice) : r.batch;
        const t0 = now();
        r.run(n);
        elapsed.set(r.id, elapsed.get(r.id) + (now() - t0));
      }
    }
    for (const r of runners) samples.get(r.id).push((elapsed.get(r.id) * 1000) / r.batch);
  }
  const out = {};
  for (const r of runners) {
    const xs = samples.get(r.id);
    const med = median(xs);
    out[r.id] = {
      us: med,
      rounds: xs.length,
      opsPerRound: r.batch,
      spread: xs.length > 1 ? (quantile(xs, 0.75) - quantile(xs, 0.25)) / med : 0,
    };
  }
  return out;
}

// ------------------------------------------------------------------ main
const hex = (b) => Buffer.from(b).toString('hex');
const SET_NAME = (s) => `ML-DSA-${s}`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const quick = opts.quick;
  const budgets = quick
    ? { warmMs: 60, batchMs: 10, keygen: 250, verify: 250, sign: 400, minRounds: 2, maxRounds: 50, signMessages: 16 }
    : { warmMs: 400, batchMs: 20, keygen: 2500, verify: 2500, sign: 6000, minRounds: 3, maxRounds: 400, signMessages: Infinity };

  const selected = opts.peers ? PEERS.filter((p) => opts.peers.includes(p.id)) : PEERS;
  if (!selected.some((p) => p.id === 'ours')) throw new Error('the peer list must include "ours"');
  const peers = [];
  for (const p of selected) {
    try {
      const { version, impl } = await p.load();
      peers.push({ ...p, version, impl });
    } catch (e) {
      if (p.id === 'ours') throw e;
      console.log(`bench: skipping peer ${p.id}: ${e.message}`);
    }
  }
  const others = peers.filter((p) => p.id !== 'ours');

  console.log(`bench: ${peers.map((p) => `${p.id} = ${p.name} ${p.version}`).join(', ')}`);
  console.log(`bench: node ${process.version} (V8 ${process.versions.v8}), ${os.cpus()[0]?.model ?? '?'} x${os.cpus().length}${quick ? ', --quick' : ''}`);

  const results = [];
  const problems = [];
  const t0 = now();
  for (const set of opts.sets) {
    const { source, messages: allMessages } = loadMessages(set);
    const messages = allMessages.slice(0, Math.min(allMessages.length, budgets.signMessages));
    const zeroSeed = new Uint8Array(32);
    const ours = peers[0].impl(set);
    const { publicKey, secretKey } = ours.keygen(zeroSeed);
    const ops = new Map(peers.map((p) => [p.id, p.impl(set)]));

    // Cross-check outputs before timing.
    const oursSign = ours.signer(secretKey, zeroSeed);
    const sigs = messages.map((m) => oursSign(m));
    const checkCount = Math.min(3, messages.length);
    for (const p of peers) {
      const o = ops.get(p.id);
      if (!o) continue;
      if (hex(o.publicKeyOf(zeroSeed)) !== hex(publicKey)) problems.push(`${SET_NAME(set)}: ${p.id} keygen(0) public key differs from ours`);
      const s = o.signer(secretKey, zeroSeed);
      for (let i = 0; i < checkCount; i++)
        if (hex(s(messages[i])) !== hex(sigs[i])) problems.push(`${SET_NAME(set)}: ${p.id} deterministic signature ${i} differs from ours`);
      const v = o.verifier(publicKey);
      for (let i = 0; i < checkCount; i++)
        if (v(sigs[i], messages[i]) !== true) problems.push(`${SET_NAME(set)}: ${p.id} does not verify our signature ${i}`);
      const bad = sigs[0].slice();
      bad[5] ^= 1;
      if (v(bad, messages[0]) !== false) problems.push(`${SET_NAME(set)}: ${p.id} accepts a modified signature`);
    }

    for (const op of opts.ops) {
      const runners = [];
      for (const p of peers) {
        const o = ops.get(p.id);
        if (!o) continue;
        let i = 0;
        let run;
        let reset;
        if (op === 'keygen') {
          run = (n) => {
            for (let k = 0; k < n; k++) o.keygen(seedFor(i++));
          };
        } else if (op === 'sign') {
          const sign = o.signer(secretKey, zeroSeed);
          run = (n) => {
            for (let k = 0; k < n; k++) sign(messages[i++ % messages.length]);
          };
          reset = () => {
            i = 0;
          };
        } else {
          const verify = o.verifier(publicKey);
          run = (n) => {
            for (let k = 0; k < n; k++) {
              const j = i++ % messages.length;
              if (!verify(sigs[j], messages[j])) throw new Error(`${p.id}: verification failed`);
            }
          };
        }
        runners.push({ id: p.id, run, reset });
      }
      const plan = {
        warmMs: budgets.warmMs,
        batchMs: budgets.batchMs,
        batch: op === 'sign' ? messages.length : null,
        slice: op === 'sign' ? 4 : null,
        budgetMs: budgets[op],
        minRounds: budgets.minRounds,
        maxRounds: budgets.maxRounds,
        beforeRound: op === 'sign' ? (r) => r.reset() : undefined,
      };
      const m = await measure(runners, plan);
      const entry = { op, set: SET_NAME(set), peers: m, ratio: {} };
      for (const p of others) if (m[p.id]) entry.ratio[p.id] = m[p.id].us / m.ours.us;
      if (op === 'sign') entry.messages = { source, count: messages.length, of: allMessages.length };
      results.push(entry);
      printRow(entry, others, results.length === 1);
    }
  }
  const seconds = (now() - t0) / 1000;
  console.log(`bench: ${seconds.toFixed(1)} s${quick ? ' (--quick: few rounds, 16 signing messages; not representative)' : ''}`);
  for (const p of problems) console.log(`bench: WARNING: ${p}`);

  const report = {
    date: new Date().toISOString(),
    quick,
    node: process.version,
    v8: process.versions.v8,
    platform: `${process.platform}-${process.arch}`,
    cpu: os.cpus()[0]?.model ?? null,
    cpus: os.cpus().length,
    peers: Object.fromEntries(peers.map((p) => [p.id, { name: p.name, version: p.version }])),
    method: 'interleaved rounds after warm-up; median µs/op; sign = deterministic, empty context, key from KeyGen(0), one round = one pass over the message set, peers alternating every 4 messages',
    ratio: 'peer µs / ours µs (how many times faster ours is)',
    seconds,
    problems,
    results,
  };
  fs.mkdirSync(path.dirname(opts.out), { recursive: true });
  fs.writeFileSync(opts.out, JSON.stringify(report, null, 2) + '\n');
  console.log(`bench: wrote ${path.relative(process.cwd(), opts.out) || opts.out}`);
  if (problems.length) process.exitCode = 1;
}

function fmt(us) {
  return us >= 1000 ? us.toFixed(0) : us >= 100 ? us.toFixed(1) : us.toFixed(2);
}

function printRow(entry, others, header) {
  const cols = [
    ['op', 7, entry.op],
    ['set', 10, entry.set],
    ['ours µs', 10, fmt(entry.peers.ours.us)],
  ];
  for (const p of others) {
    const m = entry.peers[p.id];
    cols.push([`${p.id} µs`, 10, m ? fmt(m.us) : '-']);
    cols.push([`${p.id}/ours`, 11, m ? `${entry.ratio[p.id].toFixed(2)}x` : '-']);
  }
  if (header) {
    console.log(cols.map(([h, w]) => h.padStart(w)).join(' '));
    console.log(cols.map(([, w]) => '-'.repeat(w)).join(' '));
  }
  console.log(cols.map(([, w, v]) => String(v).padStart(w)).join(' '));
}

main().catch((e) => {
  console.error(`bench: ERROR: ${e.message}`);
  process.exit(1);
});
