/**
 * Gives back the main .wasm from its LZMA-compressed bytes, with the LZMA
 * decoder module built from unpack/ (a Rust crate; see unpack/src/lib.rs).
 * Both arrive inlined in the bundle (scripts/build.mjs embeds them); this runs
 * once, at import, and the decoder's instance is dropped afterwards.
 * @module
 */

/**
 * @param {Uint8Array} decoder the decoder module's bytes
 * @param {number} props the LZMA properties byte, (pb·5 + lp)·9 + lc
 * @param {Uint8Array} packed the raw LZMA stream
 * @param {number} size the exact unpacked length
 * @returns {Uint8Array}
 */
export function unpackWasm(decoder, props, packed, size) {
  const { memory, unlzma } = new WebAssembly.Instance(new WebAssembly.Module(decoder)).exports;
  // Input, then output, in pages added after the decoder's own data and stack.
  const input = memory.buffer.byteLength;
  const output = input + packed.length;
  memory.grow(Math.ceil((packed.length + size) / 65536));
  new Uint8Array(memory.buffer).set(packed, input);
  const code = unlzma(props, input, packed.length, output, size);
  if (code !== 0) throw new Error(`mldsa-simd: the embedded WebAssembly module is damaged (unpack error ${code})`);
  return new Uint8Array(memory.buffer, output, size).slice();
}
