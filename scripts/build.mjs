#!/usr/bin/env node
// Build the npm package `mldsa-simd` into pkg/ (`npm run build`).
//
//   node scripts/build.mjs               wasm-pack build, then bundle into pkg/
//   node scripts/build.mjs --skip-wasm   reuse build/wasm/ and build/tables.js from the last run, bundle only
//
// Steps:
//   1. PATH gets ~/.cargo/bin (wasm-pack, wasm-bindgen) and node_modules/.bin
//      (npm binaryen: wasm-opt 132) in front. Debian's binaryen 108 breaks
//      wasm-bindgen output, so an old wasm-opt is refused.
//   2. wasm-pack build --release --target web --mode no-install: it never
//      downloads anything; it uses the wasm-bindgen on PATH (same version as
//      Cargo.lock) and runs the wasm-opt on PATH with the flags in Cargo.toml.
//      Rust flags (+simd128) come from .cargo/config.toml; a RUSTFLAGS variable
//      would replace them, so it is removed from the child's environment.
//      Without the crate's default `system-rng` feature the module draws no
//      randomness and imports nothing (JavaScript passes every seed and rnd).
//      The crate's `panic-trap` feature makes the library no_std with a
//      panic handler that traps (see Cargo.toml), so std's panic and
//      formatting code is not in the .wasm. Tests are built without it.
//      Beside it, build/tables.js: the sizes and pre-hash list of js/, printed
//      by the native examples/js_tables.rs from the crate's own definitions
//      (src/bindings/js_tables.rs). Generated, not committed, like the rest of build/:
//      js/ cannot run without a build anyway (it imports the module), and made
//      in the same run as the .wasm, the tables always come from the same
//      sources as the module they ship with.
//   3. The .wasm is inlined LZMA-compressed, as base64, with the small LZMA
//      decoder module built from unpack/ (build/wasm_base64.js), and js/index.js is
//      bundled with esbuild into pkg/index.mjs (ESM) and pkg/index.cjs (CJS),
//      minified but in short lines, with source maps (sources in pkg/src/);
//      pkg/index.workerd.mjs and pkg/index.edge-light.mjs are the same code
//      importing pkg/mldsa_simd.wasm instead (js/wasm-module.edge.js), and
//      pkg/index.node.mjs and .cjs (export condition "node") the same code
//      reading that file at import (js/wasm-module.node.js);
//      mldsa-simd/keys and mldsa-simd/webcrypto get the same six entries, each
//      importing the main entry of its runtime, and so does mldsa-simd/keystore,
//      importing the webcrypto entry of its runtime, and mldsa-simd/composite,
//      importing the main entry; mldsa-simd/prehash is plain
//      JavaScript (ESM and CJS).
//   4. pkg/ gets the types (index.d.ts, index.d.cts, and ts5.6/ for TypeScript
//      before 5.7), package.json, README.md (its links into the repository made absolute)
//      and the licence.
//      package.json is pkg-template/package.json (the public surface, checked
//      in) with version, description and license from Cargo.toml and the
//      files built; the build fails if the two do not agree on the entries.
//   5. Sizes are printed. The output is deterministic for a given .wasm.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
for (const a of args) {
  if (a !== '--skip-wasm') {
    console.error(`build: unknown argument ${a} (known: --skip-wasm)`);
    process.exit(2);
  }
}
const rel = (p) => path.relative(root, p) || '.';
const say = (msg) => console.log(`build: ${msg}`);
function fail(msg) {
  console.error(`build: ERROR: ${msg}`);
  process.exit(1);
}

// ------------------------------------------------------------------ 1. tools
const cargoBin = path.join(process.env.CARGO_HOME || path.join(os.homedir(), '.cargo'), 'bin');
const npmBin = path.join(root, 'node_modules', '.bin');
const env = { ...process.env, PATH: [cargoBin, npmBin, process.env.PATH].join(path.delimiter) };
for (const name of ['RUSTFLAGS', 'CARGO_ENCODED_RUSTFLAGS']) {
  if (env[name] !== undefined) {
    say(`warning: ignoring ${name}="${env[name]}" (it would replace the +simd128 flags of .cargo/config.toml)`);
    delete env[name];
  }
}

function run(cmd, argv, opts = {}) {
  return execFileSync(cmd, argv, { cwd: root, env, encoding: 'utf8', ...opts });
}

function toolVersion(cmd) {
  try {
    return run(cmd, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    return null;
  }
}

function lockedWasmBindgenVersion() {
  const lock = path.join(root, 'Cargo.lock');
  if (fs.existsSync(lock)) {
    const m = /\[\[package\]\]\s*name = "wasm-bindgen"\s*version = "([^"]+)"/.exec(fs.readFileSync(lock, 'utf8'));
    if (m) return m[1];
  }
  const m = /^wasm-bindgen\s*=\s*(?:\{[^}]*version\s*=\s*)?"=([0-9.]+)"/m.exec(fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8'));
  return m ? m[1] : null;
}

function checkTools() {
  const hint = 'run `npm run setup` (scripts/setup.sh) first';
  if (!toolVersion('wasm-pack')) fail(`wasm-pack not found on PATH; ${hint}`);
  const opt = toolVersion('wasm-opt');
  if (!opt) fail(`wasm-opt not found (expected node_modules/.bin/wasm-opt from npm binaryen); ${hint}`);
  const optMajor = Number(/version (\d+)/.exec(opt)?.[1]);
  if (!(optMajor >= 116)) fail(`wasm-opt is "${opt}"; need binaryen >= 116 (npm binaryen 132), not Debian's 108; ${hint}`);
  const want = lockedWasmBindgenVersion();
  const have = /wasm-bindgen (\S+)/.exec(toolVersion('wasm-bindgen') || '')?.[1];
  if (want && have !== want) fail(`wasm-bindgen CLI ${have ?? 'not found'} on PATH, but the crate uses ${want}; ${hint}`);
  say(`tools: ${toolVersion('wasm-pack')}, wasm-bindgen ${have}, ${opt}`);
}

// ------------------------------------------------------------------ 2. wasm
// Two modules from the one crate: the main one, and one for mldsa-simd/verify
// built with the crate's `verify-only` feature (no export that makes keys or
// signs), which pages that only verify download instead. Each gets its
// directory under build/, its base64 module (build/<name>_base64.js, which
// the entries import) and its file in pkg/ (for the node, workerd and
// edge-light entries).
const MODULES = [
  { dir: 'wasm', features: 'panic-trap', base64: 'wasm_base64.js', file: 'mldsa_simd.wasm' },
  { dir: 'wasm-verify', features: 'panic-trap,verify-only', base64: 'wasm_verify_base64.js', file: 'mldsa_simd_verify.wasm' },
];
for (const m of MODULES) m.wasmFile = path.join(root, 'build', m.dir, 'mldsa_simd_bg.wasm');

if (!args.has('--skip-wasm')) {
  checkTools();
  for (const m of MODULES) {
    const argv = [
      'build',
      '--release',
      '--target',
      'web',
      '--mode',
      'no-install',
      '--no-pack',
      '--out-dir',
      `build/${m.dir}`,
      '--out-name',
      'mldsa_simd',
      root,
      '--',
      '--no-default-features',
      '--features',
      m.features,
    ];
    say(`wasm-pack ${argv.filter((a) => a !== root).join(' ')}`);
    try {
      run('wasm-pack', argv, { stdio: 'inherit' });
    } catch {
      fail('wasm-pack failed (see above)');
    }
  }
}
const tablesFile = path.join(root, 'build', 'tables.js');
if (!args.has('--skip-wasm')) {
  say('cargo run --release --example js_tables > build/tables.js');
  let tables;
  try {
    tables = run('cargo', ['run', '--release', '--quiet', '--example', 'js_tables'], { stdio: ['ignore', 'pipe', 'inherit'] });
  } catch {
    fail('examples/js_tables.rs failed (see above)');
  }
  fs.writeFileSync(tablesFile, tables);
}
for (const f of [...MODULES.map((m) => m.wasmFile), tablesFile]) if (!fs.existsSync(f)) fail(`missing ${rel(f)}; run without --skip-wasm`);

// The .wasm travels LZMA-compressed and base64-encoded: base64 of the raw
// module gzips badly (43.3 KB gzip for a 32.7 KB-gzip module), base64 of
// compressed bytes gzips back to about their size, and LZMA (npm lzma, LZMA-JS,
// level 9) packs this module 17% tighter than the best DEFLATE (Zopfli). A
// second, small module (unpack/, an LZMA decoder in Rust) unpacks it at import;
// it is built here and checked on the real bytes before anything is written.
const unpackWasmFile = path.join(root, 'build', 'unpack.wasm');
if (!args.has('--skip-wasm')) {
  const targetDir = path.join(root, 'target', 'unpack');
  say('cargo build --release --target wasm32-unknown-unknown --manifest-path unpack/Cargo.toml');
  try {
    run('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown', '--manifest-path', 'unpack/Cargo.toml', '--target-dir', targetDir], {
      stdio: 'inherit',
    });
    run(
      'wasm-opt',
      [
        '-Oz',
        '--strip-debug',
        '--strip-producers',
        '--strip-target-features',
        '--enable-simd',
        '--enable-bulk-memory',
        '--enable-sign-ext',
        '--enable-mutable-globals',
        '--enable-nontrapping-float-to-int',
        path.join(targetDir, 'wasm32-unknown-unknown', 'release', 'mldsa_simd_unpack.wasm'),
        '-o',
        unpackWasmFile,
      ],
      { stdio: 'inherit' },
    );
  } catch {
    fail('building unpack/ failed (see above)');
  }
}
if (!fs.existsSync(unpackWasmFile)) fail(`missing ${rel(unpackWasmFile)}; run without --skip-wasm`);
const unpackBytes = fs.readFileSync(unpackWasmFile);
const { compress } = (await import('lzma')).default;
const { unpackWasm } = await import(pathToFileURL(path.join(root, 'js', 'unpack.js')).href);
const { check: tricksCheck } = await import('./wasm-tricks-check.mjs');

for (const m of MODULES) {
  const bytes = fs.readFileSync(m.wasmFile);
  m.bytes = bytes;
  // The code shapes the NTT's speed in V8 depends on (scripts/wasm-tricks-check.mjs,
  // PERF.md): a build that lost one fails here rather than shipping 10–40% slower.
  const { problems, kernels } = tricksCheck(bytes);
  for (const p of problems) console.error(`build: wasm-tricks-check: ${p}`);
  if (problems.length) fail(`${rel(m.wasmFile)} lost a code shape the NTT's speed depends on (see above; PERF.md)`);
  say(`wasm-tricks-check ${m.dir}: passed (${kernels} product kernels, no i64x2.mul, no literal vector constants in their loops)`);
  if (!WebAssembly.validate(bytes)) fail(`${rel(m.wasmFile)} is not valid WebAssembly for this Node`);
  // js/boundary.js instantiates the module itself (the exports take and return
  // numbers only, so the wasm-bindgen glue, which wasm-pack still writes beside
  // it, is not used) and gives it the one import it expects: wasm-bindgen's
  // table set-up, which nothing calls. Anything else imported would be a
  // module that needs JavaScript the package does not give it.
  const imports = WebAssembly.Module.imports(new WebAssembly.Module(bytes));
  const expected = [{ module: './mldsa_simd_bg.js', name: '__wbindgen_init_externref_table', kind: 'function' }];
  if (JSON.stringify(imports) !== JSON.stringify(expected))
    fail(`${rel(m.wasmFile)} imports ${JSON.stringify(imports)}; js/boundary.js gives it only ${JSON.stringify(expected)}`);
  // The .lzma form: properties byte, dictionary size (4 bytes), size (8 bytes), then the raw stream.
  const lzma = Buffer.from(compress(bytes, 9).map((b) => b & 0xff));
  const props = lzma[0];
  const packed = lzma.subarray(13);
  let back;
  try {
    back = unpackWasm(unpackBytes, props, packed, bytes.length);
  } catch (e) {
    fail(`unpack.wasm refused the compressed ${m.file}: ${e.message}`);
  }
  if (!Buffer.from(back).equals(bytes)) fail(`unpack.wasm does not give back ${m.file} from its compressed bytes`);
  m.packed = packed;
  fs.writeFileSync(
    path.join(root, 'build', m.base64),
    `// Generated by scripts/build.mjs from build/${m.dir}/mldsa_simd_bg.wasm and build/unpack.wasm. Do not edit.\n` +
      '// The module, LZMA-compressed (raw stream), then the LZMA decoder module, in one\n' +
      '// base64 string (one piece of data in a bundle gzips best, and in this order); where\n' +
      "// the decoder starts; the LZMA properties byte; the module's length; its file in pkg/.\n" +
      `export const WASM_BASE64 = ${JSON.stringify(Buffer.concat([packed, unpackBytes]).toString('base64'))};\n` +
      `export const DECODER_AT = ${packed.length};\n` +
      `export const WASM_LZMA_PROPS = ${props};\n` +
      `export const WASM_BYTES = ${bytes.length};\n` +
      `export const WASM_FILE = ${JSON.stringify(m.file)};\n`,
  );
}

// ------------------------------------------------------------------ 3. bundle
const cargoToml = fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8');
const pkgSection = /^\[package\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(cargoToml)?.[1] ?? '';
const field = (name) => new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, 'm').exec(pkgSection)?.[1];
const version = field('version');
const license = field('license') || 'MIT OR Apache-2.0';
const description = field('description') || 'ML-DSA (FIPS 204) post-quantum signatures for JavaScript, from Rust compiled to WebAssembly with simd128';
if (!version) fail('cannot read the package version from Cargo.toml');

const pkgDir = path.join(root, 'pkg');
fs.rmSync(pkgDir, { recursive: true, force: true });
fs.mkdirSync(pkgDir, { recursive: true });

const esbuild = await import('esbuild');
const banner = `/*! mldsa-simd ${version} | ${license} | ML-DSA (FIPS 204) in WebAssembly */`;
// The ESM bundle is built from js/index.js; the CommonJS one from that bundle.
// No entry but the node ones may use import.meta (CommonJS has none) or fetch
// the .wasm (bundlers would try to emit the file).
// The workerd and edge-light entries are the same code with js/wasm-module.js
// replaced by js/wasm-module.edge.js: they import the .wasm file (shipped as
// pkg/mldsa_simd.wasm) instead of carrying its bytes.
// mldsa-simd/webcrypto is built on the main entry's public API and imports it
// (./index.mjs, ./index.cjs, or the node or edge entry of the same runtime) rather than
// bundling a second copy, so that both share one WebAssembly instance.
// The node entries (export condition "node": Node, Bun, Deno) are the same
// code with js/wasm-module.node.js, which reads pkg/mldsa_simd.wasm and falls
// back to the inlined copy; their CommonJS form finds the file by __filename.
const edgeEntries = { workerd: './mldsa_simd.wasm', 'edge-light': './mldsa_simd.wasm?module' };
const nodeWasm = { wasmModule: 'wasm-module.node.js', importMeta: true };
const nodeCjs = {
  define: { 'import.meta.url': '__mldsaUrl' },
  banner: "\nconst __mldsaUrl = require('node:url').pathToFileURL(__filename).href;",
};
// The six forms of a subpath that imports the main entry: './index.js',
// './keys.js' and './webcrypto.js' in its sources become the same runtime's
// entries of the package (so that mldsa-simd/keystore shares the key states of
// mldsa-simd/webcrypto, never a copy).
const onMain = (base) =>
  ['mjs', 'cjs', 'node.mjs', 'node.cjs', ...Object.keys(edgeEntries).map((c) => `${c}.mjs`)].map((variant) => [
    `${base}.${variant}`,
    variant.endsWith('cjs') ? 'cjs' : 'esm',
    path.join(root, 'js', `${base}.js`),
    true,
    { './index.js': `./index.${variant}`, './keys.js': `./keys.${variant}`, './webcrypto.js': `./webcrypto.${variant}` },
  ]);
// The browser entries (index.mjs, verify.mjs and the CommonJS built from
// them) have no use for the platform's SHAKE256 (js/native-hash.js):
// js/native-hash.browser.js stands in for it.
const browser = { nativeHash: 'native-hash.browser.js' };
const outputs = [
  ['index.mjs', 'esm', path.join(root, 'js', 'index.js'), true, null, browser],
  ['index.cjs', 'cjs', path.join(pkgDir, 'index.mjs'), false],
  ['index.node.mjs', 'esm', path.join(root, 'js', 'index.js'), true, null, nodeWasm],
  ['index.node.cjs', 'cjs', path.join(pkgDir, 'index.node.mjs'), false, null, nodeCjs],
  ...Object.entries(edgeEntries).map(([c, wasmSpecifier]) => [
    `index.${c}.mjs`,
    'esm',
    path.join(root, 'js', 'index.js'),
    true,
    null,
    { wasmModule: 'wasm-module.edge.js', wasm: wasmSpecifier },
  ]),
  // mldsa-simd/verify: the same six forms, with the verify-only module
  // (build/wasm_verify_base64.js, pkg/mldsa_simd_verify.wasm).
  ...(() => {
    const v = { base64: 'wasm_verify_base64.js' };
    const src = path.join(root, 'js', 'verify.js');
    return [
      ['verify.mjs', 'esm', src, true, null, { ...v, ...browser }],
      ['verify.cjs', 'cjs', path.join(pkgDir, 'verify.mjs'), false, null, {}],
      ['verify.node.mjs', 'esm', src, true, null, { ...v, ...nodeWasm }],
      ['verify.node.cjs', 'cjs', path.join(pkgDir, 'verify.node.mjs'), false, null, nodeCjs],
      ...Object.keys(edgeEntries).map((c) => [
        `verify.${c}.mjs`,
        'esm',
        src,
        true,
        null,
        { ...v, wasmModule: 'wasm-module.edge.js', wasm: edgeEntries[c].replace('mldsa_simd.wasm', 'mldsa_simd_verify.wasm') },
      ]),
    ];
  })(),
  // Subpaths built on the main entry: each runtime's form imports that
  // runtime's main entry (and keys entry), never a copy of them.
  ...onMain('keys'),
  ...onMain('webcrypto'),
  ...onMain('keystore'),
  ...onMain('composite'),
  // mldsa-simd/prehash: plain JavaScript, no wasm.
  ['prehash.mjs', 'esm', path.join(root, 'js', 'prehash.js'), true],
  ['prehash.cjs', 'cjs', path.join(root, 'js', 'prehash.js'), true],
  // mldsa-simd/worker: the pools run on the main thread and load no wasm; the
  // worker modules import ./index.mjs (the Node-only ones, the worker thread and the
  // piscina task, ./index.node.mjs). The pools find their worker module by
  // new URL(..., import.meta.url) (the CommonJS one by its __filename).
  ...(() => {
    const node = { external: ['node:*'] };
    const url = { importMeta: true };
    const cjsUrl = {
      ...node,
      define: { 'import.meta.url': '__mldsaWorkerUrl' },
      banner: "\nconst __mldsaWorkerUrl = require('node:url').pathToFileURL(__filename).href;",
    };
    return [
      ['worker-node.mjs', 'esm', path.join(root, 'js', 'worker-node.js'), true, undefined, { ...node, ...url }],
      ['worker-node.cjs', 'cjs', path.join(root, 'js', 'worker-node.js'), true, undefined, cjsUrl],
      ['worker-thread.mjs', 'esm', path.join(root, 'js', 'worker-thread.js'), true, './index.node.mjs', node],
      ['worker-task.mjs', 'esm', path.join(root, 'js', 'worker-task.js'), true, './index.node.mjs', node],
      ['worker-browser.mjs', 'esm', path.join(root, 'js', 'worker-browser.js'), true, undefined, url],
      ['worker-web.mjs', 'esm', path.join(root, 'js', 'worker-web.js'), true, './index.mjs'],
    ];
  })(),
];
const mapSources = new Map();
for (const [name, format, entryPoint, bundle, mainEntry, extra = {}] of outputs) {
  const plugins = [];
  if (mainEntry) {
    // A string: the main entry './index.js' resolves to; an object: each such module's entry.
    const externals = typeof mainEntry === 'string' ? { './index.js': mainEntry } : mainEntry;
    plugins.push({
      name: 'main-entry-external',
      setup(b) {
        b.onResolve({ filter: /^\.\/(index|keys|webcrypto)\.js$/ }, (a) => (externals[a.path] ? { path: externals[a.path], external: true } : undefined));
      },
    });
  }
  if (extra.nativeHash) {
    plugins.push({
      name: 'browser-native-hash',
      setup(b) {
        b.onResolve({ filter: /^\.\/native-hash\.js$/ }, () => ({ path: path.join(root, 'js', extra.nativeHash) }));
      },
    });
  }
  if (extra.base64) {
    plugins.push({
      name: 'verify-only-module',
      setup(b) {
        b.onResolve({ filter: /\/build\/wasm_base64\.js$/ }, () => ({ path: path.join(root, 'build', extra.base64) }));
      },
    });
  }
  if (extra.wasmModule) {
    plugins.push({
      name: 'wasm-module-variant',
      setup(b) {
        b.onResolve({ filter: /^\.\/wasm-module\.js$/ }, () => ({ path: path.join(root, 'js', extra.wasmModule) }));
        if (extra.wasm) b.onResolve({ filter: /^mldsa-simd:wasm-file$/ }, () => ({ path: extra.wasm, external: true }));
      },
    });
  }
  const result = await esbuild.build({
    entryPoints: [entryPoint],
    outfile: path.join(pkgDir, name),
    bundle,
    plugins,
    external: extra.external,
    define: extra.define,
    format,
    platform: 'neutral',
    target: 'es2020',
    // Identifiers and syntax minified, line breaks kept: an uncaught error
    // makes Node print the source line it was thrown from, which is then one
    // statement, not the whole module; the embedded bytes are string
    // constants on lines of their own. Error texts are unchanged. The source
    // maps lead back to the sources, shipped once in pkg/src/.
    minify: true,
    lineLimit: 160,
    sourcemap: 'linked',
    sourcesContent: false,
    banner: bundle ? { js: banner + (extra.banner ?? '') } : extra.banner ? { js: extra.banner.trimStart() } : undefined,
    legalComments: 'inline',
    logLevel: 'silent',
    write: true,
  });
  if (result.warnings.length) {
    const text = await esbuild.formatMessages(result.warnings, { kind: 'warning' });
    fail(`esbuild warnings for ${name}:\n${text.join('\n')}`);
  }
  const code = fs.readFileSync(path.join(pkgDir, name), 'utf8');
  for (const bad of [extra.importMeta ? [] : ['import.meta'], 'fetch(', '_bg.wasm'].flat()) {
    if (code.includes(bad)) fail(`${name} contains "${bad}", which only the node entries may use`);
  }
  // (A line that only declares base64 strings is data, not code.)
  const data = /^var [\w$]+ = "[A-Za-z0-9+/=]*"(, [\w$]+ = "[A-Za-z0-9+/=]*")*;$/;
  const lines = code.split('\n').filter((l) => !data.test(l));
  const longest = Math.max(...lines.map((l) => l.length));
  const longestThrow = Math.max(0, ...lines.filter((l) => l.includes('throw ')).map((l) => l.length));
  if (longest > 2000 || longestThrow > 400)
    fail(`${name} has a code line of ${longest} characters, one with a throw of ${longestThrow} (error lines would be unreadable)`);
}
// The maps name the sources as pkg/src/<file> (rewritten once every bundle
// is built: index.cjs is built from index.mjs and follows its map).
for (const [name] of outputs) {
  const mapFile = path.join(pkgDir, `${name}.map`);
  const map = JSON.parse(fs.readFileSync(mapFile, 'utf8'));
  map.sources = map.sources.map((src) => {
    const abs = path.resolve(path.dirname(mapFile), src);
    const base = path.basename(abs);
    if (mapSources.has(base) && mapSources.get(base) !== abs) fail(`two sources named ${base} in the source maps`);
    mapSources.set(base, abs);
    return `src/${base}`;
  });
  fs.writeFileSync(mapFile, JSON.stringify(map));
}
// The embedded bytes are not shipped twice: their module becomes a note.
fs.mkdirSync(path.join(pkgDir, 'src'));
for (const [base, abs] of [...mapSources].sort()) {
  fs.writeFileSync(
    path.join(pkgDir, 'src', base),
    /^wasm(_verify)?_base64\.js$/.test(base)
      ? '// Generated by scripts/build.mjs: the .wasm (LZMA-compressed) and the LZMA decoder module,\n// as one base64 string; the same bytes as the .wasm files of this folder. Not repeated here.\n'
      : fs.readFileSync(abs),
  );
}
for (const m of MODULES) fs.copyFileSync(m.wasmFile, path.join(pkgDir, m.file));

// ------------------------------------------------------------------ 4. package files
// Types: js/*.d.ts say `Uint8Array<ArrayBuffer>` for the bytes they return,
// which TypeScript before 5.7 cannot parse (Uint8Array was not generic): those
// compilers get a copy in ts5.6/ with plain `Uint8Array`, chosen by the
// `types@<5.7` export condition and, under moduleResolution node10 (which
// ignores exports), by typesVersions, which also gives the subpaths types there.
const typeBases = ['index', 'verify', 'keys', 'prehash', 'webcrypto', 'keystore', 'composite', 'worker', 'worker-task', 'worker-web'];
// The module Web Worker (worker-web) has no CommonJS form, so no .d.cts.
const typeExts = (base) => (base === 'worker-web' ? ['d.ts'] : ['d.ts', 'd.cts']);
fs.mkdirSync(path.join(pkgDir, 'ts5.6'));
for (const base of typeBases) {
  const types = fs.readFileSync(path.join(root, 'js', `${base}.d.ts`), 'utf8');
  const legacy = types.replaceAll('Uint8Array<ArrayBuffer>', 'Uint8Array');
  if (/Uint8Array</.test(legacy)) fail(`js/${base}.d.ts: a generic Uint8Array other than Uint8Array<ArrayBuffer>`);
  for (const ext of typeExts(base)) {
    fs.writeFileSync(path.join(pkgDir, `${base}.${ext}`), types);
    fs.writeFileSync(path.join(pkgDir, 'ts5.6', `${base}.${ext}`), legacy);
  }
}

const files = [
  ...outputs.flatMap(([name]) => [name, `${name}.map`]),
  ...MODULES.map((m) => m.file),
  'src/',
  ...typeBases.flatMap((b) => typeExts(b).flatMap((ext) => [`${b}.${ext}`, `ts5.6/${b}.${ext}`])),
  'README.md',
];

const licences = fs
  .readdirSync(root)
  .filter((f) => /^(LICEN[CS]E|COPYING)/i.test(f))
  .sort();
for (const f of licences) fs.copyFileSync(path.join(root, f), path.join(pkgDir, f));
if (licences.length === 0) {
  say('warning: no LICENSE* file at the repository root; pkg/LICENSE only names the SPDX licence');
  fs.writeFileSync(
    path.join(pkgDir, 'LICENSE'),
    `mldsa-simd is licensed under ${license} (SPDX expression),\n` +
      'at your option. See https://spdx.org/licenses/MIT.html and\n' +
      'https://spdx.org/licenses/Apache-2.0.html for the licence texts.\n',
  );
  licences.push('LICENSE');
}
files.push(...licences);

// package.json: the public surface is pkg-template/package.json, checked in;
// the build adds what it knows (Cargo.toml's version, description and
// license; the files it built) and checks that the two agree. The template's
// "//" key is its comment and is not shipped. It lives in a folder of its own:
// as js/package.json, Node and esbuild would take it for the manifest of the
// sources (its sideEffects and exports applied to js/).
const templateFile = path.join(root, 'pkg-template', 'package.json');
let template;
try {
  template = JSON.parse(fs.readFileSync(templateFile, 'utf8'));
} catch (e) {
  fail(`${rel(templateFile)}: ${e.message}`);
}
const { '//': _comment, name, ...surface } = template;
if (name !== 'mldsa-simd') fail(`${rel(templateFile)}: name is ${JSON.stringify(name)}, not "mldsa-simd"`);
for (const key of ['version', 'description', 'license', 'files']) {
  if (key in template) fail(`${rel(templateFile)} has "${key}", which the build fills in`);
}
// Files the template names: entries and types (exports, main, module, types,
// typesVersions) and sideEffects.
const named = new Set();
const collect = (v) => {
  if (typeof v === 'string') named.add(v);
  else if (v && typeof v === 'object') Object.values(v).forEach(collect);
};
collect([surface.exports, surface.main, surface.module, surface.types, surface.typesVersions, surface.sideEffects]);
named.delete('./package.json');
const shipped = (f) => fs.existsSync(path.join(pkgDir, f)) && files.some((e) => e === f || (e.endsWith('/') && f.startsWith(e)));
for (const f of [...named].sort()) {
  if (!f.startsWith('./') || !shipped(f.slice(2))) fail(`${rel(templateFile)} names ${f}, which the build did not produce`);
}
// Entries and type files the build made, each reachable from the template.
const built = [...outputs.map(([n]) => n), ...typeBases.flatMap((b) => typeExts(b).flatMap((ext) => [`${b}.${ext}`, `ts5.6/${b}.${ext}`]))];
for (const f of built) if (!named.has(`./${f}`)) fail(`the build produced ${f}, which ${rel(templateFile)} does not export`);
// Dependency ranges are those of the workspace's devDependencies: what the
// tests install and run with (and `npm ci` puts in the npm cache for the
// offline install of the packed package).
const devDependencies = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies ?? {};
for (const kind of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
  for (const [dep, range] of Object.entries(surface[kind] ?? {})) {
    if (devDependencies[dep] !== range)
      fail(`${rel(templateFile)}: ${kind}.${dep} is "${range}", but package.json's devDependency is "${devDependencies[dep]}"`);
  }
}

const pkgJson = { name, version, description, license, ...surface, files };
fs.writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify(pkgJson, null, 2) + '\n');

// The npm package gets README.md, the user's manual. Its links to pages of the
// repository (docs/, PERF.md) cannot work on npm's page or in node_modules:
// they point into the source repository, on GitHub when Cargo.toml's
// repository is there, or else are named as files of the source repository.
{
  const text = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const repository = field('repository') ?? '';
  const github = /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/.test(repository) ? repository : '';
  const readme = text.replace(/\[([^\]]+)\]\((?!https?:|#)([^)\s#]+)(#[^)\s]*)?\)/g, (_, label, file, anchor = '') => {
    if (!fs.existsSync(path.join(root, file))) fail(`README.md links to ${file}, which does not exist`);
    if (github) return `[${label}](${github}/blob/HEAD/${file}${anchor})`;
    return label.replaceAll('`', '') === file ? `\`${file}\` in the source repository` : `${label} (\`${file}\` in the source repository)`;
  });
  fs.writeFileSync(path.join(pkgDir, 'README.md'), readme);
}

// ------------------------------------------------------------------ 5. sizes
const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
const row = (label, buf) => say(`${label.padEnd(22)} ${String(buf.length).padStart(8)} bytes  ${String(gz(buf)).padStart(7)} gzip`);
for (const m of MODULES) {
  row(`build/${m.dir} .wasm`, m.bytes);
  row(`${m.dir} .wasm LZMA`, m.packed);
}
row('build/unpack.wasm', unpackBytes);
for (const [name] of outputs) row(`pkg/${name}`, fs.readFileSync(path.join(pkgDir, name)));
say(`pkg/ ready: mldsa-simd ${version} (${files.length} files)`);
