// The LZMA decoder module as built (build/unpack.wasm, through js/unpack.js, as
// the package uses it) against LZMA-JS, the compressor the build uses: round
// trips over many inputs and levels, and damaged, truncated and random streams,
// which must throw an Error, never trap. Run by scripts/test.sh after the build.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { unpackWasm } from '../js/unpack.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { compress } = createRequire(import.meta.url)('lzma');
const decoder = fs.readFileSync(path.join(root, 'build', 'unpack.wasm'));
const mainWasm = new Uint8Array(fs.readFileSync(path.join(root, 'build', 'wasm', 'mldsa_simd_bg.wasm')));

/** The .lzma form split into what the package embeds: properties byte and raw stream. */
function lzma(data, level) {
  const full = Uint8Array.from(compress(data, level), (b) => b & 0xff);
  return { props: full[0], packed: full.subarray(13) };
}

function xorshift(seed) {
  let s = BigInt(seed);
  const mask = (1n << 64n) - 1n;
  return () => {
    s ^= (s << 13n) & mask;
    s ^= s >> 7n;
    s ^= (s << 17n) & mask;
    return Number(s & 0xffffffffn);
  };
}

function noise(n, seed) {
  const next = xorshift(seed);
  return Uint8Array.from({ length: n }, () => next() & 0xff);
}

const text = new TextEncoder().encode(Array.from({ length: 1500 }, (_, i) => `coefficient ${i % 97} of poly ${i % 13}; `).join(''));
const samples = {
  empty: new Uint8Array(0),
  'one byte': Uint8Array.of(42),
  'abc…': new TextEncoder().encode('abc'.repeat(1000)),
  'noise 1 KB': noise(1000, 1),
  'noise 30 KB': noise(30_000, 2),
  'zeros 100 KB': new Uint8Array(100_000),
  text,
  mixed: Uint8Array.from([...noise(5000, 3), ...new Uint8Array(30_000), ...text.subarray(0, 20_000), ...noise(3000, 4)]),
  'the main .wasm': mainWasm,
};

for (const [name, data] of Object.entries(samples)) {
  test(`round trip: ${name} (${data.length} bytes), LZMA-JS levels 1 and 9`, () => {
    for (const level of [1, 9]) {
      const { props, packed } = lzma(data, level);
      assert.deepEqual(unpackWasm(decoder, props, packed, data.length), data, `level ${level}`);
    }
  });
}

test('wrong sizes and properties are refused', () => {
  const { props, packed } = lzma(text, 9);
  for (const size of [text.length - 1, text.length + 1, 0]) {
    assert.throws(() => unpackWasm(decoder, props, packed, size), /damaged/, `size ${size}`);
  }
  for (const bad of [4 + 9 * 1, 225, 255]) {
    assert.throws(() => unpackWasm(decoder, bad, packed, text.length), /damaged/, `props ${bad}`);
  }
});

test('damaged, truncated and random streams throw an Error, never trap', () => {
  const next = xorshift(0x9e3779b97f4a7c15n);
  const { props, packed } = lzma(mainWasm, 9);
  let refused = 0;
  const rounds = 600;
  for (let round = 0; round < rounds; round++) {
    let input;
    if (round % 3 === 0) {
      // A valid start (first byte 0, first code below 2^32 − 1), so that the
      // decoder gets past the range coder's checks.
      input = noise(5 + (next() % 300), next());
      input[0] = 0;
      input[1] &= 0x7f;
    } else if (round % 3 === 1) {
      input = packed.slice(0, next() % packed.length);
    } else {
      input = packed.slice();
      for (let f = 1 + (next() % 3); f > 0; f--) {
        const bit = next() % (input.length * 8);
        input[bit >> 3] ^= 1 << (bit & 7);
      }
    }
    try {
      unpackWasm(decoder, props, input, mainWasm.length);
    } catch (e) {
      assert.ok(!(e instanceof WebAssembly.RuntimeError), `round ${round}: the decoder trapped: ${e.message}`);
      assert.match(e.message, /damaged/);
      refused++;
    }
  }
  assert.ok(refused >= rounds - 3, `only ${refused} of ${rounds} refused`);
});
