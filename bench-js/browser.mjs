#!/usr/bin/env node
// The benchmark page (www/bench.html) in headless Debian Chromium, from the
// command line: serves the repository with /pkg/ = the built package, runs the
// whole page (the same harness as `npm run bench`, without node:crypto but with
// the browser's own WebCrypto ML-DSA where it has one), and prints its table.
//
//   node bench-js/browser.mjs [--quick] [--pkg path/to/pkg] [--out file.json]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../www/serve.mjs';
import { openPage } from '../pkg-tests/lib/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i < 0 ? undefined : argv[i + 1];
};
const quick = argv.includes('--quick');
const pkgDir = path.resolve(opt('--pkg') ?? path.join(root, 'pkg'));
const out = opt('--out');

const server = await startServer({ root, pkgDir, port: 0 });
const browser = await openPage({ viewport: { width: 1000, height: 900 }, profilePrefix: 'mldsa-bench-cli-' });
try {
  const { page, problems } = browser;
  const t0 = Date.now();
  await page.goto(`http://127.0.0.1:${server.address().port}/www/bench.html${quick ? '?quick' : ''}`, { waitUntil: 'load' });
  await page.waitForFunction(() => ['done', 'error'].includes(window.__bench?.state), null, { timeout: 600_000, polling: 500 });
  const state = await page.evaluate(() => window.__bench);
  if (state.state !== 'done') throw new Error(`the page stopped: ${state.error}`);
  const peers = ['ours', 'native', 'liboqs', 'noble'].filter((p) => state.peers[p]);
  console.log(`browser: ${state.userAgent}; SIMD ${state.simd}; ${((Date.now() - t0) / 1000).toFixed(1)} s${quick ? ' (quick)' : ''}`);
  console.log(['op', 'set', ...peers.flatMap((p) => (p === 'ours' ? ['ours µs'] : [`${p} µs`, `${p}/ours`]))].map((s) => s.padStart(12)).join(''));
  for (const r of state.results) {
    const cells = [r.op, r.set];
    for (const p of peers) {
      cells.push(r.peers[p] ? r.peers[p].us.toPrecision(4) : '-');
      if (p !== 'ours') cells.push(r.ratio[p] ? `${r.ratio[p].toFixed(2)}x` : '-');
    }
    console.log(cells.map((s) => String(s).padStart(12)).join(''));
  }
  for (const p of [...problems, ...state.problems]) console.log(`browser: problem: ${typeof p === 'string' ? p : JSON.stringify(p)}`);
  if (out) fs.writeFileSync(out, JSON.stringify({ userAgent: state.userAgent, results: state.results }, null, 1));
} finally {
  await browser.close();
  server.close();
}
