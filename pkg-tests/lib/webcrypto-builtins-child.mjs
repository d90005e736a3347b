// Run by pkg-tests/webcrypto-builtins.test.mjs in a fresh Node:
// `node --expose-gc --enable-source-maps webcrypto-builtins-child.mjs <URL of a
// module re-exporting mldsa-simd/webcrypto> <URL of one re-exporting mldsa-simd>
// <URL of one re-exporting mldsa-simd/worker> <URL of one re-exporting
// mldsa-simd/keys> <URL of one re-exporting mldsa-simd/prehash>` (the source
// maps name the package's source file of each caller).
//
// After the package is imported, a script of the same realm replaces the
// built-ins that code reaches for on its values (methods and accessors of
// WeakMap, FinalizationRegistry, %TypedArray%, ArrayBuffer, DataView, Array,
// Function.prototype, Reflect, Object, String, TextEncoder, JSON, Promise,
// WebAssembly.Memory, and accessors on Object.prototype that a read or write
// of a missing property would reach) with spies that record `this`, the
// arguments and the result. Then non-extractable keys are generated and
// imported (pkcs8, raw-seed, jwk), used (sign, verify, getPublicKey, public
// exportKey, a refused private exportKey, the attributes) and dropped (gc).
// Each recorded value is walked at once (before a wipe could hide it) for a
// seed of those keys (bytes or base64url), its expanded key's K, or a view of
// the package's WebAssembly memory; each find is attributed to the file of
// the code that called the built-in. Then the Node pool of mldsa-simd/worker
// starts and runs with the spies in place (keygen, sign with a secret key, a
// key moved, a prepared signer used, freed, and one dropped, close), with
// spies also on what carries messages between threads (MessagePort, Worker,
// EventEmitter and EventTarget methods, MessageEvent's data): each find is
// recorded with its phase ('worker' while the pool runs), whatever code
// called the built-in (the worker modules, a library under them, Node's
// internals). The workers' own realms are out of the spies' reach.
// Prints { leaks, hits, workerHits, spied, hooks, collected } as JSON.
import { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const [webcryptoUrl, mainUrl, workerUrl, keysUrl, prehashUrl] = process.argv.slice(2);
const SELF = fileURLToPath(import.meta.url);
Error.stackTraceLimit = 40;

// ---------------------------------------------------------------- before the import
// The WebAssembly instances the package makes (their memories are secret too).
const instances = [];
WebAssembly.Instance = new Proxy(WebAssembly.Instance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    instances.push(instance);
    return instance;
  },
});
const memoryBuffers = () => instances.map((i) => i.exports.memory.buffer);

// What must never reach a spy: { name, bytes } and { name, text }.
const secrets = [];
let busy = false; // set while the harness itself runs: spies then pass straight through
let main;
const addSeed = (seed, what) => {
  const copy = Uint8Array.from(seed);
  secrets.push({ name: `${what} seed`, bytes: copy }, { name: `${what} seed (base64url)`, text: Buffer.from(copy).toString('base64url') });
  // K of the expanded key (FIPS 204 Algorithm 6: bytes 32..63 of sk), for each parameter set.
  for (const set of ['ml_dsa44', 'ml_dsa65', 'ml_dsa87']) secrets.push({ name: `${what} K (${set})`, bytes: main[set].keygen(copy).secretKey.slice(32, 64) });
};

// The seed the package draws for generateKey comes from crypto.getRandomValues:
// recorded here (this wrapper is installed before the import, so it is the
// function the package captures).
const platformRandom = crypto.getRandomValues;
crypto.getRandomValues = function getRandomValues(array) {
  const out = Reflect.apply(platformRandom, crypto, [array]);
  if (array.byteLength === 32) {
    const was = busy;
    busy = true;
    try {
      addSeed(array, 'drawn');
    } finally {
      busy = was;
    }
  }
  return out;
};

const { subtle } = await import(webcryptoUrl);
main = await import(mainUrl);
const { createPool } = await import(workerUrl);
const { importSecretKey, exportSecretKey } = await import(keysUrl);
const { sha256 } = await import(prehashUrl);

// ---------------------------------------------------------------- the spies
const leaks = new Map(); // "hook | caller | what | phase" -> count
const hits = {};
let workerHits = 0; // spy calls while the pool runs

let phase = 'main'; // 'worker' while the pool runs
// With --enable-source-maps, the package's frames name its sources.
const sourceOf = (file) => /\/(?:js|src)\/([\w-]+\.js)$/.exec(file)?.[1];
const isWorkerModule = (file) => /^worker-[\w-]+\.js$/.test(sourceOf(file) ?? '');
// Another package's file (a library the package would use): its name.
const libraryOf = (file) => /\/node_modules\/((?:@[\w.-]+\/)?[\w.-]+)\//.exec(file ?? '')?.[1];

/**
 * The package file (or 'test', 'node', a library's name, …) of the code that
 * called the spy; `worker (file)` when a module of mldsa-simd/worker is on
 * the stack (the readers of js/args.js are shared with the main API).
 */
function caller() {
  const files = [];
  for (const line of new Error().stack.split('\n').slice(1)) {
    if (/ (\S+\.)?(record|caller|spied\w*)( \[as [^\]]+\])? \(/.test(line)) continue; // the spies' frames (spies call spies)
    const m = /\(?((?:file|node):[^)]*?|\/[^)]*?):\d+:\d+\)?$/.exec(line.trim());
    if (m) files.push(m[1]); // (else a built-in's frame: <anonymous>, native)
  }
  const file = files[0];
  if (file === undefined) return phase === 'worker' ? 'unknown (worker phase)' : 'unknown';
  if (file.includes(SELF)) return 'test';
  const source = sourceOf(file);
  if (source && files.some(isWorkerModule)) return `worker (${source})`;
  if (source) return source === 'webcrypto.js' ? 'webcrypto' : `main (${source})`;
  if (/\/webcrypto[.\w-]*\.[cm]?js$/.test(file)) return 'webcrypto';
  if (/\/(index|keys)[.\w-]*\.[cm]?js$/.test(file)) return 'main';
  if (libraryOf(file)) return libraryOf(file);
  if (file.startsWith('node:')) {
    // Node's internals, on behalf of the first code of a package under them.
    const above = files.find((f) => !f.startsWith('node:'));
    if (above && !sourceOf(above) && libraryOf(above)) return `${libraryOf(above)} (node internals)`;
    if (above && isWorkerModule(above)) return `worker (node internals, from ${sourceOf(above)})`;
    return phase === 'worker' ? 'node (worker phase)' : 'node';
  }
  return file;
}

/** What secret `value` holds or reaches (walked a few levels), or undefined. */
function find(value, depth = 0, seen = new Set()) {
  if (typeof value === 'string') return secrets.find((s) => s.text && value.includes(s.text))?.name;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) return undefined;
  seen.add(value);
  let bytes;
  try {
    if (ArrayBuffer.isView(value)) bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    else if (value instanceof ArrayBuffer || value instanceof SharedArrayBuffer) bytes = Buffer.from(value);
  } catch {
    return undefined; // a detached buffer
  }
  if (value instanceof WebAssembly.Memory && instances.some((i) => i.exports.memory === value)) return 'the WebAssembly memory';
  if (bytes) {
    if (memoryBuffers().includes(bytes.buffer)) return 'a view of the WebAssembly memory';
    return secrets.find((s) => s.bytes && bytes.indexOf(s.bytes) >= 0)?.name;
  }
  if (depth >= 5) return undefined;
  for (const key of Reflect.ownKeys(value)) {
    const d = Reflect.getOwnPropertyDescriptor(value, key);
    const found = d && 'value' in d ? find(d.value, depth + 1, seen) : undefined;
    if (found) return found;
  }
  return undefined;
}

function record(hook, values) {
  busy = true;
  try {
    hits[hook] = (hits[hook] ?? 0) + 1;
    if (phase === 'worker') workerHits++;
    const what = find(values);
    if (what) {
      const key = `${hook} | ${caller()} | ${what} | ${phase}`;
      leaks.set(key, (leaks.get(key) ?? 0) + 1);
    }
  } finally {
    busy = false;
  }
}

const restores = [];
const spied = [];
const { apply, construct, defineProperty, getOwnPropertyDescriptor, ownKeys } = Reflect;
const label = (owner, key) => `${owner}.${typeof key === 'symbol' ? `[${key.description}]` : key}`;

/** Replaces a method (value) or accessor (get/set) of `object` with a recording spy. */
function spy(object, owner, key) {
  const d = getOwnPropertyDescriptor(object, key);
  if (!d || !d.configurable) return;
  const name = label(owner, key);
  const next = { ...d };
  if (typeof d.value === 'function' && key !== 'constructor') {
    const original = d.value;
    next.value = function spied(...args) {
      if (busy) return new.target ? construct(original, args, new.target) : apply(original, this, args);
      record(name, [this, args]);
      const result = new.target ? construct(original, args, new.target) : apply(original, this, args);
      record(`${name} (result)`, [result]);
      return result;
    };
  } else if (d.get || d.set) {
    if (d.get) {
      const get = d.get;
      next.get = function spiedGet() {
        if (busy) return apply(get, this, []);
        record(name, [this]);
        const result = apply(get, this, []);
        record(`${name} (result)`, [result]);
        return result;
      };
    }
    if (d.set) {
      const set = d.set;
      next.set = function spiedSet(v) {
        if (!busy) record(`${name} (set)`, [this, v]);
        return apply(set, this, [v]);
      };
    }
  } else return;
  defineProperty(object, key, next);
  restores.push(() => defineProperty(object, key, d));
  spied.push(name);
}

/** An accessor where a data property (or nothing) was: reading it records its receiver. */
function spyLookup(object, owner, key) {
  const d = getOwnPropertyDescriptor(object, key);
  if (d && !d.configurable) return;
  const name = `${label(owner, key)} (lookup)`;
  defineProperty(object, key, {
    configurable: true,
    get: function spiedLookup() {
      if (!busy) record(name, [this]);
      return d?.value;
    },
    set: function spiedStore(v) {
      if (!busy) record(`${name} (set)`, [this, v]);
      defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
    },
  });
  restores.push(() => (d ? defineProperty(object, key, d) : delete object[key]));
}

const everything = (object) => ownKeys(object).filter((k) => k !== 'constructor');
const TypedArray = Object.getPrototypeOf(Uint8Array);
const ArrayIterator = Object.getPrototypeOf([][Symbol.iterator]());
const MapIterator = Object.getPrototypeOf(new Map()[Symbol.iterator]());
const SetIterator = Object.getPrototypeOf(new Set()[Symbol.iterator]());
const targets = [
  [WeakMap.prototype, 'WeakMap.prototype', ['get', 'set', 'has', 'delete']],
  [WeakSet.prototype, 'WeakSet.prototype', ['add', 'has', 'delete']],
  [WeakRef.prototype, 'WeakRef.prototype', ['deref']],
  [FinalizationRegistry.prototype, 'FinalizationRegistry.prototype', ['register', 'unregister']],
  [Map.prototype, 'Map.prototype', ['get', 'set', 'has', 'delete', 'forEach', 'keys', 'values', 'entries', Symbol.iterator]],
  [Set.prototype, 'Set.prototype', ['add', 'has', 'delete', 'forEach', 'values', Symbol.iterator]],
  [MapIterator, '%MapIteratorPrototype%', ['next']],
  [SetIterator, '%SetIteratorPrototype%', ['next']],
  [TypedArray.prototype, '%TypedArray%.prototype', everything(TypedArray.prototype)],
  [TypedArray, '%TypedArray%', ['from', 'of', Symbol.species]],
  [Uint8Array.prototype, 'Uint8Array.prototype', everything(Uint8Array.prototype).filter((k) => k !== 'BYTES_PER_ELEMENT')],
  [Uint8Array, 'Uint8Array', ownKeys(Uint8Array).filter((k) => typeof Uint8Array[k] === 'function')],
  [ArrayBuffer.prototype, 'ArrayBuffer.prototype', everything(ArrayBuffer.prototype)],
  [ArrayBuffer, 'ArrayBuffer', ['isView', Symbol.species]],
  [SharedArrayBuffer.prototype, 'SharedArrayBuffer.prototype', everything(SharedArrayBuffer.prototype)],
  [DataView.prototype, 'DataView.prototype', everything(DataView.prototype)],
  [Array.prototype, 'Array.prototype', everything(Array.prototype)],
  [Array, 'Array', ['isArray', 'from', 'of', Symbol.species]],
  [ArrayIterator, '%ArrayIteratorPrototype%', ['next']],
  [Function.prototype, 'Function.prototype', ['apply', 'call', 'bind']],
  [Reflect, 'Reflect', ownKeys(Reflect).filter((k) => typeof Reflect[k] === 'function')],
  [Object, 'Object', ownKeys(Object).filter((k) => typeof Object[k] === 'function')],
  [Object.prototype, 'Object.prototype', ['hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toString', 'toLocaleString', 'valueOf']],
  [String.prototype, 'String.prototype', everything(String.prototype)],
  [TextEncoder.prototype, 'TextEncoder.prototype', ['encode', 'encodeInto']],
  [TextDecoder.prototype, 'TextDecoder.prototype', ['decode']],
  [JSON, 'JSON', ['stringify', 'parse']],
  [Promise.prototype, 'Promise.prototype', ['then', 'catch', 'finally']],
  [Promise, 'Promise', ['resolve', 'reject', 'all', 'allSettled', 'race', 'any']],
  [WebAssembly.Memory.prototype, 'WebAssembly.Memory.prototype', ['buffer', 'grow']],
  // Read when an instance is replaced after a failed call (forced below).
  [WebAssembly.Instance.prototype, 'WebAssembly.Instance.prototype', ['exports']],
  [WebAssembly.Table.prototype, 'WebAssembly.Table.prototype', ['get', 'set', 'grow']],
  [WebAssembly, 'WebAssembly', ['Module', 'Instance', 'validate', 'compile', 'instantiate']],
  [Symbol, 'Symbol', ['for']],
  // What carries tasks and results between threads: posting, listening and dispatching.
  [MessagePort.prototype, 'MessagePort.prototype', everything(MessagePort.prototype)],
  [Object.getPrototypeOf(MessagePort.prototype), 'NodeEventTarget.prototype', everything(Object.getPrototypeOf(MessagePort.prototype))],
  [EventTarget.prototype, 'EventTarget.prototype', ['addEventListener', 'removeEventListener', 'dispatchEvent']],
  [MessageEvent.prototype, 'MessageEvent.prototype', ['data', 'ports']],
  [Worker.prototype, 'Worker.prototype', everything(Worker.prototype)],
  [EventEmitter.prototype, 'EventEmitter.prototype', ['emit', 'on', 'once', 'addListener', 'prependListener', 'off', 'removeListener']],
  [BroadcastChannel.prototype, 'BroadcastChannel.prototype', ['postMessage']],
  [globalThis, 'globalThis', ['structuredClone', 'queueMicrotask']],
];
// Properties a read would miss on a key state or key material (and so find on
// Object.prototype), and the lookups a species constructor makes.
const LOOKUPS = [
  // (Not the names a property descriptor or an options bag is read for: get, set, value, cause, …)
  [
    Object.prototype,
    'Object.prototype',
    [
      'then',
      'seed',
      'secretKey',
      'publicKey',
      'prepared',
      'priv',
      'pub',
      'kty',
      'alg',
      'use',
      'key_ops',
      'ext',
      'context',
      'object',
      'extraEntropy',
      'bytes',
      'args',
      'tasks',
      'error',
      'lost',
    ],
  ],
  [Uint8Array.prototype, 'Uint8Array.prototype', ['constructor']],
  [ArrayBuffer.prototype, 'ArrayBuffer.prototype', ['constructor']],
  // (Indices too: storing to a missing element, or reading one, consults the prototypes.)
  [Array.prototype, 'Array.prototype', ['constructor', '0', '1', '2', '3']],
];

// ---------------------------------------------------------------- the run
// Three seeds chosen here (each imported in one format), known before the spies go live.
const chosen = [1, 2, 3].map((n) => Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + n * 71) & 255));
chosen.forEach((seed, i) => addSeed(seed, `imported #${i + 1}`));
// The worker pool's: a seed for keygen, one for prepared signers, and signing randomness.
const [poolSeed, signerSeed, signerSeed2] = [4, 5, 6].map((n) => Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + n * 71) & 255));
addSeed(poolSeed, 'pool keygen');
addSeed(signerSeed, 'pool signer');
addSeed(signerSeed2, 'pool signer (dropped)');
const rnd = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 5) & 255);
secrets.push({ name: 'rnd', bytes: rnd.slice() });
const pkcs8 = exportSecretKey(main.ml_dsa44, chosen[0], 'pkcs8');
const jwk = exportSecretKey(main.ml_dsa87, chosen[2], 'jwk');
const message = new TextEncoder().encode('hooked');
// The main API with the same keys: a secret key, and its formats, made before the spies.
const secretKey65 = main.ml_dsa65.keygen(chosen[1]).secretKey;
const pem44 = exportSecretKey(main.ml_dsa44, chosen[0], 'pem', { form: 'both' });
// Counts the dropped private keys (a WeakRef's deref() would keep a live one alive).
let dropped = 0;
const drops = new FinalizationRegistry(() => dropped++);

for (const [object, owner, keys] of targets) for (const key of keys) spy(object, owner, key);
for (const [object, owner, keys] of LOOKUPS) for (const key of keys) spyLookup(object, owner, key);
try {
  await (async () => {
    const pairs = [];
    const generated = await subtle.generateKey('ML-DSA-65', false, ['sign', 'verify']);
    pairs.push(['ML-DSA-65', generated.privateKey, generated.publicKey]);
    const imported = [
      ['ML-DSA-44', await subtle.importKey('pkcs8', pkcs8, 'ML-DSA-44', false, ['sign'])],
      ['ML-DSA-65', await subtle.importKey('raw-seed', chosen[1], { name: 'ML-DSA-65' }, false, ['sign'])],
      ['ML-DSA-87', await subtle.importKey('jwk', jwk, 'ML-DSA-87', false, ['sign'])],
    ];
    for (const [name, key] of imported) pairs.push([name, key, await subtle.getPublicKey(key, ['verify'])]);
    for (const [name, privateKey, publicKey] of pairs) {
      const algorithm = { name, context: Uint8Array.of(1, 2, 3) };
      for (let i = 0; i < 2; i++) {
        const signature = await subtle.sign(algorithm, privateKey, message);
        if (!(await subtle.verify(algorithm, publicKey, signature, message))) throw new Error(`${name}: a signature did not verify`);
      }
      await subtle.exportKey('spki', publicKey);
      await subtle.exportKey('pkcs8', privateKey).then(
        () => {
          throw new Error('a non-extractable key was exported');
        },
        () => {},
      );
      void [privateKey.type, privateKey.extractable, privateKey.algorithm, privateKey.usages];
      busy = true;
      drops.register(privateKey, undefined);
      busy = false;
    }
    // The main API: prepared signers from a seed and from a secret key, one-shot,
    // streamed and pre-hashed signing (mldsa-simd/prehash's sha256, code outside
    // the main entry: the package then re-checks its views), and every
    // private-key import and export (mldsa-simd/keys, whose frames count as the
    // main API's: 'main (keys.js)').
    const P = main.ml_dsa65;
    const signers = [P.signer(chosen[1]), P.signer(secretKey65)];
    for (const s of signers) s.sign(message, { context: Uint8Array.of(1) });
    signers[0].free();
    P.sign(message, secretKey65);
    P.createSign(chosen[1]).update(message).sign();
    P.prehash(sha256).sign(message, secretKey65);
    P.internal.sign(new Uint8Array(64), secretKey65, { externalMu: true });
    importSecretKey(main.ml_dsa44, pkcs8, 'pkcs8');
    importSecretKey(main.ml_dsa44, pem44, 'pem');
    importSecretKey(main.ml_dsa87, jwk, 'jwk');
    importSecretKey(P, chosen[1], 'raw-seed');
    importSecretKey(P, secretKey65, 'raw');
    exportSecretKey(main.ml_dsa44, chosen[0], 'pem');
    // A call that fails inside the instance (a trap: every page up to 4 GiB is
    // taken from outside, so the next allocation fails), so that the instance
    // is wiped and replaced with the spies live; then a signer made before is
    // made again in the new instance and signs.
    busy = true;
    const memory = instances.at(-1).exports.memory;
    memory.grow(65536 - memory.buffer.byteLength / 65536);
    busy = false;
    let replaced = false;
    const held = []; // each new signer takes a slot of 72 KiB until the heap must grow
    for (let i = 0; i < 200 && !replaced; i++) {
      try {
        held[i] = P.signer(chosen[1]);
      } catch (e) {
        replaced = /has been replaced/.test(e.message);
      }
    }
    if (!replaced) throw new Error('the forced trap did not replace the instance');
    signers[1].sign(message);
  })();
  // Every key is dropped now: collect them, and let the finalizers run.
  for (let i = 0; i < 20 && dropped < 4; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // The Node pool of mldsa-simd/worker: every kind of call that carries a secret.
  phase = 'worker';
  await (async () => {
    const pool = createPool({ size: 1 });
    const P = pool.ml_dsa65;
    const signature = await P.sign(message, secretKey65, { extraEntropy: rnd });
    if (!main.ml_dsa65.verify(signature, message, main.ml_dsa65.keygen(chosen[1]).publicKey)) throw new Error('the pool signed wrongly');
    // A key moved to the worker ({ transfer: true }: the caller's buffer is detached).
    busy = true;
    const mine = secretKey65.slice();
    const text = message.slice();
    busy = false;
    await P.sign(text, mine, { transfer: true });
    if (mine.byteLength !== 0) throw new Error('the key was not moved');
    await P.keygen(poolSeed);
    const signer = await P.signer(signerSeed);
    await signer.sign(message);
    await signer.sign(message, { extraEntropy: rnd, context: Uint8Array.of(7) });
    signer.free();
    // A signer dropped without free(): the pool's finalizer wipes its bytes.
    await (async () => {
      const lost = await P.signer(signerSeed2);
      await lost.sign(message);
      busy = true;
      drops.register(lost, undefined);
      busy = false;
    })();
    for (let i = 0; i < 20 && dropped < 5; i++) {
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await pool.close();
  })();
} finally {
  busy = true;
  for (const restore of restores.reverse()) restore();
}
const out = {
  leaks: [...leaks].map(([key, count]) => {
    const [hook, from, what, during] = key.split(' | ');
    return { hook, caller: from, what, phase: during, count };
  }),
  hits,
  workerHits,
  spied,
  hooks: restores.length,
  collected: dropped === 5,
};
process.stdout.write(JSON.stringify(out));
