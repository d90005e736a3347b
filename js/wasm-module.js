/**
 * compileModule() gives the main WebAssembly module, compiled from the bytes
 * inlined in the bundle (./wasm-inline.js); js/boundary.js calls it once, at
 * import, and catches what it throws (no WebAssembly, or a platform that
 * refuses to compile it). scripts/build.mjs replaces this file in two kinds of
 * entries: those for Node (and Bun, Deno: export condition "node") with
 * wasm-module.node.js, which reads the .wasm shipped beside them; those for
 * runtimes that refuse to compile wasm from bytes after start-up (workerd,
 * Vercel Edge) with wasm-module.edge.js, which imports that file instead.
 * @module
 */
import { inlinedWasm } from './wasm-inline.js';

export const compileModule = () => new WebAssembly.Module(inlinedWasm());
