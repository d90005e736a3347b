// The benchmark page (www/bench.html) in headless Debian Chromium: www/serve.mjs
// serves the repository on loopback, with /pkg/ pointing at the package installed
// from the packed tarball; the page runs in quick mode and must finish with a
// positive time in every cell (operation × parameter set × peer), no cross-check
// problem, the engine and SIMD support printed. Chromium has ML-DSA in
// WebCrypto: it is a peer ("native") with a figure in every cell, and its
// cross-check (its public key of our seed, it verifying our signatures, ours
// verifying its hedged ones) is part of the page's problems; with
// crypto.subtle's ML-DSA taken away, the page says the browser has none.
// Screenshot: artifacts/bench-page.png. Timings are reported, never asserted.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IMPL, artifactsDir, installedPackageDir, repoRoot } from './lib/load.mjs';
import { startServer } from '../www/serve.mjs';
import { openPage } from './lib/chromium.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const PEERS = ['ours', 'native', 'liboqs', 'noble'];
const OPS = ['keygen', 'sign', 'verify'];
const SETS = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];

test('bench page: a quick run in headless Chromium fills every cell', { skip, timeout: 90_000 }, async (t) => {
  const server = await startServer({ root: repoRoot, pkgDir: installedPackageDir() });
  const base = `http://127.0.0.1:${server.address().port}`;
  let browser;
  try {
    browser = await openPage({ viewport: { width: 1000, height: 900 }, profilePrefix: 'mldsa-bench-chromium-' });
    const { page: pg, problems, offsite } = browser;

    const t0 = Date.now();
    await pg.goto(`${base}/www/bench.html?quick`, { waitUntil: 'load' });
    await pg.waitForFunction(() => ['done', 'error'].includes(window.__bench?.state), null, { timeout: 75_000, polling: 250 });
    const state = await pg.evaluate(() => window.__bench);
    const cells = await pg.$$eval('#table td[data-peer]', (tds) =>
      tds.map((td) => ({
        peer: td.dataset.peer,
        us: td.dataset.us,
        text: td.textContent,
        row: td.parentElement.children[0].textContent + ' ' + td.parentElement.children[1].textContent,
      })),
    );
    const envText = await pg.$eval('#env', (e) => e.textContent);
    fs.mkdirSync(artifactsDir, { recursive: true });
    await pg.screenshot({ path: path.join(artifactsDir, 'bench-page.png'), fullPage: true });
    t.diagnostic(
      `bench page: ${state.state} in ${((Date.now() - t0) / 1000).toFixed(1)} s; SIMD ${state.simd}; ${state.userAgent}; screenshot pkg-tests/artifacts/bench-page.png`,
    );

    assert.equal(state.error, undefined, `the page threw: ${state.error}`);
    assert.equal(state.state, 'done');
    assert.deepEqual(problems, []);
    assert.deepEqual(offsite, [], 'the page tried to reach other hosts');
    assert.deepEqual(state.problems, [], 'cross-check problems or peers that did not load');
    assert.deepEqual(Object.keys(state.peers).sort(), [...PEERS].sort(), 'every browser peer loaded');
    assert.equal(state.simd, true, 'Chromium supports WebAssembly SIMD');
    assert.match(envText, /Chrome\//, 'the engine (user agent) is printed');
    assert.match(envText, /WebAssembly SIMD\s*supported/, 'SIMD support is printed');
    assert.match(envText, /Timer\s*cross-origin isolated/, 'the server sends COOP/COEP, so the timer is fine-grained');
    assert.deepEqual(state.peers.native.sets, [44, 65, 87], 'native ML-DSA found for every set');
    assert.equal(state.peers.native.context, true, 'Chromium takes a context string');
    assert.match(envText, /WebCrypto ML-DSA\s*ML-DSA-44, ML-DSA-65, ML-DSA-87; context supported/);
    const notesText = await pg.$eval('#notes', (e) => e.textContent);
    assert.match(notesText, /This browser has ML-DSA in WebCrypto/);
    assert.doesNotMatch(notesText, /no ML-DSA in WebCrypto/);
    assert.match(await pg.$eval('#table-legend', (e) => e.textContent), /keygen is generateKey.*its sign is hedged/);
    for (const set of SETS) {
      const fig = (op) => {
        const r = state.results.find((x) => x.op === op && x.set === set);
        return `${op} ${r.peers.native.us.toFixed(0)} / ${r.peers.ours.us.toFixed(0)} µs (${r.ratio.native.toFixed(2)}×)`;
      };
      t.diagnostic(`bench page: ${set} native / ours: ${OPS.map(fig).join(', ')}`);
    }

    // Every op × set × peer: in the results and as a positive number in the table.
    assert.equal(state.results.length, OPS.length * SETS.length);
    for (const op of OPS)
      for (const set of SETS) {
        const r = state.results.find((x) => x.op === op && x.set === set);
        assert.ok(r, `no result for ${op} ${set}`);
        for (const peer of PEERS) {
          assert.ok(r.peers[peer]?.us > 0, `${op} ${set} ${peer}: no positive time`);
          const cell = cells.find((c) => c.row === `${op} ${set}` && c.peer === peer);
          assert.ok(cell, `table cell ${op} ${set} ${peer} missing`);
          assert.ok(Number(cell.us) > 0 && Number.parseFloat(cell.text) > 0, `table cell ${op} ${set} ${peer} is not a positive number: ${cell.text}`);
        }
      }
    assert.equal(cells.length, OPS.length * SETS.length * PEERS.length);
    const chartBars = await pg.$$eval('#chart svg rect', (rs) => rs.length);
    assert.equal(chartBars, OPS.length * SETS.length * PEERS.length, 'one chart bar per cell');

    // The same page where crypto.subtle refuses ML-DSA (as in browsers without it):
    // no native peer, and the page says so before the run starts.
    await pg.addInitScript(() => {
      const { subtle } = crypto;
      for (const f of ['generateKey', 'importKey', 'sign', 'verify']) {
        const real = subtle[f].bind(subtle);
        subtle[f] = (...args) => {
          const alg = f === 'importKey' ? args[2] : args[0];
          const name = typeof alg === 'string' ? alg : alg?.name;
          return String(name).startsWith('ML-DSA') ? Promise.reject(new DOMException('Unrecognized name', 'NotSupportedError')) : real(...args);
        };
      }
    });
    await pg.goto(`${base}/www/bench.html?quick`, { waitUntil: 'load' });
    await pg.waitForFunction(() => ['running', 'done', 'error'].includes(window.__bench?.state), null, { timeout: 30_000, polling: 100 });
    const without = await pg.evaluate(() => ({ peers: Object.keys(window.__bench.peers), env: document.querySelector('#env').textContent }));
    assert.deepEqual(without.peers.sort(), ['liboqs', 'noble', 'ours']);
    assert.match(without.env, /WebCrypto ML-DSA\s*this browser has no ML-DSA in WebCrypto/);
  } finally {
    await browser?.close();
    await new Promise((r) => server.close(r));
  }
});
