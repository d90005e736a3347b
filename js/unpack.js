/**
 * Gives back the main .wasm from its deflated bytes, with the DEFLATE decoder
 * module built from inflate/ (a Rust crate; see inflate/src/lib.rs). Both
 * arrive inlined in the bundle (scripts/build.mjs embeds them); this runs once,
 * at import, and the decoder's instance is dropped afterwards.
 * @module
 */

/**
 * @param {Uint8Array} inflater the decoder module's bytes
 * @param {Uint8Array} deflated raw DEFLATE data
 * @param {number} size the exact inflated length
 * @returns {Uint8Array}
 */
export function unpackWasm(inflater, deflated, size) {
  const { memory, inflate_raw } = new WebAssembly.Instance(new WebAssembly.Module(inflater)).exports;
  // Input, then output, in pages added after the decoder's own data and stack.
  const input = memory.buffer.byteLength;
  const output = input + deflated.length;
  memory.grow(Math.ceil((deflated.length + size) / 65536));
  new Uint8Array(memory.buffer).set(deflated, input);
  const code = inflate_raw(input, deflated.length, output, size);
  if (code !== 0) throw new Error(`mldsa-simd: the embedded WebAssembly module is damaged (inflate error ${code})`);
  return new Uint8Array(memory.buffer, output, size).slice();
}
