#!/usr/bin/env node
// Load test of the service with autocannon, on loopback: for each backend, start
// server.mjs as a child process, send a fixed mix of valid, invalid, malformed,
// oversized and batched requests for --duration seconds, check every answer,
// sample the server's RSS, then stop it with SIGTERM. Prints a table.
//   node load-test.mjs [--duration 15] [--connections 16] [--backends mldsa-simd,node-crypto]
//                      [--node /path/to/node] [--json FILE] [--only "valid,JSON batch 16"]
// Exits 1 on a crash, a 5xx, a wrong answer, an unclean stop or RSS growth over --rss-growth MiB.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { makeDemo } from './lib/demo.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values: opt } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '16' },
    backends: { type: 'string' }, // default: both, or only mldsa-simd when --node is older than Node 24
    node: { type: 'string', default: process.execPath },
    json: { type: 'string' },
    'rss-growth': { type: 'string', default: '64' },
    only: { type: 'string' }, // comma-separated request names of the mix, e.g. "valid" or "JSON batch 16"
  },
});
if (opt.backends === undefined) {
  const major = Number(execFileSync(opt.node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).split('.')[0]);
  opt.backends = major >= 24 ? 'mldsa-simd,node-crypto' : 'mldsa-simd';
  if (major < 24) console.error(`load-test: ${opt.node} is Node ${major}: no node:crypto ML-DSA, so mldsa-simd only (--node a Node 24 for both)`);
}
const MAX_BODY = 1024 * 1024;
const MiB = 1024 * 1024;

/** The mix: each entry is sent in turn on every connection, with the answer it must get. */
function requestMix(demo) {
  const json = (body) => ({
    method: 'POST',
    path: '/verify',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const binary = (p, body) => ({ method: 'POST', path: p, headers: { 'content-type': 'application/octet-stream' }, body });
  const valid = demo.item('alice', 'load test message');
  const batch = [];
  for (let i = 0; i < 16; i++) batch.push(demo.item(['alice', 'bob', 'carol'][i % 3], `batch item ${i}`));
  batch[5] = { ...batch[5], msg: Buffer.from('tampered').toString('base64') };
  batch[11] = { ...batch[11], sig: batch[10].sig };
  const records = [];
  for (let i = 0; i < 16; i++) records.push(demo.record('carol', `record ${i}`));
  const bobRecord = demo.record('bob', 'binary message');
  return [
    { name: 'valid', items: 1, status: 200, expect: '{"valid":true}', ...json(valid) },
    { name: 'tampered', items: 1, status: 200, expect: '{"valid":false}', ...json({ ...valid, msg: Buffer.from('other').toString('base64') }) },
    { name: 'context', items: 1, status: 200, expect: '{"valid":true}', ...json(demo.item('carol', 'with context', 'ctx-1')) },
    { name: 'short sig', items: 1, status: 200, expect: '{"valid":false}', ...json({ ...valid, sig: valid.sig.slice(0, 400) }) },
    { name: 'binary', items: 1, status: 200, expect: '{"valid":true}', ...binary('/verify/bob', bobRecord) },
    { name: 'JSON batch 16', items: 16, status: 200, expect: JSON.stringify(batch.map((_, i) => ({ valid: i !== 5 && i !== 11 }))), ...json(batch) },
    {
      name: 'binary batch 16',
      items: 16,
      status: 200,
      expect: JSON.stringify(records.map(() => ({ valid: true }))),
      ...binary('/verify/carol/batch', Buffer.concat(records)),
    },
    { name: 'unknown kid', items: 0, status: 404, ...json({ ...valid, kid: 'mallory' }) },
    { name: 'bad JSON', items: 0, status: 400, ...json('{"kid":"alice","msg":') },
    { name: 'bad base64', items: 0, status: 400, ...json({ ...valid, sig: '!!!!' + valid.sig.slice(4) }) },
    { name: 'truncated binary', items: 0, status: 400, ...binary('/verify/bob', bobRecord.subarray(0, 100)) },
    { name: 'wrong type', items: 0, status: 415, ...json(valid), headers: { 'content-type': 'text/plain' } },
    { name: 'wrong method', items: 0, status: 405, method: 'PUT', path: '/verify', headers: { 'content-type': 'application/json' }, body: '{}' },
    { name: 'big batch', items: 0, status: 413, closes: true, ...json(Array.from({ length: 257 }, () => ({ kid: 'bob', msg: '', sig: '' }))) },
    { name: 'oversized', items: 0, status: 413, closes: true, ...json(Buffer.alloc(MAX_BODY + 1, 0x20)) },
  ];
}

// A 413 closes its connection (the rest of the body is not read), and autocannon's
// sequence on a connection that was closed no longer lines up with the answers: the
// requests that close go on their own connections, where every answer is 413.
function cannon(url, connections, mix, counts, wrong) {
  return autocannon({
    url,
    connections,
    duration: Number(opt.duration),
    timeout: 10,
    requests: mix.map((r) => ({
      method: r.method,
      path: r.path,
      headers: r.headers,
      body: r.body,
      onResponse(status, body) {
        counts[r.index]++;
        if (status !== r.status || (r.expect !== undefined && body !== r.expect)) wrong[r.index]++;
      },
    })),
  });
}

function readRss(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function startServer(backend, demo) {
  const child = spawn(
    opt.node,
    [path.join(here, 'server.mjs'), '--backend', backend, '--keys', demo.keysDir, '--jwks', demo.jwksFile, '--port', '0', '--max-body', String(MAX_BODY)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`${backend} server exited (${code}) before listening: ${err}`)));
  });
  const exited = once(child, 'exit');
  return { child, url, exited, output: () => out + err };
}

async function run(backend, demo, mix) {
  const server = await startServer(backend, demo);
  let crashed = false;
  server.exited.then(() => (crashed = !stopping));
  let stopping = false;
  const rss = [];
  const sampler = setInterval(() => {
    const v = readRss(server.child.pid);
    if (v) rss.push(v);
  }, 250);
  const counts = mix.map(() => 0);
  const wrong = mix.map(() => 0);
  const indexed = mix.map((r, index) => ({ ...r, index }));
  const keepAlive = indexed.filter((r) => !r.closes);
  const closes = indexed.filter((r) => r.closes);
  const none = { requests: { total: 0 }, statusCodeStats: {}, errors: 0, timeouts: 0 };
  const [result, closing] = await Promise.all([
    keepAlive.length ? cannon(server.url, Number(opt.connections), keepAlive, counts, wrong) : none,
    closes.length ? cannon(server.url, keepAlive.length ? 2 : Number(opt.connections), closes, counts, wrong) : none,
  ]);
  result.duration ??= closing.duration;
  result.latency ??= closing.latency;
  clearInterval(sampler);
  const health = await fetch(server.url + '/healthz').then(
    (r) => r.status,
    (e) => e.message,
  );
  stopping = true;
  server.child.kill('SIGTERM');
  const [exitCode, signal] = await server.exited;
  const status = {};
  for (const r of [result, closing]) for (const [code, { count }] of Object.entries(r.statusCodeStats)) status[code] = (status[code] ?? 0) + Number(count);
  const fivexx = Object.entries(status)
    .filter(([c]) => c >= 500)
    .reduce((s, [, n]) => s + n, 0);
  const verifications = counts.reduce((s, n, i) => s + n * mix[i].items, 0);
  // RSS: the first 40% of the samples are warm-up (JIT, worker start, allocator
  // pools); growth is the median of the last fifth over the median of the third.
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const fifth = Math.max(1, Math.floor(rss.length / 5));
  return {
    backend,
    node: opt.node === process.execPath ? process.version : opt.node,
    duration: Number(opt.duration),
    connections: Number(opt.connections),
    requestsPerSec: (result.requests.total + closing.requests.total) / result.duration,
    verificationsPerSec: verifications / result.duration,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    status,
    fivexx,
    // Connection errors on the keep-alive connections (none expected), and on the
    // ones a 413 closes while autocannon still writes the body (expected).
    errors: result.errors,
    timeouts: result.timeouts + closing.timeouts,
    closedErrors: closing.errors,
    wrong: Object.fromEntries(mix.map((r, i) => [r.name, wrong[i]]).filter(([, n]) => n > 0)),
    perRequest: Object.fromEntries(mix.map((r, i) => [r.name, counts[i]])),
    crashed,
    healthAfter: health,
    exitCode,
    exitSignal: signal,
    // /proc is Linux's: elsewhere there are no samples and no RSS check.
    rss: rss.length
      ? { samples: rss.length, warm: median(rss.slice(2 * fifth, 3 * fifth)), last: median(rss.slice(-fifth)), max: Math.max(...rss), all: rss }
      : undefined,
  };
}

function table(results) {
  const rows = [
    ['backend', 'req/s', 'verif/s', 'p50 ms', 'p99 ms', 'status counts', '5xx', 'errors (on 413)', 'timeouts', 'wrong', 'RSS warm/last/max MiB', 'exit'],
  ];
  for (const r of results)
    rows.push([
      r.backend,
      r.requestsPerSec.toFixed(0),
      r.verificationsPerSec.toFixed(0),
      String(r.latencyP50),
      String(r.latencyP99),
      Object.entries(r.status)
        .map(([c, n]) => `${c}:${n}`)
        .join(' '),
      String(r.fivexx),
      `${r.errors} (${r.closedErrors})`,
      String(r.timeouts),
      String(Object.values(r.wrong).reduce((s, n) => s + n, 0)),
      r.rss ? [r.rss.warm, r.rss.last, r.rss.max].map((v) => (v / MiB).toFixed(0)).join('/') : 'n/a',
      r.crashed ? 'CRASHED' : String(r.exitCode),
    ]);
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows.map((row) => row.map((cell, c) => cell.padEnd(widths[c])).join('  ')).join('\n');
}

/** What makes the run fail: the service's promises, not its speed. */
export function problems(r, rssGrowthMiB) {
  const p = [];
  if (r.crashed) p.push('the server crashed');
  if (r.fivexx) p.push(`${r.fivexx} responses with 5xx`);
  if (r.errors) p.push(`${r.errors} connection errors on keep-alive connections`);
  if (r.timeouts) p.push(`${r.timeouts} requests timed out`);
  for (const [name, n] of Object.entries(r.wrong)) p.push(`${n} wrong answers to "${name}"`);
  for (const [name, n] of Object.entries(r.perRequest)) if (n === 0) p.push(`no answer at all to "${name}"`);
  if (r.healthAfter !== 200) p.push(`/healthz after the load: ${r.healthAfter}`);
  if (r.exitCode !== 0) p.push(`exit after SIGTERM: ${r.exitCode ?? r.exitSignal}`);
  if (r.rss && (r.rss.last - r.rss.warm) / MiB > rssGrowthMiB) p.push(`RSS grew ${((r.rss.last - r.rss.warm) / MiB).toFixed(0)} MiB (over ${rssGrowthMiB})`);
  return p;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-service-load-'));
try {
  const demo = makeDemo(dir);
  let mix = requestMix(demo);
  if (opt.only) {
    const names = opt.only.split(',');
    for (const n of names) if (!mix.some((r) => r.name === n)) throw new Error(`--only: no request "${n}" (${mix.map((r) => r.name).join(', ')})`);
    mix = mix.filter((r) => names.includes(r.name));
  }
  demo.wipe();
  const results = [];
  for (const backend of opt.backends.split(',')) {
    console.error(
      `load-test: ${backend} on ${opt.node === process.execPath ? `node ${process.version}` : opt.node}, ${opt.connections} connections, ${opt.duration} s`,
    );
    results.push(await run(backend, demo, mix));
  }
  console.log(table(results));
  if (opt.json) fs.writeFileSync(opt.json, JSON.stringify(results, null, 2) + '\n');
  let failed = false;
  for (const r of results)
    for (const p of problems(r, Number(opt['rss-growth']))) {
      console.error(`load-test: ${r.backend}: ${p}`);
      failed = true;
    }
  process.exitCode = failed ? 1 : 0;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
