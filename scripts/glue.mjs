// The wasm-bindgen glue (build/wasm/mldsa_simd.js) as the package ships it:
// scripts/build.mjs passes the generated text through `harden`, which
//
//   1. makes it call no built-in that a script could replace after the
//      package loaded. The glue copies seeds and keys into linear memory and
//      results out of it, and the memory holds every live prepared signer's
//      expanded key: a replaced %TypedArray%.prototype.set, subarray, slice or
//      length getter (or the Uint8Array constructor that subarray and slice
//      look up), WebAssembly.Memory's buffer getter, TextDecoder's decode or
//      Function.prototype.apply would be handed a secret or the memory itself.
//      So would a replaced WebAssembly.Instance, which is handed the imports
//      (they read and write memory) when an instance is replaced.
//      Each is captured when the glue loads and called through Reflect.apply;
//      views of memory are made with `new Uint8Array(buffer, offset, length)`,
//      copies with `new Uint8Array(view)`, which consult nothing replaceable.
//   2. adds `memoryBuffer` (js/boundary.js copies arguments in and results
//      out through it: the exports take and return numbers only), and
//      `wipeMemory` and `reinstantiate`: after a failed call the memory of the
//      instance is wiped and a fresh instance of the same module made.
//
// Each rewrite names the exact text of the wasm-bindgen version pinned in
// Cargo.lock and fails when it is not there; afterwards the code of the glue
// that the package uses may hold no method call or accessor of those kinds
// (the async loader, which bundlers drop, is left out of that check).

const PRELUDE = `// Added by scripts/build.mjs (scripts/glue.mjs): built-ins captured at load.
const __apply = Reflect.apply;
const __U8 = Uint8Array;
const __ta = Object.getPrototypeOf(__U8.prototype);
const __getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const __taByteLength = __getter(__ta, 'byteLength');
const __u8Fill = __ta.fill;
// Where WebAssembly is disabled there is none: the glue still loads (and
// js/boundary.js says why the package cannot run at its first call).
const __WebAssembly = globalThis.WebAssembly;
const __memoryBufferGet = __WebAssembly && __getter(__WebAssembly.Memory.prototype, 'buffer');
const __tableSet = __WebAssembly && __WebAssembly.Table.prototype.set;
const __Error = Error;
// A replaced WebAssembly.Instance would be handed the imports, which read and
// write linear memory (and so every live prepared signer's key).
const __Instance = __WebAssembly && __WebAssembly.Instance;
// Making an instance reads its exports (a getter a script could replace:
// it would be handed the memory and every export) and may compile a module.
const __Module = __WebAssembly && __WebAssembly.Module;
const __exportsGet = __WebAssembly && __getter(__WebAssembly.Instance.prototype, 'exports');
const __getPrototypeOf = Object.getPrototypeOf;
const __ObjectPrototype = Object.prototype;
const __memoryBuffer = () => __apply(__memoryBufferGet, wasm.memory, []);
`;

// [what, generated text, hardened text]
const REWRITES = [
  // No export draws randomness inside wasm (JavaScript passes every seed and
  // rnd in), so the getrandom import refuses: no code of the caller's can run
  // inside a call into wasm through it.
  ['no randomness drawn inside wasm', `        __wbg_getRandomValues_5d8c030b527203a6: function() { return handleError(function (arg0, arg1) {
            globalThis.crypto.getRandomValues(getArrayU8FromWasm0(arg0, arg1));
        }, arguments); },`, `        __wbg_getRandomValues_5d8c030b527203a6: function() { return handleError(function () {
            throw __Error('mldsa-simd: no randomness is drawn inside wasm');
        }, arguments); },`],
  ['externref table', `        __wbindgen_init_externref_table: function() {
            const table = wasm.__wbindgen_externrefs;
            table.set(0, undefined);
            table.set(1024, undefined);
            table.set(1025, null);
            table.set(1026, true);
            table.set(1027, false);
        },`, `        __wbindgen_init_externref_table: function() {
            const table = wasm.__wbindgen_externrefs;
            __apply(__tableSet, table, [0, undefined]);
            __apply(__tableSet, table, [1024, undefined]);
            __apply(__tableSet, table, [1025, null]);
            __apply(__tableSet, table, [1026, true]);
            __apply(__tableSet, table, [1027, false]);
        },`],
  ['externref table add', `function addToExternrefTable0(obj) {
    const idx = wasm.__externref_table_alloc();
    wasm.__wbindgen_externrefs.set(idx, obj);
    return idx;
}`, `function addToExternrefTable0(obj) {
    const idx = wasm.__externref_table_alloc();
    __apply(__tableSet, wasm.__wbindgen_externrefs, [idx, obj]);
    return idx;
}`],
  ['views of memory', `function getArrayU8FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getUint8ArrayMemory0().subarray(ptr / 1, ptr / 1 + len);
}

let cachedUint8ArrayMemory0 = null;
function getUint8ArrayMemory0() {
    if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {
        cachedUint8ArrayMemory0 = new Uint8Array(wasm.memory.buffer);
    }
    return cachedUint8ArrayMemory0;
}

function handleError(f, args) {
    try {
        return f.apply(this, args);
    } catch (e) {`, `function getArrayU8FromWasm0(ptr, len) {
    return new __U8(__memoryBuffer(), ptr >>> 0, len);
}

let cachedUint8ArrayMemory0 = null;
function getUint8ArrayMemory0() {
    if (cachedUint8ArrayMemory0 === null || __apply(__taByteLength, cachedUint8ArrayMemory0, []) === 0) {
        cachedUint8ArrayMemory0 = new __U8(__memoryBuffer());
    }
    return cachedUint8ArrayMemory0;
}

function handleError(f, args) {
    try {
        return __apply(f, this, args);
    } catch (e) {`],
  ['the exports read through the getter captured at load', `function __wbg_finalize_init(instance, module) {
    wasmInstance = instance;
    wasm = instance.exports;`, `function __wbg_finalize_init(instance, module) {
    wasmInstance = instance;
    wasm = __apply(__exportsGet, instance, []);`],
  ['the instance made with the built-ins captured at load', `        if (Object.getPrototypeOf(module) === Object.prototype) {
            ({module} = module)
        } else {
            console.warn('using deprecated parameters for \`initSync()\`; pass a single object instead')
        }
    }

    const imports = __wbg_get_imports();
    if (!(module instanceof WebAssembly.Module)) {
        module = new WebAssembly.Module(module);
    }
    const instance = new WebAssembly.Instance(module, imports);
    return __wbg_finalize_init(instance, module);`, `        if (__getPrototypeOf(module) === __ObjectPrototype) {
            ({module} = module)
        }
    }

    const imports = __wbg_get_imports();
    if (!(module instanceof __Module)) {
        module = new __Module(module);
    }
    const instance = new __Instance(module, imports);
    return __wbg_finalize_init(instance, module);`],
];


const EPILOGUE = `
// Added by scripts/build.mjs (scripts/glue.mjs): the instance's memory, read
// through the getter captured at load; after a failed call, the instance's
// memory is wiped, then a fresh instance of the same module made.
export function memoryBuffer() {
    return __memoryBuffer();
}
export function wipeMemory() {
    if (wasm !== undefined) __apply(__u8Fill, new __U8(__memoryBuffer()), [0]);
}
export function reinstantiate(module) {
    wipeMemory();
    wasm = undefined;
    cachedUint8ArrayMemory0 = null;
    return initSync({ module });
}
`;

/** The hardened glue, or throws naming what of the generated glue it did not find. */
export function harden(glue) {
  let out = glue;
  for (const [what, from, to] of REWRITES) {
    const found = typeof from === 'string' ? out.includes(from) : from.test(out);
    if (!found) throw new Error(`the generated glue changed (${what}: its text is not there); update scripts/glue.mjs`);
    out = out.replace(from, to);
  }
  for (const needed of ['let wasmModule, wasmInstance, wasm;', 'function initSync(module) {']) {
    if (!out.includes(needed)) throw new Error(`the generated glue has no "${needed}"; update scripts/glue.mjs`);
  }
  // What is left of the glue that the package runs (the prelude, which
  // captures the built-ins at load, aside): no call of a replaceable method or
  // accessor on a view, a buffer, the memory, a table or an instance, and no
  // global looked up after load.
  const used = out.slice(0, out.indexOf('async function __wbg_load(')) + out.slice(out.indexOf('function initSync(module) {'), out.indexOf('let __wbg_init_promise;')) + EPILOGUE;
  out = PRELUDE + out + EPILOGUE;
  const code = used.replace(/^\s*(\/\/|\/?\*).*$/gm, '');
  const bad = code.match(/\.(set|subarray|slice|fill|apply|call|decode|encode|encodeInto|get)\(|\.(buffer|byteLength|byteOffset|length|exports)\b|\bWebAssembly\.|\bObject\.|\bconsole\.|\bnew (TextDecoder|TextEncoder|Uint8Array)\b/g);
  if (bad) throw new Error(`the hardened glue still calls ${[...new Set(bad)].join(', ')} on a value a script could have replaced the method of; update scripts/glue.mjs`);
  return out;
}
