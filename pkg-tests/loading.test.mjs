// Loading the installed package the ways users do: ESM import and CommonJS require
// in fresh Node processes started from the consumer folder (no flags, no init call),
// the './ml-dsa.js' subpath when exported, and a copy outside this repository (so no
// parent node_modules can stand in for a missing dependency).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { IMPL, PKG_NAME, consumerDir, installedPackageDir } from './lib/load.mjs';
import { toHex } from './lib/util.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

// Expected results, from noble: keygen(seed) and a deterministic signature per set.
const SEED = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);
const MSG = new TextEncoder().encode('mldsa-simd loading test');
const EXPECTED = {};
for (const key of ['ml_dsa44', 'ml_dsa65', 'ml_dsa87']) {
  const { publicKey, secretKey } = noble[key].keygen(SEED);
  EXPECTED[key] = { pk: toHex(publicKey), sig: toHex(noble[key].sign(MSG, secretKey, { extraEntropy: false })) };
}

// Every child defines run(m) and prints the result for the module it loaded.
const RUN = `
function run(m) {
  const hex = (b) => Buffer.from(b).toString('hex').toUpperCase();
  const seed = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);
  const msg = new TextEncoder().encode('mldsa-simd loading test');
  const out = { node: process.versions.node, exports: Object.keys(m).sort() };
  for (const key of ['ml_dsa44', 'ml_dsa65', 'ml_dsa87']) {
    const alg = m[key];
    const { publicKey, secretKey } = alg.keygen(seed);
    const sig = alg.sign(msg, secretKey, { extraEntropy: false });
    const hedged = alg.sign(msg, secretKey);
    out[key] = {
      pk: hex(publicKey),
      sig: hex(sig),
      verifies: alg.verify(sig, msg, publicKey),
      hedgedVerifies: alg.verify(hedged, msg, publicKey),
      wrongMsg: alg.verify(sig, msg.subarray(1), publicKey),
    };
  }
  return out;
}
`;
const PRINT = "console.log('RESULT ' + JSON.stringify(run(m)));\n";
const NAMED = "if (!ml_dsa44 || !ml_dsa65 || !ml_dsa87) throw new Error('named exports missing');\n";

const SCRIPTS = {
  'esm.mjs': `import * as m from '${PKG_NAME}';\nimport { ml_dsa44, ml_dsa65, ml_dsa87 } from '${PKG_NAME}';\n${NAMED}${RUN}${PRINT}`,
  'cjs.cjs': `const m = require('${PKG_NAME}');\nconst { ml_dsa44, ml_dsa65, ml_dsa87 } = require('${PKG_NAME}');\n${NAMED}${RUN}${PRINT}`,
  'esm-subpath.mjs': `import * as m from '${PKG_NAME}/ml-dsa.js';\n${RUN}${PRINT}`,
  'cjs-subpath.cjs': `const m = require('${PKG_NAME}/ml-dsa.js');\n${RUN}${PRINT}`,
  // Both module systems in one process (two instances): each must work.
  'dual.mjs':
    `import { createRequire } from 'node:module';\nimport * as m from '${PKG_NAME}';\n` +
    `const cjs = createRequire(import.meta.url)('${PKG_NAME}');\n${RUN}` +
    'const a = JSON.stringify({ ...run(cjs), exports: 0 }), b = JSON.stringify({ ...run(m), exports: 0 });\n' +
    "if (a !== b) throw new Error('CommonJS and ESM copies disagree: ' + a.slice(0, 200) + ' vs ' + b.slice(0, 200));\n" +
    PRINT,
};

/** Writes the script into `dir`, runs `node <script>` there (no flags) and parses its result. */
function runChild(dir, name) {
  const file = path.join(dir, `.check-${name}`);
  fs.writeFileSync(file, SCRIPTS[name]);
  const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } });
  fs.rmSync(file, { force: true });
  const line = (r.stdout || '').split('\n').find((l) => l.startsWith('RESULT '));
  assert.ok(r.status === 0 && line, `node ${name} in ${dir} failed (status ${r.status}, signal ${r.signal}):\n${r.stderr}\n${r.stdout}`);
  return JSON.parse(line.slice(7));
}

function checkResult(res, what) {
  for (const key of ['ml_dsa44', 'ml_dsa65', 'ml_dsa87']) {
    assert.ok(res[key], `${what}: no result for ${key}`);
    assert.equal(res[key].pk, EXPECTED[key].pk, `${what}: ${key} keygen(seed) differs from noble`);
    assert.equal(res[key].sig, EXPECTED[key].sig, `${what}: ${key} deterministic signature differs from noble`);
    assert.equal(res[key].verifies, true, `${what}: ${key} verify`);
    assert.equal(res[key].hedgedVerifies, true, `${what}: ${key} hedged verify`);
    assert.equal(res[key].wrongMsg, false, `${what}: ${key} wrong message accepted`);
  }
  for (const name of ['ml_dsa44', 'ml_dsa65', 'ml_dsa87']) assert.ok(res.exports.includes(name), `${what}: exports ${res.exports}`);
}

test('Node version', () => assert.ok(NODE_MAJOR >= 20, `Node ${process.versions.node}; the package supports Node >= 20`));

test('installed package.json and files', { skip }, () => {
  const dir = installedPackageDir();
  const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  assert.equal(pj.name, PKG_NAME);
  assert.match(pj.version, /^\d+\.\d+\.\d+/);
  // No dependencies of any kind (the Node pool of mldsa-simd/worker runs on node:worker_threads).
  for (const kind of ['dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta', 'bundleDependencies', 'bundledDependencies']) {
    assert.equal(pj[kind], undefined, `package.json has ${kind}: ${JSON.stringify(pj[kind])}`);
  }
  const root = pj.exports?.['.'];
  assert.ok(root, 'package.json has no exports["."]');
  const targets = JSON.stringify(root);
  for (const f of ['index.mjs', 'index.cjs', 'index.d.ts']) {
    assert.ok(fs.existsSync(path.join(dir, f)), `${f} missing from the tarball`);
  }
  assert.match(targets, /"import"/, 'exports["."] has no import condition');
  assert.match(targets, /"require"/, 'exports["."] has no require condition');
  assert.match(targets, /"types"/, 'exports["."] has no types condition');
  for (const rel of new Set([...targets.matchAll(/"(\.\/[^"]+)"/g)].map((m) => m[1]))) {
    assert.ok(fs.existsSync(path.join(dir, rel)), `exports points at ${rel}, which is not in the tarball`);
  }
  const dts = fs.readFileSync(path.join(dir, 'index.d.ts'), 'utf8');
  for (const name of ['ml_dsa44', 'ml_dsa65', 'ml_dsa87']) assert.match(dts, new RegExp(`\\b${name}\\b`), `index.d.ts does not declare ${name}`);
  for (const name of ['keygen', 'getPublicKey', 'sign', 'verify', 'prehash', 'internal', 'lengths', 'extraEntropy', 'context', 'externalMu']) {
    assert.match(dts, new RegExp(`\\b${name}\\b`), `index.d.ts does not mention ${name}`);
  }
  // What npm installed in the consumer folder (its own record; other tests link dev tools
  // in beside): the package alone.
  const lock = JSON.parse(fs.readFileSync(path.join(consumerDir, 'node_modules', '.package-lock.json'), 'utf8'));
  const installed = Object.keys(lock.packages)
    .filter((k) => k.startsWith('node_modules/'))
    .map((k) => k.slice('node_modules/'.length));
  assert.deepEqual(installed, [PKG_NAME], 'npm installed more than the package');
});

test('package code imports nothing but its own files', { skip }, () => {
  const dir = installedPackageDir();
  const bad = [];
  for (const f of fs.readdirSync(dir).filter((n) => /\.(m|c)?js$/.test(n))) {
    const code = fs.readFileSync(path.join(dir, f), 'utf8');
    const specs = [
      ...code.matchAll(/\bimport\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g),
      ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
      ...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g),
    ].map((m) => m[1]);
    // The Node-only modules of mldsa-simd/worker (export condition "node", and the worker thread
    // its pool starts) may use node: built-ins. So may the entries of export condition "node"
    // (index.node.*, verify.node.*, keys.node.*, webcrypto.node.*), which read the shipped .wasm.
    const nodeOnly = /^(worker-(node\.(m|c)js|task\.mjs|thread\.mjs)|(index|verify|keys|webcrypto)\.node\.(m|c)js)$/.test(f);
    for (const s of specs) if (!s.startsWith('./') && !s.startsWith('../') && !(nodeOnly && s.startsWith('node:'))) bad.push(`${f}: ${s}`);
    // Nor by another route (createRequire, a computed import): no module loads piscina.
    if (/["']piscina["']/.test(code)) bad.push(`${f}: piscina`);
  }
  assert.deepEqual(bad, [], 'the package imports modules it does not ship (and must not need node: built-ins in browsers)');
});

test('ESM: import { ml_dsa44, ml_dsa65, ml_dsa87 } from "mldsa-simd" in a child process', { skip }, () => {
  checkResult(runChild(consumerDir, 'esm.mjs'), 'ESM');
});

test('CommonJS: require("mldsa-simd") in a child process', { skip }, () => {
  checkResult(runChild(consumerDir, 'cjs.cjs'), 'CJS');
});

test('ESM and CommonJS copies in one process', { skip }, () => {
  checkResult(runChild(consumerDir, 'dual.mjs'), 'dual (ESM after CJS)');
});

test('"./ml-dsa.js" subpath (ESM and CommonJS), when exported', { skip }, (t) => {
  const pj = JSON.parse(fs.readFileSync(path.join(installedPackageDir(), 'package.json'), 'utf8'));
  if (!pj.exports?.['./ml-dsa.js']) {
    t.skip('the package does not export ./ml-dsa.js');
    return;
  }
  checkResult(runChild(consumerDir, 'esm-subpath.mjs'), 'ESM subpath');
  checkResult(runChild(consumerDir, 'cjs-subpath.cjs'), 'CJS subpath');
});

test('a copy outside the repository (no parent node_modules to fall back on)', { skip }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mldsa-consumer-'));
  try {
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "isolated-consumer", "private": true }\n');
    fs.cpSync(installedPackageDir(), path.join(dir, 'node_modules', PKG_NAME), { recursive: true });
    checkResult(runChild(dir, 'esm.mjs'), 'ESM (isolated)');
    checkResult(runChild(dir, 'cjs.cjs'), 'CJS (isolated)');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// The entries of export condition "node" read the shipped .wasm (no base64 or
// LZMA decoding); without it, or with a damaged one, they use the inlined copy.
const WATCH = `const fs = process.getBuiltinModule('node:fs');
const read = fs.readFileSync, from = Buffer.from, seen = { wasmRead: false, base64: false };
fs.readFileSync = function (p, ...rest) { const r = read.call(this, p, ...rest); if (String(p).endsWith('mldsa_simd.wasm')) seen.wasmRead = true; return r; };
Buffer.from = function (v, enc) { if (enc === 'base64') seen.base64 = true; return from.apply(this, arguments); };
`;
for (const [name, load] of [
  ['esm-watch.mjs', `const m = await import('${PKG_NAME}');`],
  ['cjs-watch.cjs', `const m = require('${PKG_NAME}');`],
]) {
  SCRIPTS[name] = `${WATCH}${load}\nfs.readFileSync = read; Buffer.from = from;\n${RUN}` + "console.log('RESULT ' + JSON.stringify({ ...run(m), seen }));\n";
}

test('node entries: the shipped .wasm when it is there, else the inlined copy', { skip }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mldsa-consumer-'));
  try {
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "isolated-consumer", "private": true }\n');
    const pkg = path.join(dir, 'node_modules', PKG_NAME);
    fs.cpSync(installedPackageDir(), pkg, { recursive: true });
    const wasmFile = path.join(pkg, 'mldsa_simd.wasm');
    const wasm = fs.readFileSync(wasmFile);
    const cases = [
      ['shipped', () => {}, { wasmRead: true, base64: false }],
      ['damaged (same length)', () => fs.writeFileSync(wasmFile, Buffer.alloc(wasm.length)), { wasmRead: true, base64: true }],
      ['truncated', () => fs.writeFileSync(wasmFile, wasm.subarray(0, 1000)), { wasmRead: true, base64: true }],
      ['missing', () => fs.rmSync(wasmFile), { wasmRead: false, base64: true }],
    ];
    // process.getBuiltinModule (Node >= 20.16) is what the node entries read the file with.
    const canRead = typeof process.getBuiltinModule === 'function';
    for (const [what, damage, want] of cases) {
      damage();
      for (const script of ['esm-watch.mjs', 'cjs-watch.cjs']) {
        const res = runChild(dir, script);
        checkResult(res, `${script}, .wasm ${what}`);
        if (canRead) assert.deepEqual(res.seen, want, `${script}, .wasm ${what}: what the entry read`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an uncaught error prints a readable source line, and the source map leads to js/', { skip }, () => {
  const code = "import { ml_dsa65 } from 'mldsa-simd';\nml_dsa65.sign(new Uint8Array(3), new Uint8Array(5));\n";
  const file = path.join(consumerDir, `uncaught-${process.pid}.mjs`);
  fs.writeFileSync(file, code);
  try {
    const plain = spawnSync(process.execPath, [file], { cwd: consumerDir, encoding: 'utf8' });
    assert.notEqual(plain.status, 0);
    assert.match(plain.stderr, /RangeError: secretKey: expected 4032 bytes, got 5/);
    // Node prints the line the error was thrown from before the message.
    const before = plain.stderr.slice(0, plain.stderr.indexOf('RangeError: secretKey'));
    assert.ok(before.length < 800, `${before.length} characters of source before the message:\n${before.slice(0, 400)}…`);
    const mapped = spawnSync(process.execPath, ['--enable-source-maps', file], { cwd: consumerDir, encoding: 'utf8' });
    assert.match(mapped.stderr, /node_modules\/mldsa-simd\/src\/[\w-]+\.js:\d+/, mapped.stderr);
    assert.match(mapped.stderr, /throw new RangeError\(`\$\{name\}: expected/, 'the mapped line is the original source');
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test("the npm README is the user's manual, its links into the repository made absolute", { skip }, () => {
  const dir = installedPackageDir();
  const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  for (const dev of ['## Layout', '## Fuzzing', '## Constant-time checks', '## The two commands', 'module-map']) {
    assert.ok(!readme.includes(dev), `the packed README has maintainer matter: "${dev}"`);
  }
  for (const user of [
    '## Install',
    '## Supported environments',
    '## Usage',
    '### Key formats',
    '### WebCrypto',
    '### Streaming',
    '### Errors',
    '## Performance',
  ]) {
    assert.ok(readme.includes(user), `the packed README lacks "${user}"`);
  }
  const relative = [...readme.matchAll(/\]\((?!https?:|#)([^)]+)\)/g)].map((m) => m[1]);
  assert.deepEqual(relative, [], 'relative links do not work on npm');
  // The pages the repository's README links to are still named, as the source repository's.
  for (const page of ['docs/webcrypto.md', 'docs/development.md', 'PERF.md']) assert.ok(readme.includes(page), `the packed README no longer names ${page}`);
});

test('exports: workerd and edge-light entries import the shipped .wasm, node entries read it; types for TypeScript < 5.7 and node10', { skip }, () => {
  const dir = installedPackageDir();
  const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  for (const sub of ['.', './ml-dsa.js', './verify', './keys', './webcrypto']) {
    const e = pj.exports[sub];
    assert.deepEqual(Object.keys(e), ['workerd', 'edge-light', 'node', 'import', 'require', 'default'], `${sub}: condition order`);
    assert.deepEqual(Object.keys(e.node), ['import', 'require'], `${sub} node`);
    for (const [cond, targets] of [
      ['workerd', e.workerd],
      ['edge-light', e['edge-light']],
      ['node import', e.node.import],
      ['node require', e.node.require],
      ['import', e.import],
      ['require', e.require],
    ]) {
      assert.deepEqual(Object.keys(targets), ['types@<5.7', 'types', 'default'], `${sub} ${cond}`);
      for (const f of Object.values(targets)) assert.ok(fs.existsSync(path.join(dir, f)), `${sub} ${cond}: ${f} is not in the tarball`);
    }
  }
  // The main entry's module, and mldsa-simd/verify's (which cannot sign).
  for (const [base, file] of [
    ['index', 'mldsa_simd.wasm'],
    ['verify', 'mldsa_simd_verify.wasm'],
  ]) {
    for (const entry of [`${base}.node.mjs`, `${base}.node.cjs`]) {
      const code = fs.readFileSync(path.join(dir, entry), 'utf8');
      assert.ok(code.includes(`"${file}"`), `${entry} does not read ./${file}`);
    }
  }
  const wasm = fs.readFileSync(path.join(dir, 'mldsa_simd.wasm'));
  assert.ok(WebAssembly.validate(wasm), 'mldsa_simd.wasm is not valid WebAssembly');
  const verifyWasm = fs.readFileSync(path.join(dir, 'mldsa_simd_verify.wasm'));
  const verifyExports = WebAssembly.Module.exports(new WebAssembly.Module(verifyWasm)).map((e) => e.name);
  for (const fn of ['keygen', 'sign', 'public_key', 'prepare_signer', 'signer_sign'])
    assert.ok(!verifyExports.includes(fn), `mldsa_simd_verify.wasm exports ${fn}`);
  for (const fn of ['verify', 'prepare_verifier', 'verifier_verify']) assert.ok(verifyExports.includes(fn), `mldsa_simd_verify.wasm does not export ${fn}`);
  for (const [entry, spec] of [
    ['index.workerd.mjs', './mldsa_simd.wasm'],
    ['index.edge-light.mjs', './mldsa_simd.wasm?module'],
    ['verify.workerd.mjs', './mldsa_simd_verify.wasm'],
    ['verify.edge-light.mjs', './mldsa_simd_verify.wasm?module'],
  ]) {
    const code = fs.readFileSync(path.join(dir, entry), 'utf8');
    assert.ok(code.includes(`from"${spec}"`) || code.includes(`from "${spec}"`), `${entry} does not import ${spec}`);
    assert.ok(!/[A-Za-z0-9+/]{4096}/.test(code), `${entry} still embeds base64 bytes`);
  }
  const exported = WebAssembly.Module.exports(new WebAssembly.Module(wasm)).map((e) => e.name);
  for (const fn of ['keygen', 'sign', 'verify', 'memory']) assert.ok(exported.includes(fn), `mldsa_simd.wasm does not export ${fn}`);
  for (const f of ['index.d.ts', 'verify.d.ts', 'webcrypto.d.ts']) {
    const modern = fs.readFileSync(path.join(dir, f), 'utf8');
    const legacy = fs.readFileSync(path.join(dir, 'ts5.6', f), 'utf8');
    assert.equal(legacy, modern.replaceAll('Uint8Array<ArrayBuffer>', 'Uint8Array'), `ts5.6/${f}`);
    assert.ok(!/Symbol\.dispose/.test(modern.replace(/\/\*\*[\s\S]*?\*\//g, '')), `${f} needs lib esnext.disposable`);
  }
  for (const [sub, types] of Object.entries(pj.typesVersions['*'])) {
    assert.ok(pj.exports[`./${sub}`], `typesVersions names ${sub}, which is not exported`);
    assert.ok(fs.existsSync(path.join(dir, types[0])) && fs.existsSync(path.join(dir, pj.typesVersions['<5.7'][sub][0])), sub);
  }
  const subpaths = Object.keys(pj.exports)
    .filter((k) => k !== '.' && k !== './package.json')
    .map((k) => k.slice(2));
  assert.deepEqual(Object.keys(pj.typesVersions['*']).sort(), subpaths.sort(), 'every subpath has types under node10');
});
