#!/usr/bin/env node
// Guards the code-shape tricks the simd128 NTT depends on for its speed in V8
// (PERF.md, "simd128 kernels"), so a clean-up of src/kernels/simd128/ cannot lose them
// without a failing check:
//   1. no `i64x2.mul` anywhere in the .wasm: V8 has no x64 instruction for it
//      and emulates it with several; the products use `i64x2.extmul_*_i32x4_s`
//      (one `pmuldq` each) on operands that fit in 32 bits;
//   2. in the product kernels (the functions with `i64x2.extmul`: the NTT
//      layers and the pointwise/dot products fused into the inverse NTT), no
//      vector constant inside a loop other than all-zeros or all-ones: the
//      twiddles and q are loaded from memory, because V8 rebuilds a literal
//      vector constant before each use inside a loop, while zeros and ones
//      are one register-clearing instruction;
//   3. those kernels exist at all: at least MIN_PRODUCT_KERNELS functions
//      with `i64x2.extmul`, so a change that moved the products elsewhere
//      (or a broken scan) fails instead of passing vacuously.
//
// Not guarded: the same literal-constant rule in the coefficient-wise, packing and
// parsing kernels (src/kernels/simd128/{poly,encode,sample}.rs). They are inlined into large
// functions whose other loops hold constants that cost nothing there, so no shape
// of the code tells them apart; their differential tests and the benchmark are
// what watch them.
//
//   node scripts/wasm-tricks-check.mjs [path/to/mldsa_simd_bg.wasm]   (default: build/wasm/)
//   node scripts/wasm-tricks-check.mjs --self-test                     the checks on made-up modules
import binaryen from 'binaryen';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MIN_PRODUCT_KERNELS = 2;
const CHEAP_CONST = /^v128\.const i32x4 (?:(?:0x00000000 ?){4}|(?:0xffffffff ?){4})$/;

/** Per function of a module's text: its name, its text, and the vector constants inside loops. */
function functions(text) {
  return text
    .split(/\n \(func /)
    .slice(1)
    .map((ft) => {
      const name = ft.slice(0, ft.indexOf(' '));
      const tokens = ft.split(/(\(|\))/);
      const loops = [];
      const constsInLoops = [];
      let depth = 0;
      for (let k = 0; k < tokens.length; k++) {
        const t = tokens[k];
        if (t === '(') {
          depth++;
          if (tokens[k + 1]?.startsWith('loop')) loops.push(depth);
        } else if (t === ')') {
          if (loops.at(-1) === depth) loops.pop();
          depth--;
        } else if (loops.length && t.trim().startsWith('v128.const')) {
          constsInLoops.push(t.trim());
        }
      }
      return { name, text: ft, constsInLoops };
    });
}

export function check(bytes) {
  const m = binaryen.readBinary(bytes);
  m.setFeatures(binaryen.Features.All);
  const text = m.emitText();
  m.dispose();
  const problems = [];
  const funcs = functions(text);
  for (const f of funcs) {
    const n = (f.text.match(/\bi64x2\.mul\b/g) || []).length;
    if (n) problems.push(`function ${f.name}: ${n} × i64x2.mul (V8 emulates it; use i64x2.extmul_*_i32x4_s)`);
  }
  const kernels = funcs.filter((f) => /\bi64x2\.extmul_(?:low|high)_i32x4_s\b/.test(f.text));
  for (const f of kernels) {
    const bad = f.constsInLoops.filter((c) => !CHEAP_CONST.test(c));
    if (bad.length) problems.push(`product kernel ${f.name}: ${bad.length} vector constant(s) inside a loop, e.g. ${bad[0]} (load it from memory)`);
  }
  if (kernels.length < MIN_PRODUCT_KERNELS) {
    problems.push(`only ${kernels.length} function(s) with i64x2.extmul, expected at least ${MIN_PRODUCT_KERNELS} (the NTT and the fused products)`);
  }
  return { problems, kernels: kernels.length, functions: funcs.length };
}

/** A module with one function of the given body (WebAssembly text). */
function made(body) {
  const m = binaryen.parseText(`(module (memory 1) (func $f (param $p i32) (result v128) ${body}))`);
  m.setFeatures(binaryen.Features.All);
  const bytes = m.emitBinary();
  m.dispose();
  return bytes;
}

function selfTest() {
  const load = '(v128.load (local.get $p))';
  const extmul = `(i64x2.extmul_low_i32x4_s ${load} ${load})`;
  const good = `(loop $l (drop (i64x2.add ${extmul} (v128.const i32x4 0 0 0 0))) (br_if $l (local.get $p))) ${load}`;
  const cases = [
    { what: 'a clean kernel', bytes: made(good), expect: 1 },
    { what: 'i64x2.mul', bytes: made(`(i64x2.mul ${extmul} ${load})`), expect: /i64x2\.mul/ },
    {
      what: 'a constant in a loop',
      bytes: made(`(loop $l (drop (i64x2.add ${extmul} (v128.const i32x4 7 7 7 7))) (br_if $l (local.get $p))) ${load}`),
      expect: /inside a loop/,
    },
    { what: 'a constant outside loops', bytes: made(`(drop (i64x2.add ${extmul} (v128.const i32x4 7 7 7 7))) ${load}`), expect: 1 },
  ];
  let failed = 0;
  for (const c of cases) {
    const r = check(c.bytes);
    // One-function modules always miss MIN_PRODUCT_KERNELS; count only the other problems.
    const others = r.problems.filter((p) => !p.startsWith('only '));
    const ok = typeof c.expect === 'number' ? others.length === 0 && r.kernels === c.expect : others.some((p) => c.expect.test(p));
    console.log(`self-test ${ok ? 'ok' : 'FAILED'}: ${c.what}${ok ? '' : ` (got ${JSON.stringify(r.problems)})`}`);
    if (!ok) failed++;
  }
  const none = check(made(load));
  const okNone = none.problems.some((p) => p.startsWith('only 0'));
  console.log(`self-test ${okNone ? 'ok' : 'FAILED'}: a module without product kernels`);
  if (!okNone) failed++;
  return failed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--self-test')) {
    const failed = selfTest();
    console.log(`wasm-tricks-check: self-test ${failed ? 'FAILED' : 'passed'}`);
    process.exit(failed ? 1 : 0);
  }
  const file = process.argv[2] || path.join(root, 'build/wasm/mldsa_simd_bg.wasm');
  const r = check(fs.readFileSync(file));
  for (const p of r.problems) console.error(`wasm-tricks-check: ${p}`);
  if (r.problems.length) {
    console.error(`wasm-tricks-check: FAILED (${path.relative(root, file)})`);
    process.exit(1);
  }
  console.log(
    `wasm-tricks-check: passed (${path.relative(root, file)}: ${r.functions} functions, ${r.kernels} product kernels, no i64x2.mul, no vector constant in their loops but zeros/ones)`,
  );
}
