// A script in the same realm that replaces built-ins after the package loaded
// learns no secret through them. The package (its JavaScript and the glue of
// the wasm module) captured every built-in it uses on secret-bearing values at
// load; here each such built-in — typed-array and ArrayBuffer methods and
// accessors, the species constructors they consult, WebAssembly.Memory's
// buffer, WeakMap and FinalizationRegistry methods, Reflect/Function apply,
// the array iterator, TextEncoder/TextDecoder — is replaced after the import
// by a spy that passes the call on and looks at what it was given: a wasm
// memory (which holds every live prepared signer's expanded key), a view of
// one, or any bytes holding the seed or K of the keys in use. Then keys are
// made from seeds, imported from every format, prepared and used to sign, as
// plain bytes and as non-extractable WebCrypto keys.
import test from 'node:test';
import assert from 'node:assert/strict';
import { IMPL } from './lib/load.mjs';
import { Rng } from './lib/util.mjs';
import { importWatched, occurrences } from './lib/instance.mjs';
import { installedPackageDir } from './lib/load.mjs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const skip = IMPL === 'noble' ? 'tests the package' : false;
const rng = new Rng('intrinsics');

const TA = Object.getPrototypeOf(Uint8Array.prototype);
const isMemory = (x) => x instanceof WebAssembly.Memory;

/** The built-ins replaced: [object, property name or symbol, label]. */
function targets() {
  const list = [];
  const add = (object, label, names) => {
    for (const name of names ?? Reflect.ownKeys(object)) {
      const d = Object.getOwnPropertyDescriptor(object, name);
      if (!d || !d.configurable || name === 'constructor' && typeof d.value !== 'function') continue;
      if (typeof d.value === 'function' || d.get) list.push([object, name, `${label}.${String(name)}`]);
    }
  };
  add(TA, '%TypedArray%.prototype');
  add(Uint8Array.prototype, 'Uint8Array.prototype');
  add(ArrayBuffer.prototype, 'ArrayBuffer.prototype');
  add(ArrayBuffer, 'ArrayBuffer', [Symbol.species, 'isView']);
  add(Uint8Array, 'Uint8Array', [Symbol.species, 'from', 'of']);
  add(DataView.prototype, 'DataView.prototype');
  add(WebAssembly.Memory.prototype, 'WebAssembly.Memory.prototype');
  add(WebAssembly.Table.prototype, 'WebAssembly.Table.prototype');
  add(WeakMap.prototype, 'WeakMap.prototype');
  add(WeakSet.prototype, 'WeakSet.prototype');
  add(FinalizationRegistry.prototype, 'FinalizationRegistry.prototype');
  add(Function.prototype, 'Function.prototype', ['apply', 'call', 'bind']);
  add(Reflect, 'Reflect', ['apply', 'construct']);
  add(Array.prototype, 'Array.prototype', [Symbol.iterator, 'push', 'slice', 'map', 'includes', 'indexOf', 'forEach', 'some', 'filter', 'concat', 'join']);
  add(Object, 'Object', ['freeze', 'defineProperty', 'getPrototypeOf', 'keys', 'assign']);
  add(TextEncoder.prototype, 'TextEncoder.prototype');
  add(TextDecoder.prototype, 'TextDecoder.prototype');
  add(String.prototype, 'String.prototype', ['replace', 'slice', 'toLowerCase', 'includes', 'indexOf']);
  add(Promise.prototype, 'Promise.prototype', ['then']);
  return list;
}

test('built-ins replaced after the import see no secret', { skip, timeout: 300_000 }, async (t) => {
  const { lib } = await importWatched('intrinsics');
  // The webcrypto module as its own copy too, built on that same main entry copy.
  const dir = installedPackageDir();
  const { subtle } = await import(pathToFileURL(path.join(dir, 'webcrypto.mjs')).href + '?watched=intrinsics');

  const P = lib.ml_dsa65;
  const seed = rng.bytes(32);
  const { publicKey, secretKey } = P.keygen(seed);
  const K = new Uint8Array(secretKey.subarray(32, 64));
  const pem = P.exportSecretKey(seed, 'pem', { form: 'both' });
  const der = P.exportSecretKey(seed, 'pkcs8');
  const jwk = P.exportSecretKey(seed, 'jwk');
  const msg = rng.bytes(80);
  // Made before the spies: the spies must not see their keys either.
  const signer = P.signer(seed);
  const wcKey = await subtle.importKey('raw-seed', seed, 'ML-DSA-65', false, ['sign']);

  const seen = new Map(); // label -> what the spy saw
  const look = (label, value) => {
    if (seen.has(label) || value === null || (typeof value !== 'object' && typeof value !== 'function')) return;
    let bytes;
    try {
      if (isMemory(value)) return seen.set(label, 'a WebAssembly.Memory');
      if (ArrayBuffer.isView(value)) bytes = new Uint8Array(value.buffer === undefined ? [] : Reflect.apply(Object.getOwnPropertyDescriptor(TA, 'buffer')?.get ?? (() => value.buffer), value, []));
      else if (value instanceof ArrayBuffer) bytes = new Uint8Array(value);
      else if (Array.isArray(value)) return value.forEach((v) => look(label, v));
    } catch {
      return; // a detached buffer
    }
    if (!bytes) return;
    if (occurrences(bytes, seed).length) seen.set(label, 'bytes holding the seed');
    else if (occurrences(bytes, K).length) seen.set(label, 'bytes holding K');
  };

  // Install the spies (each records what it saw, then passes the call on).
  const restore = [];
  for (const [object, name, label] of targets()) {
    const d = Object.getOwnPropertyDescriptor(object, name);
    const spied = { ...d };
    if (typeof d.value === 'function') {
      const original = d.value;
      spied.value = function (...args) {
        look(label, this);
        for (const a of args) look(label, a);
        return new.target ? Reflect.construct(original, args, new.target) : Reflect.apply(original, this, args);
      };
    } else {
      const get = d.get;
      spied.get = function () {
        look(label, this);
        return Reflect.apply(get, this, []);
      };
    }
    restore.push(() => Object.defineProperty(object, name, d));
    Object.defineProperty(object, name, spied);
  }
  // The spies' own work must not count: `look` runs with them in place but only
  // records values the package handed over.
  let results;
  try {
    seen.clear();
    results = [];
    results.push(P.keygen(seed).publicKey);
    results.push(P.signer(seed).sign(msg, { extraEntropy: false }));
    results.push(P.signer(secretKey).sign(msg, { extraEntropy: false }));
    results.push(signer.sign(msg, { extraEntropy: false }));
    results.push(P.sign(msg, secretKey, { extraEntropy: false }));
    results.push(P.createSign(seed).update(msg).sign({ extraEntropy: false }));
    for (const [data, format] of [[pem, 'pem'], [der, 'pkcs8'], [jwk, 'jwk'], [seed, 'raw-seed']]) results.push(P.importSecretKey(data, format).publicKey);
    const generated = await subtle.generateKey('ML-DSA-65', false, ['sign', 'verify']);
    results.push(new Uint8Array(await subtle.sign('ML-DSA-65', generated.privateKey, msg)));
    const imported = await subtle.importKey('pkcs8', der, 'ML-DSA-65', false, ['sign']);
    results.push(new Uint8Array(await subtle.sign({ name: 'ML-DSA-65' }, imported, msg)));
    results.push(new Uint8Array(await subtle.sign({ name: 'ML-DSA-65' }, wcKey, msg)));
    const fromJwk = await subtle.importKey('jwk', { ...jwk, key_ops: ['sign'] }, 'ML-DSA-65', false, ['sign']);
    results.push(new Uint8Array(await subtle.sign('ML-DSA-65', fromJwk, msg)));
    results.push(new Uint8Array(await subtle.exportKey('spki', generated.publicKey)));
  } finally {
    for (const r of restore) r();
  }
  signer.free();
  const leaks = [...seen].map(([label, what]) => `${label} saw ${what}`);
  assert.deepEqual(leaks, [], `replaced built-ins were handed secrets:\n${leaks.join('\n')}`);
  // The work was real: the signatures verify.
  for (const sig of results.slice(1, 6)) assert.equal(P.verify(sig, msg, publicKey), true);
  t.diagnostic(`${targets().length} built-ins replaced; ${results.length} operations; none saw the seed, K or a wasm memory`);
});
