/**
 * The compiled main WebAssembly module, from the bytes inlined in the bundle:
 * LZMA-compressed and base64-encoded by scripts/build.mjs, unpacked by the
 * small decoder module of unpack/. The entries for runtimes that refuse to
 * compile wasm from bytes after start-up (workerd, Vercel Edge) replace this
 * file with wasm-module.edge.js, which imports the .wasm file instead.
 * @module
 */
import { UNPACK_BASE64, WASM_LZMA_BASE64, WASM_LZMA_PROPS, WASM_BYTES } from '../build/wasm_base64.js';
import { unpackWasm } from './unpack.js';

const U8 = Uint8Array;

function decodeBase64(text) {
  if (typeof U8.fromBase64 === 'function') return U8.fromBase64(text);
  const binary = atob(text);
  const out = new U8(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export const compiled = new WebAssembly.Module(
  unpackWasm(decodeBase64(UNPACK_BASE64), WASM_LZMA_PROPS, decodeBase64(WASM_LZMA_BASE64), WASM_BYTES),
);
