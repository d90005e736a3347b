// Compatibility matrix, other runtimes: Bun and Deno (npm packages bun, deno in
// compat/node_modules) import the package from a project with it in
// node_modules and run compat/probe.js; workerd (npm workerd) serves two workers
// on 127.0.0.1, one importing the package at the top, one with
// `await import('mldsa-simd')` in its fetch handler, each bundled by esbuild with
// the conditions workerd, worker, browser (.wasm files kept as wasm modules, so
// that a package entry that imports its .wasm works too), called over HTTP.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { IMPL } from './lib/load.mjs';
import { Results, project, run, lastJson, judge, tool, toolVersion, probeFile, compatDir, freshDir, brief } from './lib/compat.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const results = new Results('runtimes');

const SCRIPT = `const out = (r) => console.log('COMPAT ' + JSON.stringify(r));
try {
  const lib = await import('mldsa-simd');
  const { subtle, CryptoKey } = await import('mldsa-simd/webcrypto');
  const { probe } = await import(${JSON.stringify(pathToFileURL(probeFile).href)});
  out(await probe({ lib, subtle, OurKey: CryptoKey }));
} catch (e) {
  out({ error: String((e && e.stack) || e) });
}
`;

/** Records and checks the two cells of a probe answer: the main API, and mldsa-simd/webcrypto. */
async function twoCells(t, row, answer, exit) {
  for (const [cell, opts] of [
    ['ESM import', { subtle: false }],
    ['mldsa-simd/webcrypto', { subtle: true, ours: true }],
  ]) {
    await t.test(cell, () => {
      const problems = judge(answer, opts);
      if (exit) problems.push(exit);
      results.add({ ...row, cell, ok: problems.length === 0, error: problems.join('; ') || undefined });
      assert.deepEqual(problems, [], `${row.env} ${row.exact} ${cell}`);
    });
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer().once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Bundles a worker for workerd; returns the capnp module list (name → file, kind). */
async function bundleWorker(entry, outdir) {
  const esbuild = createRequire(path.join(compatDir, 'package.json'))('esbuild');
  const src = path.join(path.dirname(outdir), 'src');
  fs.mkdirSync(src, { recursive: true });
  fs.copyFileSync(new URL(`./compat/${entry}`, import.meta.url), path.join(src, 'worker.js'));
  fs.copyFileSync(probeFile, path.join(src, 'probe.js'));
  const r = await esbuild.build({
    entryPoints: [path.join(src, 'worker.js')],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['*.wasm'],
    outdir,
    metafile: true,
    logLevel: 'silent',
  });
  const modules = [];
  const pkgDir = path.join(path.dirname(outdir), 'node_modules', 'mldsa-simd');
  for (const [out, info] of Object.entries(r.metafile.outputs)) {
    if (!out.endsWith('.js')) continue;
    modules.push({ name: path.basename(out), file: path.resolve(out), kind: 'esModule', main: info.entryPoint !== undefined });
    for (const imp of info.imports.filter((i) => i.external && i.path.endsWith('.wasm'))) {
      const name = path.posix.normalize(imp.path).replace(/^\.\//, '');
      if (modules.some((m) => m.name === name)) continue;
      const file = fs
        .readdirSync(pkgDir, { recursive: true })
        .map((f) => path.join(pkgDir, f))
        .find((f) => path.basename(f) === path.basename(name));
      if (!file) throw new Error(`the bundle imports ${imp.path}, which is not in the installed package`);
      modules.push({ name, file, kind: 'wasm' });
    }
  }
  modules.sort((a, b) => b.main - a.main); // the entry first: workerd's main module
  return modules;
}

async function serveWorkerd(bin, dir, modules, date) {
  const port = await freePort();
  const list = modules.map((m) => `(name = ${JSON.stringify(m.name)}, ${m.kind} = embed ${JSON.stringify(path.relative(dir, m.file))})`).join(',\n    ');
  fs.writeFileSync(
    path.join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [
    ${list}
  ],
  compatibilityDate = "${date}",
);
`,
  );
  const child = spawn(bin, ['serve', 'config.capnp'], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  let exited = null;
  child.on('exit', (code, signal) => (exited = code ?? signal));
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  };
  return { port, stop, log: () => log, exited: () => exited };
}

async function call(server, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (server.exited() !== null) return { error: `workerd exited (${server.exited()}): ${brief(server.log(), 1500)}` };
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/`);
      const text = await res.text();
      try {
        return JSON.parse(text);
      } catch {
        return { error: `HTTP ${res.status}: ${brief(text)}; workerd: ${brief(server.log())}` };
      }
    } catch (e) {
      if (Date.now() > until) return { error: `no answer from workerd in ${timeoutMs} ms (${e.cause?.code ?? e.message}): ${brief(server.log())}` };
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

test('compat: Bun, Deno, workerd', { skip, timeout: 300_000 }, async (t) => {
  const dir = project('runtimes', { type: 'module' });
  fs.writeFileSync(path.join(dir, 'probe-run.mjs'), SCRIPT);

  const bun = tool('bun/bin/bun.exe');
  const bunVersion = (await run(bun, ['--version'])).stdout.trim();
  await t.test(`Bun ${bunVersion}`, async (t) => {
    const r = await run(bun, ['probe-run.mjs'], { cwd: dir, timeoutMs: 60_000 });
    const row = { env: 'Bun', version: bunVersion.split('.').slice(0, 2).join('.'), exact: bunVersion };
    await twoCells(t, row, lastJson(r.stdout), r.code === 0 ? undefined : `exit ${r.code ?? r.signal}: ${brief(r.stderr)}`);
  });

  const deno = tool('deno/deno');
  const denoVersion = (await run(deno, ['--version'])).stdout.match(/deno (\S+)/)?.[1];
  await t.test(`Deno ${denoVersion}`, async (t) => {
    const env = { DENO_DIR: freshDir('deno-cache'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
    const r = await run(deno, ['run', '--allow-read', '--allow-env', 'probe-run.mjs'], { cwd: dir, env, timeoutMs: 90_000 });
    const row = { env: 'Deno', version: denoVersion.split('.').slice(0, 2).join('.'), exact: denoVersion };
    await twoCells(t, row, lastJson(r.stdout), r.code === 0 ? undefined : `exit ${r.code ?? r.signal}: ${brief(r.stderr)}`);
  });

  const workerd = tool('workerd/bin/workerd');
  const date = (await run(workerd, ['--version'])).stdout.match(/\d{4}-\d\d-\d\d/)?.[0];
  await t.test(`workerd ${date}`, async (t) => {
    for (const [cell, entry] of [
      ['top-level import', 'workerd-top.js'],
      ['lazy import() in fetch', 'workerd-lazy.js'],
    ]) {
      await t.test(cell, async () => {
        const wdir = project(`workerd-${entry.replace('.js', '')}`, { type: 'module' });
        let answer;
        let server;
        try {
          const modules = await bundleWorker(entry, path.join(wdir, 'out'));
          server = await serveWorkerd(workerd, wdir, modules, date);
          answer = await call(server);
        } catch (e) {
          answer = { error: e.message };
        } finally {
          server?.stop();
        }
        const problems = judge(answer, { subtle: true, ours: true });
        results.add({ env: 'workerd', version: date, exact: toolVersion('workerd'), cell, ok: problems.length === 0, error: problems.join('; ') || undefined });
        assert.deepEqual(problems, [], `workerd ${cell}`);
      });
    }
  });

  await t.test('README.md "Supported environments" agrees with this run', () => {
    assert.deepEqual(results.readmeDisagreements(), []);
  });
});
