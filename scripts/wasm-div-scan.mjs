#!/usr/bin/env node
// No integer division in the shipped .wasm where keygen and signing can reach
// it (DESIGN.md §5: a division's time can depend on its operands; a compiled
// `div` on secret data was a CVE in a peer).
//
//   node scripts/wasm-div-scan.mjs [path/to/mldsa_simd_bg.wasm]   (default: build/wasm/)
//
// It reads the module with binaryen (the npm devDependency), builds the call
// graph (direct calls; an indirect call may reach any function in the table),
// and takes as roots every export that handles secret keys, seeds or signing
// randomness (SECRET_EXPORT below). It fails if a function reachable from them
// contains i32/i64 div_s, div_u, rem_s or rem_u, unless it is one of the
// ALLOWED functions below, each with its reason. The .wasm has no name
// section, so those are recognised by what they contain. Every export must
// be classified: a new one that matches neither list fails the scan, so that
// it is looked at.
import binaryen from 'binaryen';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = process.argv[2] || path.join(root, 'build/wasm/mldsa_simd_bg.wasm');

// Exports that take a secret key, a seed or rnd, or hold a prepared signing key
// (stream_mu may start from a secret key's tr; alloc and dealloc give out and
// wipe the blocks secrets are copied into).
const SECRET_EXPORT = /^(keygen|public_key|sign|stream_mu|prepare_signer|prepared_free|prepared_stream_mu|alloc|dealloc)$|^signer_/;
// Exports on public data only (verification, message streaming, memory size and use) and wasm-bindgen's.
const PUBLIC_EXPORT =
  /^(verify|prepare_verifier|prepared_live|stream_update|stream_finish|memory_bytes|memory_in_use|memory)$|^verifier_|^__wbindgen_|^__externref_|^__abort_handler$|^__instance_terminated$/;
// Functions allowed to divide, recognised by their code, with the reason.
const ALLOWED = [
  {
    what: 'the allocator (src/bindings/wasm/allocator.rs): reached from __wbindgen_malloc/_free/_realloc',
    why: 'it divides buffer sizes, which are public lengths (need.div_ceil(PAGE))',
    test: (f, ctx) => ctx.allocator.has(f.name),
  },
  {
    what: 'the NTT twiddle tables (src/kernels/simd128/twiddles.rs, fill and Twiddles::fill): no parameters, contains ζ = 1753',
    why: 'filled once from constants (powers of ζ mod q and their Shoup companions); no input reaches it',
    test: (f) => f.params === 0 && /\(i64\.const 1753\)/.test(f.text),
  },
];
// The allocator's entry points; everything they reach is allocator code.
const ALLOCATOR_EXPORT = /^__wbindgen_(malloc|free|realloc)$/;
const DIV = /\((i32|i64)\.(div_s|div_u|rem_s|rem_u)\b/g;

function fail(msg) {
  console.error(`wasm-div-scan: FAILED: ${msg}`);
  process.exit(1);
}

if (!fs.existsSync(file)) fail(`${path.relative(root, file)} not found (run npm run build first)`);
const mod = binaryen.readBinary(fs.readFileSync(file));
const text = mod.emitText();
mod.dispose();

// Binaryen's text: one top-level form per line that starts with " (".
const funcs = new Map(); // name -> { body, calls:Set, indirect:boolean, divs:[op] }
const exports = []; // [exportName, funcName]
const table = new Set(); // functions reachable through call_indirect
let cur = null;
for (const line of text.split('\n')) {
  let m;
  if ((m = /^ \(func (\$\S+)/.exec(line))) {
    cur = { name: m[1], calls: new Set(), indirect: false, divs: [], params: (line.match(/\(param /g) || []).length, text: '' };
    funcs.set(m[1], cur);
  } else if (/^ \(/.test(line)) {
    cur = null;
    if ((m = /^ \(export "([^"]+)" \(func (\$\S+)\)\)/.exec(line))) exports.push([m[1], m[2]]);
    else if ((m = /^ \(export "([^"]+)"/.exec(line))) exports.push([m[1], null]);
    if (/^ \(elem\b/.test(line)) for (const f of line.matchAll(/\$[^\s()]+/g)) table.add(f[0]);
  }
  if (!cur) continue;
  cur.text += line + '\n';
  for (const c of line.matchAll(/\((?:return_)?call (\$[^\s()]+)/g)) cur.calls.add(c[1]);
  if (/\((?:return_)?call_(indirect|ref)\b/.test(line)) cur.indirect = true;
  for (const d of line.matchAll(DIV)) cur.divs.push(`${d[1]}.${d[2]}`);
}
for (const t of table) if (!funcs.has(t)) table.delete(t); // imports in the table

function reach(roots) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length) {
    const f = stack.pop();
    if (seen.has(f) || !funcs.has(f)) continue;
    seen.add(f);
    const fn = funcs.get(f);
    stack.push(...fn.calls);
    if (fn.indirect) stack.push(...table);
  }
  return seen;
}

const unclassified = exports.filter(([e]) => !SECRET_EXPORT.test(e) && !PUBLIC_EXPORT.test(e)).map(([e]) => e);
if (unclassified.length)
  fail(`exports not classified as secret or public: ${unclassified.join(', ')} (edit SECRET_EXPORT / PUBLIC_EXPORT in scripts/wasm-div-scan.mjs)`);
const roots = exports.filter(([e, f]) => f && SECRET_EXPORT.test(e));
if (!roots.some(([e]) => /keygen/.test(e)) || !roots.some(([e]) => /sign/.test(e)))
  fail('no keygen or sign export found: wrong file, or the export names changed');
const allocator = reach(exports.filter(([e, f]) => f && ALLOCATOR_EXPORT.test(e)).map(([, f]) => f));
const reached = reach(roots.map(([, f]) => f));

const all = [...funcs.values()].reduce((n, f) => n + f.divs.length, 0);
console.log(`wasm-div-scan: ${path.relative(root, file)}: ${funcs.size} functions, ${all} integer div/rem in all`);
console.log(`  roots (${roots.length}): ${roots.map(([e]) => e).join(', ')}`);
console.log(`  reachable from them: ${reached.size} functions${table.size ? ` (indirect calls count as reaching all ${table.size} table entries)` : ''}`);
const bad = [];
for (const f of reached) {
  const fn = funcs.get(f);
  if (!fn.divs.length) continue;
  const ops = Object.entries(fn.divs.reduce((o, d) => ((o[d] = (o[d] || 0) + 1), o), {}))
    .map(([d, n]) => `${n}× ${d}`)
    .join(', ');
  const ok = ALLOWED.find((a) => a.test(fn, { allocator }));
  if (ok) console.log(`  allowed: ${f} (${ops}): ${ok.what}; ${ok.why}`);
  else bad.push(`${f}: ${ops}`);
}
if (bad.length) fail(`integer division in functions reachable from keygen/sign:\n  ${bad.join('\n  ')}`);
console.log('wasm-div-scan: passed: no integer division reachable from keygen/sign but in the allowed functions');
