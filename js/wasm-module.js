/**
 * compileModule() gives the main WebAssembly module, compiled from the bytes
 * inlined in the bundle (./wasm-inline.js); js/boundary.js calls it once, at
 * import, and catches what it throws (no WebAssembly, or a platform that
 * refuses to compile it). scripts/build.mjs replaces this file in two kinds of
 * entries: those for Node (and Bun, Deno: export condition "node") with
 * wasm-module.node.js, which reads the .wasm shipped beside them; those for
 * runtimes that refuse to compile wasm from bytes after start-up (workerd,
 * Vercel Edge) with wasm-module.edge.js, which imports that file instead.
 *
 * Here the module is unpacked and compiled when this file is evaluated, the
 * first of the package's modules with code, and what that throws is kept for
 * compileModule() to throw: so a bundler puts the inlined bytes, which are
 * only used here, at the start of the bundle, where they gzip best
 * (between pieces of code they cost webpack's bundles 1.2 KB more).
 * @module
 */
import { inlinedWasm } from './wasm-inline.js';

let compiled, failure;
try {
  compiled = new WebAssembly.Module(inlinedWasm());
} catch (e) {
  failure = { e };
}

export function compileModule() {
  if (failure) throw failure.e;
  return compiled;
}
