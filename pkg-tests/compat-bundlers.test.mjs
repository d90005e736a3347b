// Compatibility matrix, bundlers and browsers: compat/page.js (and its module
// Worker, compat/worker.js) built for production by Vite, webpack, Rollup and
// esbuild (each minifying: Rollup with its terser plugin) from a fresh project with the packed package, served on 127.0.0.1 and
// opened in headless Chromium (Debian, playwright-core) and headless Firefox ESR
// (Debian, puppeteer-core over WebDriver BiDi). Each page and worker runs
// compat/probe.js after install({ force: true }); the answers are judged here.
// Prints the size of each bundle (all emitted JS, bytes and gzip).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { IMPL } from './lib/load.mjs';
import { Results, project, run, toolVersion, probeFile, judge, brief } from './lib/compat.mjs';
import { openPage } from './lib/chromium.mjs';
import { openFirefox, FIREFOX } from './lib/firefox.mjs';
import { serve } from './lib/serve.mjs';
import { bundlers } from './lib/bundlers.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const results = new Results('bundlers');
const HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>mldsa-simd compat</title></head><body><pre id="out">loading…</pre><script type="module" src="/page.js"></script></body></html>';
const node = process.execPath;

// Each bundler (lib/bundlers.mjs) builds src/page.js and src/worker.js into dist/page.js and dist/worker.js.
const BUNDLERS = bundlers({ page: 'src/page.js', worker: 'src/worker.js' });

function jsFiles(dir) {
  return fs
    .readdirSync(dir, { recursive: true })
    .filter((f) => /\.(m?js)$/.test(f))
    .map((f) => path.join(dir, f));
}

async function build(b) {
  const dir = project(`bundle-${b.pkg}`, { type: 'module' });
  fs.mkdirSync(path.join(dir, 'src'));
  for (const f of ['page.js', 'worker.js']) fs.copyFileSync(new URL(`./compat/${f}`, import.meta.url), path.join(dir, 'src', f));
  fs.copyFileSync(probeFile, path.join(dir, 'src', 'probe.js'));
  for (const [name, text] of Object.entries(b.files)) fs.writeFileSync(path.join(dir, name), text);
  const [first, ...rest] = b.args();
  const r = await run(b.native ? first : node, b.native ? rest : [first, ...rest], { cwd: dir, timeoutMs: 180_000, env: { NODE_ENV: 'production' } });
  const dist = path.join(dir, 'dist');
  if (r.code !== 0 || !fs.existsSync(path.join(dist, 'page.js')) || !fs.existsSync(path.join(dist, 'worker.js'))) {
    return { error: `build failed (exit ${r.code ?? r.signal}): ${brief(r.stdout + r.stderr, 1500)}` };
  }
  const files = jsFiles(dist);
  const bytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
  const gz = (f) => zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length;
  const gzip = files.reduce((s, f) => s + gz(f), 0);
  // What the page alone loads: everything but the worker's entry (shared chunks included).
  const worker = path.join(dist, 'worker.js');
  const pageBytes = bytes - fs.statSync(worker).size;
  const pageGzip = gzip - gz(worker);
  return { dist, files: files.length, bytes, gzip, pageBytes, pageGzip };
}

async function inBrowser(open, url) {
  const b = await open();
  try {
    await b.page.goto(url);
    await b.page.waitForFunction(() => globalThis.__compat !== undefined, { timeout: 90_000 });
    const out = await b.page.evaluate(() => globalThis.__compat);
    return { out, problems: [...b.problems, ...b.offsite.map((u) => `request off the machine: ${u}`)] };
  } finally {
    await b.close();
  }
}

test('compat: Vite, webpack, Rollup, esbuild × Chromium, Firefox ESR (page and module Worker)', { skip, timeout: 900_000 }, async (t) => {
  const chromiumVersion = (await run(process.env.MLDSA_CHROMIUM || '/usr/bin/chromium', ['--version'])).stdout.match(/(\d+)\.[\d.]+/);
  const firefoxVersion = (await run(FIREFOX, ['--version'])).stdout.match(/(\d+)\.[\d.]+(esr)?/);
  const browsers = [
    {
      label: `Chromium ${chromiumVersion?.[1] ?? '?'}`,
      exact: chromiumVersion?.[0],
      open: () => openPage({ viewport: { width: 800, height: 600 }, profilePrefix: 'mldsa-compat-' }),
    },
    { label: `Firefox ESR ${firefoxVersion?.[1] ?? '?'}`, exact: firefoxVersion?.[0], open: openFirefox },
  ];
  const sizes = [];
  for (const b of BUNDLERS) {
    const version = toolVersion(b.pkg);
    const shown = version.split('.').slice(0, 2).join('.');
    await t.test(`${b.name} ${version}`, async (t) => {
      const built = await build(b);
      if (!built.error)
        sizes.push({
          bundler: `${b.name} ${version}`,
          files: built.files,
          bytes: built.bytes,
          gzip: built.gzip,
          pageBytes: built.pageBytes,
          pageGzip: built.pageGzip,
        });
      const server = built.error ? undefined : await serve(built.dist, HTML);
      try {
        for (const br of browsers) {
          let seen;
          try {
            seen = built.error ? { error: built.error } : await inBrowser(br.open, `http://127.0.0.1:${server.address().port}/`);
          } catch (e) {
            seen = { error: `${br.label}: ${e.message}` };
          }
          for (const where of ['page', 'worker']) {
            await t.test(`${br.label} ${where}`, () => {
              const answer = seen.error ? { error: seen.error } : seen.out[where];
              const problems = judge(answer, { subtle: true, ours: true });
              if (answer && !answer.error && answer.forced !== true) problems.push(`install({ force: true }) answered ${JSON.stringify(answer.forced)}`);
              if (where === 'page' && seen.problems?.length) problems.push(...seen.problems);
              const cell = `${br.label} ${where === 'page' ? 'page' : 'module Worker'}`;
              results.add({
                env: b.name,
                version: shown,
                exact: version,
                cell,
                ok: problems.length === 0,
                error: problems.join('; ') || undefined,
                browser: br.exact,
                files: built.files,
                bytes: built.bytes,
                gzip: built.gzip,
                pageBytes: built.pageBytes,
                pageGzip: built.pageGzip,
              });
              assert.deepEqual(problems, [], `${b.name} in ${cell}`);
            });
          }
        }
      } finally {
        server?.close();
      }
    });
  }
  t.diagnostic(
    'bundle sizes: ' +
      sizes.map((s) => `${s.bundler}: page ${s.pageBytes} bytes (${s.pageGzip} gzip), all ${s.files} JS files ${s.bytes} (${s.gzip} gzip)`).join('; '),
  );
  console.log(
    '\n| bundler | page bytes | page gzip | JS files (page + worker) | all bytes | all gzip |\n|---|---:|---:|---:|---:|---:|\n' +
      sizes.map((s) => `| ${s.bundler} | ${s.pageBytes} | ${s.pageGzip} | ${s.files} | ${s.bytes} | ${s.gzip} |`).join('\n'),
  );
  await t.test('README.md "Supported environments" agrees with this run', () => {
    assert.deepEqual(results.readmeDisagreements(), []);
  });
});
