// Runs web-platform-tests' WebCryptoAPI files (kept unedited under
// pkg-tests/wpt/, see its SOURCE.md) with our harness (lib/testharness.js):
// in a Node child process per file (lib/wpt-child.mjs), or in a browser page
// served from 127.0.0.1. Each run resolves to
// { installed, results: [{ name, status, message }], harnessErrors }.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const libDir = path.dirname(fileURLToPath(import.meta.url));
export const wptDir = path.resolve(libDir, '..', 'wpt');
export const harnessFile = path.join(libDir, 'testharness.js');
const childFile = path.join(libDir, 'wpt-child.mjs');

/**
 * The scripts a WPT .any.js file runs, in order: its `// META: script=` lines
 * (relative to the file, or to the WPT root when they start with /), then the
 * file; as paths relative to the WPT root.
 */
export function scriptsOf(file) {
  const text = fs.readFileSync(path.join(wptDir, file), 'utf8');
  const dir = path.posix.dirname(file);
  const scripts = [];
  for (const m of text.matchAll(/^\/\/ META: script=(\S+)\s*$/gm)) {
    const src = m[1];
    scripts.push(src.startsWith('/') ? src.slice(1) : path.posix.normalize(path.posix.join(dir, src)));
  }
  for (const s of scripts) if (!fs.existsSync(path.join(wptDir, s))) throw new Error(`${file}: META script ${s} is missing from pkg-tests/wpt`);
  return [...scripts, file];
}

/**
 * One file in a Node child process. `node`: the binary; `mode`: 'install',
 * 'force' or 'none' (no mldsa-simd: the platform alone); `hideNative`: the
 * platform's ML-DSA hidden first; `moduleUrl`: mldsa-simd/webcrypto's URL.
 */
export function runInNode({ node, file, mode, hideNative = false, moduleUrl, timeoutMs = 240_000 }) {
  const cfg = { mode, hideNative, moduleUrl, harness: harnessFile, scripts: scriptsOf(file).map((s) => path.join(wptDir, s)) };
  return new Promise((resolve, reject) => {
    const child = spawn(node, [childFile, JSON.stringify(cfg)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`${file} (${node}, ${mode}): exit ${code ?? signal}\n${err.slice(-4000)}`));
      try {
        resolve(JSON.parse(out));
      } catch (e) {
        reject(new Error(`${file}: no JSON result (${e.message})\n${out.slice(-2000)}\n${err.slice(-2000)}`));
      }
    });
  });
}

/**
 * The page for browsers. `?mode=` install | force | none; once loaded it has
 * window.__ready (true, or the error of the import / install()),
 * window.__installed, and window.__run(scripts) → the file's results.
 */
export function browserPage(pkgName) {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>WPT WebCryptoAPI</title></head>
<body>
<script type="module">
const mode = new URLSearchParams(location.search).get('mode');
window.__installed = null;
try {
  if (mode !== 'none') {
    const { install } = await import('/node_modules/${pkgName}/webcrypto.mjs');
    window.__installed = await install(mode === 'force' ? { force: true } : undefined);
  }
  window.__ready = true;
} catch (e) {
  window.__ready = String(e && e.stack || e);
}
window.__run = async (scripts) => {
  for (const src of scripts) {
    await new Promise((resolve) => {
      const s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = () => {
        if (window.__wpt) window.__wpt.harnessError(new Error('cannot load ' + src));
        resolve();
      };
      document.head.appendChild(s);
    });
  }
  return { installed: window.__installed, ...(await window.__wpt.complete()) };
};
</script></body></html>`;
}

/** The server mounts the page needs (beside the consumer folder at /). */
export const browserMounts = () => ({ '/wpt/': wptDir, '/harness/': libDir });

/** One file in a browser page (lib/chromium.mjs or lib/firefox.mjs's `page`), at `origin`. */
export async function runInPage(page, origin, file, mode) {
  await page.goto(`${origin}/?mode=${mode}`, { waitUntil: 'load' });
  let ready;
  for (let i = 0; i < 600 && ready === undefined; i++) {
    ready = await page.evaluate(() => window.__ready);
    if (ready === undefined) await new Promise((r) => setTimeout(r, 100));
  }
  if (ready !== true) throw new Error(`${file} (${mode}): the page failed: ${ready}`);
  const scripts = ['/harness/testharness.js', ...scriptsOf(file).map((s) => `/wpt/${s}`)];
  return page.evaluate((list) => window.__run(list), scripts);
}
