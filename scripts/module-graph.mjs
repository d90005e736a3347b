#!/usr/bin/env node
// The crate's module graph: which top-level module of src/ uses which, read
// from the `crate::` paths in each file (and, in src/lib.rs, the `name::`
// paths of its own modules). Test code does not count: a file's text from its
// first `#[cfg(test)]` item on, and files that are tests only, are skipped.
//
//   node scripts/module-graph.mjs            print the graph, layer by layer
//   node scripts/module-graph.mjs --check    also fail on a cycle, or on a
//                                            module that uses one in a higher
//                                            layer, or one not in LAYERS
//   node scripts/module-graph.mjs --dot      Graphviz text
//   node scripts/module-graph.mjs --self-test the parser on made-up files
//
// --check also checks the module map of docs/development.md ("Layout"): every module is
// named there, and in the table between the module-map markers every file
// exists, the first file of each FIPS 204 row cites each algorithm of the row
// ("Algorithm 7", "Algorithms 16–19", "Algorithms 35, 36, 39, 40"), and each
// kernel named in the kernel table is a method of the `Backend` trait and a
// function in both backend files of its row.
//
// LAYERS below is the intended order, lowest first: a module may use modules of
// its own layer or lower ones, never a higher one, and no two modules may use
// each other. `lib` is the crate root (the public API in src/lib.rs).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');

export const LAYERS = [
  // Leaves: sizes and constants, scalar arithmetic, the polynomial types (ring), constant-time marks.
  ['params', 'field', 'ct', 'tables', 'ring'],
  // The kernels: the interface, its reference implementation and its simd128 one.
  ['backend', 'portable', 'simd128'],
  // Primitives built on the kernels: Keccak and its XOFs, the NTT, the challenge's products, polynomials,
  // packing, sampling, pre-hashes.
  ['keccak', 'xof', 'ntt', 'challenge', 'poly', 'encode', 'sample', 'prehash'],
  // The algorithms of FIPS 204, and the DER/PEM codecs they do not need.
  ['mldsa', 'der', 'pem'],
  // The public API, then the key formats built on it, then the crate root (src/lib.rs:
  // module declarations and the re-exports that make the public surface).
  ['api'],
  ['keyformat'],
  ['lib'],
  // Bindings, fuzzing hooks and benchmarks: nothing below may use them.
  ['wasm', 'js_tables', 'fuzzing', 'bench', 'tests', 'test_rng'],
];

// The folders of src/ the layers live in, so that the layers show in the
// tree: each module's files are in a folder of its layer ('' = src/ itself;
// src/lib.rs names each file with a `path` attribute, so that module names
// stay short).
export const LAYER_FOLDERS = [['base'], ['kernels'], ['primitives'], ['algorithms'], [''], [''], [''], ['bindings', 'testing']];
const FOLDERS = new Set(LAYER_FOLDERS.flat().filter(Boolean));

/** The layer folder a file of src/ is in ('' for src/ itself). */
function folderOf(file) {
  const first = path.relative(src, file).split(path.sep)[0];
  return FOLDERS.has(first) ? first : '';
}

function rsFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...rsFiles(p));
    else if (e.name.endsWith('.rs')) out.push(p);
  }
  return out;
}

/** The top-level module a file belongs to: src/primitives/ntt.rs → ntt; src/kernels/simd128/ntt.rs → simd128; src/lib.rs → lib. */
function moduleOf(file) {
  let rel = path.relative(src, file).split(path.sep);
  if (FOLDERS.has(rel[0])) rel = rel.slice(1);
  if (rel.length === 1) return rel[0].replace(/\.rs$/, '');
  return rel[0];
}

/** Modules that the crate root or a parent declares behind `#[cfg(test)]` (or `#[cfg(all(test, …))]`). */
function testOnlyFiles(files) {
  const out = new Set();
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8');
    const dir = path.basename(f) === 'lib.rs' || path.basename(f) === 'mod.rs' ? path.dirname(f) : f.replace(/\.rs$/, '');
    for (const m of text.matchAll(/#\[cfg\((?:all\()?test\b[^\]]*\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([a-z_0-9]+)\s*;/g)) {
      // A `path` attribute names the file, relative to the declaring file's folder.
      const named = /#\[path\s*=\s*"([^"]+)"\]/.exec(m[0]);
      if (named) {
        out.add(path.join(path.dirname(f), named[1]));
        continue;
      }
      out.add(path.join(dir, `${m[1]}.rs`));
      out.add(path.join(dir, m[1], 'mod.rs'));
    }
  }
  return out;
}

/** Test-only files: declared behind #[cfg(test)], or marked #![cfg(test)] inside. */
function isTestFile(file, text, testOnly) {
  if (testOnly.has(file) || [...testOnly].some((t) => t.endsWith('mod.rs') && file.startsWith(path.dirname(t) + path.sep))) return true;
  return /^\s*#!\[cfg\((?:all\()?test\b/m.test(text);
}

/** The text with comments, string and char literals blanked, so that braces and `crate::` in them do not count. */
function codeOnly(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/.*$/gm, '')
    .replace(/"(?:\\.|[^"\\])*"/g, '""')
    .replace(/'(?:\\.|[^'\\])'/g, "' '");
}

/**
 * The production code of a file: without comments, and without each item that
 * `#[cfg(test)]` or `#[cfg(all(test, …))]` guards (a `mod x;` declaration, or an
 * item up to its matching closing brace), so that code after a test item still
 * counts. (`#[cfg(any(test, …))]` is production code under a feature: it counts.)
 */
export function productionText(text) {
  let code = codeOnly(text);
  const attr = /#\[cfg\((?:all\()?test\b[^\]]*\]/g;
  const cuts = [];
  for (let m; (m = attr.exec(code)); ) {
    let i = m.index + m[0].length;
    // Further attributes of the same item.
    for (;;) {
      while (/\s/.test(code[i] ?? '')) i++;
      if (code[i] === '#' && code[i + 1] === '[') {
        let depth = 0;
        for (; i < code.length; i++) {
          if (code[i] === '[') depth++;
          else if (code[i] === ']' && --depth === 0) break;
        }
        i++;
      } else break;
    }
    // The item: up to a `;` before any `{`, or to the brace matching its first `{`.
    let end = code.length;
    for (let j = i, depth = 0; j < code.length; j++) {
      const c = code[j];
      if (c === ';' && depth === 0) {
        end = j + 1;
        break;
      }
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        end = j + 1;
        break;
      }
    }
    cuts.push([m.index, end]);
    attr.lastIndex = end;
  }
  for (const [a, b] of cuts.reverse()) code = code.slice(0, a) + ' '.repeat(b - a) + code.slice(b);
  return code;
}

/** `crate::` names used by a production text (group imports included). */
export function usesOf(body) {
  const uses = new Set();
  for (const m of body.matchAll(/crate::\{([^}]*)\}/g)) {
    for (const part of m[1].split(',')) {
      const name = part.trim().split('::')[0].trim();
      if (name) uses.add(name);
    }
  }
  for (const m of body.matchAll(/crate::([a-z_][a-z0-9_]*)/g)) uses.add(m[1]);
  return uses;
}

function selfTest() {
  const cases = [
    ['use after a test fn', '#[cfg(test)]\nfn t() { let x = { 1 }; }\nuse crate::mldsa as up;\n', ['mldsa']],
    ['code after a test mod declaration', '#[cfg(test)]\npub(crate) mod streams;\npub fn f() { crate::api::keygen(); }\n', ['api']],
    ['a test mod is dropped', 'use crate::params::N;\n#[cfg(test)]\nmod tests {\n use crate::mldsa::x;\n fn f() { if a { b } }\n}\n', ['params']],
    [
      'all(test, …) with a second attribute',
      '#[cfg(all(test, target_arch = "wasm32"))]\n#[allow(dead_code)]\nfn t() { crate::wasm::x(); }\nfn g() { crate::ring::Poly::zero(); }\n',
      ['ring'],
    ],
    ['any(test, feature) counts', '#[cfg(any(test, feature = "ct-testing"))]\npub fn r() { crate::mldsa::x(); }\n', ['mldsa']],
    [
      'braces and crate:: in strings and comments',
      'fn f() { let s = "} crate::api {"; let c = \'}\'; } // crate::wasm\n/* crate::bench */ use crate::xof::X;\n',
      ['xof'],
    ],
  ];
  let failed = 0;
  for (const [what, text, want] of cases) {
    const got = [...usesOf(productionText(text))].sort();
    const ok = JSON.stringify(got) === JSON.stringify([...want].sort());
    console.log(`self-test ${ok ? 'ok' : 'FAILED'}: ${what}${ok ? '' : ` (got ${JSON.stringify(got)}, want ${JSON.stringify(want)})`}`);
    if (!ok) failed++;
  }
  return failed;
}

export function graph() {
  const modules = new Set();
  const edges = new Map(); // from → Set(to)
  const files = rsFiles(src);
  const testOnly = testOnlyFiles(files);
  const folders = new Map(); // module → the layer folders its files are in
  for (const f of files) {
    modules.add(moduleOf(f));
    if (!folders.has(moduleOf(f))) folders.set(moduleOf(f), new Set());
    folders.get(moduleOf(f)).add(folderOf(f));
  }
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8');
    const from = moduleOf(f);
    if (!edges.has(from)) edges.set(from, new Set());
    if (isTestFile(f, text, testOnly)) continue;
    const body = productionText(text);
    const uses = usesOf(body);
    // Items of the crate root used as `crate::Error`, `crate::{ParamSet, …}`: the root, unless a module of that name exists.
    for (const name of [...uses]) {
      if (!modules.has(name)) {
        uses.delete(name);
        uses.add('lib');
      }
    }
    if (from === 'lib') {
      // The root names its modules without `crate::`.
      for (const m of body.matchAll(/\b([a-z_][a-z0-9_]*)::/g)) if (modules.has(m[1])) uses.add(m[1]);
    }
    uses.delete(from);
    for (const u of uses) edges.get(from).add(u);
  }
  return { modules: [...modules].sort(), edges, folders };
}

function layerOf(name) {
  return LAYERS.findIndex((l) => l.includes(name));
}

export function problems({ modules, edges, folders }) {
  const out = [];
  for (const m of modules) if (layerOf(m) < 0) out.push(`module ${m} is in no layer of scripts/module-graph.mjs LAYERS`);
  for (const [m, in_] of folders ?? []) {
    const allowed = LAYER_FOLDERS[layerOf(m)] ?? [];
    for (const f of in_)
      if (!allowed.includes(f))
        out.push(`module ${m} has files in src/${f}${f && '/'}, not in its layer's folder (src/${allowed.join('/ or src/')}${allowed[0] ? '/' : ''})`);
  }
  for (const [from, tos] of edges) {
    for (const to of tos) {
      if (edges.get(to)?.has(from) && from < to) out.push(`cycle: ${from} ↔ ${to}`);
      const lf = layerOf(from),
        lt = layerOf(to);
      if (lf >= 0 && lt > lf) out.push(`${from} (layer ${lf}) uses ${to} (layer ${lt}), a higher layer`);
    }
  }
  // Longer cycles: depth-first search over the graph.
  const state = new Map();
  const stack = [];
  const visit = (n) => {
    state.set(n, 1);
    stack.push(n);
    for (const t of edges.get(n) ?? []) {
      if (state.get(t) === 1) {
        const cyc = stack.slice(stack.indexOf(t)).concat(t);
        if (cyc.length > 3) out.push(`cycle: ${cyc.join(' → ')}`);
      } else if (!state.has(t)) visit(t);
    }
    stack.pop();
    state.set(n, 2);
  };
  for (const m of modules) if (!state.has(m)) visit(m);
  return out;
}

/** The FIPS 204 algorithm numbers a text cites: "Algorithm 7", "Algorithms 16–19", "Algorithms 35, 36, 39, 40", "41 and 42". */
export function citedAlgorithms(text) {
  const out = new Set();
  for (const m of text.matchAll(/Algorithms? (\d+(?:\s*(?:–|-|,|and)\s*\d+)*)/g)) {
    const parts = m[1].split(/\s*(?:,|and)\s*/);
    for (const part of parts) {
      const r = part.split(/\s*[–-]\s*/).map(Number);
      if (r.length === 2) for (let n = r[0]; n <= r[1]; n++) out.add(n);
      else out.add(r[0]);
    }
  }
  return out;
}

export const LAYOUT_FILE = 'docs/development.md';

export function layoutProblems(modules, text) {
  const out = [];
  const at = text.indexOf('## Layout');
  if (at < 0) return [`${LAYOUT_FILE} has no "## Layout" section`];
  const end = text.indexOf('\n## ', at + 1);
  const layout = text.slice(at, end < 0 ? text.length : end);
  for (const m of modules) {
    if (m === 'lib' || m === 'tests' || m === 'test_rng') continue;
    if (!new RegExp(`(?<![a-z_0-9])${m}(?:\\.rs|/)`).test(layout)) out.push(`${LAYOUT_FILE} Layout does not name module ${m}`);
  }
  const a = layout.indexOf('<!-- module-map start');
  const b = layout.indexOf('<!-- module-map end -->');
  if (a < 0 || b < 0) return [...out, `${LAYOUT_FILE} Layout has no module-map markers`];
  const rows = layout
    .slice(a, b)
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('|---'));
  const read = (f) => fs.readFileSync(path.join(root, f), 'utf8');
  const backend = read('src/kernels/backend.rs');
  let fipsRows = 0,
    kernelRows = 0;
  for (const row of rows) {
    const cells = row
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const files = [...row.matchAll(/`(src\/[^`]+\.rs)`/g)].map((m) => m[1]);
    for (const f of files) if (!fs.existsSync(path.join(root, f))) out.push(`${LAYOUT_FILE} module map names ${f}, which does not exist`);
    if (/^Algorithms? \d/.test(cells[0])) {
      fipsRows++;
      const first = files.find((f) => cells[2].includes(f));
      if (!first || !fs.existsSync(path.join(root, first))) continue;
      const cited = citedAlgorithms(read(first));
      for (const n of citedAlgorithms(cells[0])) if (!cited.has(n)) out.push(`${LAYOUT_FILE} module map: ${first} does not cite FIPS 204 Algorithm ${n}`);
    } else if (cells[0].startsWith('`')) {
      kernelRows++;
      const names = [...cells[0].matchAll(/`([a-z_0-9]+)`/g)].map((m) => m[1]);
      for (const name of names) {
        if (!new RegExp(`fn ${name}\\b`).test(backend)) out.push(`${LAYOUT_FILE} kernel table: ${name} is not a method of Backend (src/kernels/backend.rs)`);
        for (const f of files)
          if (fs.existsSync(path.join(root, f)) && !new RegExp(`fn ${name}\\b`).test(read(f))) out.push(`${LAYOUT_FILE} kernel table: ${f} has no fn ${name}`);
      }
    }
  }
  if (!fipsRows || !kernelRows) out.push(`${LAYOUT_FILE} module map: ${fipsRows} FIPS 204 rows and ${kernelRows} kernel rows; expected both tables`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--self-test')) {
    const failed = selfTest();
    console.log(`module-graph: self-test ${failed ? 'FAILED' : 'passed'}`);
    process.exit(failed ? 1 : 0);
  }
  const g = graph();
  if (process.argv.includes('--dot')) {
    console.log('digraph crate {');
    for (const [from, tos] of g.edges) for (const to of [...tos].sort()) console.log(`  "${from}" -> "${to}";`);
    console.log('}');
  } else {
    const byLayer = LAYERS.map((l, i) => ({ i, mods: g.modules.filter((m) => l.includes(m)) }));
    const unplaced = g.modules.filter((m) => layerOf(m) < 0);
    for (const { i, mods } of byLayer) {
      for (const m of mods) console.log(`${i}  ${m.padEnd(12)} → ${[...(g.edges.get(m) ?? [])].sort().join(', ') || '(nothing)'}`);
    }
    for (const m of unplaced) console.log(`?  ${m.padEnd(12)} → ${[...(g.edges.get(m) ?? [])].sort().join(', ')}`);
  }
  const p = problems(g);
  if (process.argv.includes('--check')) {
    p.push(...layoutProblems(g.modules, fs.readFileSync(path.join(root, LAYOUT_FILE), 'utf8')));
    if (p.length) {
      for (const line of p) console.error(`module-graph: ${line}`);
      console.error(`module-graph: FAILED (${p.length} problem${p.length === 1 ? '' : 's'})`);
      process.exit(1);
    }
    console.log(`module-graph: passed (${g.modules.length} modules, layered, no cycles)`);
  } else if (p.length) {
    for (const line of p) console.log(`module-graph: ${line}`);
  }
}
