/**
 * compileModule() (as in ./wasm-module.js) for Node, Bun and Deno, the
 * entries of export condition "node": the module read from the .wasm shipped
 * beside the entry (pkg/mldsa_simd.wasm, or mldsa_simd_verify.wasm for mldsa-simd/verify), which skips the base64 and LZMA
 * decoding of the inlined copy. When that file is not there (an application bundled into
 * one file, where import.meta.url or __filename names the bundle), has
 * another length than the module built with this code, or cannot be read,
 * the inlined copy is used, so the entry works wherever the plain one does;
 * so it is in Deno without read permission (Deno would ask for it).
 *
 * node:fs comes from process.getBuiltinModule (Node >= 20.16), not from an
 * import: the ESM form of node:fs evaluates all its exports, and its
 * ReadStream getter loads Node's whole streams stack, which costs more than
 * the decoding this saves. Older Node uses the inlined copy.
 * @module
 */
import { inlinedWasm, WASM_BYTES, WASM_FILE } from './wasm-inline.js';

function compileShipped() {
  try {
    const fs = globalThis.process?.getBuiltinModule?.('node:fs');
    if (!fs) return null;
    // Relative to the bundled entry in pkg/, not to this source file.
    const file = new URL(`./${WASM_FILE}`, import.meta.url);
    // Deno asks the user (on a terminal) for a read it was not granted.
    if (globalThis.Deno && globalThis.Deno.permissions?.querySync?.({ name: 'read', path: file }).state !== 'granted') return null;
    const bytes = fs.readFileSync(file);
    if (bytes.length === WASM_BYTES) return new WebAssembly.Module(bytes);
  } catch {
    // No such file, no file URL for this module, or bytes that do not compile: the inlined copy follows.
  }
  return null;
}

export const compileModule = () => compileShipped() ?? new WebAssembly.Module(inlinedWasm());
