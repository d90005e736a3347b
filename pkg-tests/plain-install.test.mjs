// `npm install mldsa-simd` and nothing else: the packed tarball installed into an
// empty folder outside the repository (lib/plain.mjs), cache first like scripts/test.sh.
// npm installs the package alone (it has no dependencies, not even optional peers),
// every exported subpath loads by import and by require, the main entry signs and
// verifies, and the Node pool of mldsa-simd/worker runs (it needs no other package).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { IMPL, PKG_NAME, consumerDir } from './lib/load.mjs';
import { emptyFolder, plainEnv } from './lib/plain.mjs';
import { packedTarball } from './lib/verify-service.mjs';

const skip = IMPL === 'noble' ? 'needs the packed package (MLDSA_IMPL=noble)' : false;

// A name each subpath exports, in Node (export condition "node").
const EXPORTS = {
  '.': 'ml_dsa65',
  './ml-dsa.js': 'ml_dsa65',
  './keys': 'importSecretKey',
  './prehash': 'sha512',
  './verify': 'ml_dsa65',
  './webcrypto': 'subtle',
  './keystore': 'saveKey',
  './composite': 'composite',
  './worker': 'createPool',
  './worker-task': 'default',
};

const PROBE = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const error = (e) => ({ name: e?.constructor?.name, message: String(e?.message), code: e?.code, cause: e?.cause?.code });
const pj = require('${PKG_NAME}/package.json');
const out = { subpaths: Object.keys(pj.exports), esm: {}, cjs: {}, pool: {} };
for (const sub of out.subpaths) {
  const spec = sub === '.' ? '${PKG_NAME}' : '${PKG_NAME}/' + sub.slice(2);
  try { out.esm[sub] = Object.keys(await import(spec)).sort(); } catch (e) { out.esm[sub] = error(e); }
  try { out.cjs[sub] = Object.keys(require(spec)).sort(); } catch (e) { out.cjs[sub] = error(e); }
}
for (const [kind, load] of [['esm', () => import('${PKG_NAME}/worker')], ['cjs', async () => require('${PKG_NAME}/worker')]]) {
  const { createPool } = await load();
  try {
    const pool = createPool({ size: 1 });
    const { publicKey, secretKey } = await pool.ml_dsa44.keygen();
    const msg = new TextEncoder().encode(kind);
    out.pool[kind] = await pool.ml_dsa44.verify(await pool.ml_dsa44.sign(msg, secretKey), msg, publicKey);
    await pool.close();
  } catch (e) {
    out.pool[kind] = error(e);
  }
}
const { ml_dsa65 } = await import('${PKG_NAME}');
const { publicKey, secretKey } = ml_dsa65.keygen();
const msg = new TextEncoder().encode('plain install');
out.verifies = ml_dsa65.verify(ml_dsa65.sign(msg, secretKey), msg, publicKey);
console.log('RESULT ' + JSON.stringify(out));
`;

/** Every package in an `npm ls --all --json` tree that is installed (has a version), as name@version. */
function installedIn(tree) {
  const found = [];
  const walk = (deps) => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      if (node.version) found.push(`${name}@${node.version}`);
      walk(node.dependencies);
    }
  };
  walk(tree.dependencies);
  return found;
}

test('npm install of the tarball alone: nothing else installed, every entry loads, the worker pool runs', { skip, timeout: 120_000 }, (t) => {
  const tarball = packedTarball(consumerDir);
  assert.ok(tarball, `no mldsa-simd-*.tgz in ${consumerDir}: run scripts/test.sh (npm test), which packs pkg/ there`);
  const dir = emptyFolder();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const npm = (...args) => execFileSync('npm', args, { cwd: dir, encoding: 'utf8', env: plainEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  npm('install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball);

  // npm's view: the package and nothing else.
  const tree = JSON.parse(npm('ls', '--all', '--json'));
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', PKG_NAME, 'package.json'), 'utf8')).version;
  assert.deepEqual(installedIn(tree), [`${PKG_NAME}@${version}`], `npm ls --all: ${JSON.stringify(tree)}`);
  // And the disk's: node_modules holds the package and npm's record only.
  assert.deepEqual(fs.readdirSync(path.join(dir, 'node_modules')).sort(), ['.package-lock.json', PKG_NAME]);

  const file = path.join(dir, 'probe.mjs');
  fs.writeFileSync(file, PROBE);
  const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: plainEnv() });
  const line = (r.stdout || '').split('\n').find((l) => l.startsWith('RESULT '));
  assert.ok(r.status === 0 && line, `the probe failed (status ${r.status}, signal ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  const out = JSON.parse(line.slice(7));

  assert.deepEqual(out.subpaths.filter((s) => s !== './package.json').sort(), Object.keys(EXPORTS).sort(), 'the exported subpaths (add a new one to EXPORTS)');
  for (const [sub, name] of Object.entries(EXPORTS)) {
    for (const kind of ['esm', 'cjs']) {
      const got = out[kind][sub];
      assert.ok(Array.isArray(got), `${kind === 'esm' ? 'import' : 'require'}('${sub}') failed: ${JSON.stringify(got)}`);
      assert.ok(got.includes(name), `${kind} ${sub} exports ${got}, not ${name}`);
    }
  }
  assert.ok(Array.isArray(out.cjs['./package.json']), 'require of mldsa-simd/package.json');
  assert.equal(out.verifies, true, 'the main entry signs and verifies');
  for (const kind of ['esm', 'cjs']) assert.equal(out.pool[kind], true, `${kind}: a pool's keygen, sign and verify: ${JSON.stringify(out.pool[kind])}`);
});
