/**
 * The main .wasm's bytes from the copy inlined in the bundle: LZMA-compressed
 * and base64-encoded by scripts/build.mjs, unpacked by the small decoder
 * module of unpack/ (./unpack.js).
 * @module
 */
import { WASM_BASE64, DECODER_AT, WASM_LZMA_PROPS, WASM_BYTES, WASM_FILE } from '../build/wasm_base64.js';
import { unpackWasm } from './unpack.js';

const U8 = Uint8Array;

// Native decoders first: Uint8Array.fromBase64 (recent browsers), then Node's,
// Bun's and Deno's Buffer, taken from the global so that a bundle for
// browsers never imports node:buffer; atob with a copy loop is ~100× slower.
function decodeBase64(text) {
  if (typeof U8.fromBase64 === 'function') return U8.fromBase64(text);
  const B = globalThis.Buffer;
  if (typeof B?.from === 'function') {
    const b = B.from(text, 'base64');
    return new U8(b.buffer, b.byteOffset, b.length);
  }
  const binary = atob(text);
  const out = new U8(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** @returns {Uint8Array} the main module's bytes */
export function inlinedWasm() {
  const bytes = decodeBase64(WASM_BASE64);
  const packed = new U8(bytes.buffer, bytes.byteOffset, DECODER_AT);
  const decoder = new U8(bytes.buffer, bytes.byteOffset + DECODER_AT, bytes.length - DECODER_AT);
  return unpackWasm(decoder, WASM_LZMA_PROPS, packed, WASM_BYTES);
}

export { WASM_BYTES, WASM_FILE };
