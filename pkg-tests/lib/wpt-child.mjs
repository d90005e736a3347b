// One WPT file in a fresh Node process (lib/wpt.mjs starts it): optionally
// hides the platform's own ML-DSA first (as a browser without it would be),
// imports mldsa-simd/webcrypto and calls install() (unless the mode is
// 'none', the platform alone), then runs lib/testharness.js, the file's META
// scripts and the file itself as classic scripts in this global scope, and
// prints { installed, results, harnessErrors } as JSON.
//
// argv[2]: JSON { mode: 'install' | 'force' | 'none', hideNative, moduleUrl, harness, scripts: [paths] }
import fs from 'node:fs';
import vm from 'node:vm';

const cfg = JSON.parse(process.argv[2]);

const ML_DSA = /^ml-dsa-(44|65|87)$/i;
/** Whether an AlgorithmIdentifier names ML-DSA (its name read once, as a platform reads it). */
function namesMlDsa(algorithm) {
  let name = algorithm;
  if (algorithm !== null && typeof algorithm === 'object') {
    try {
      name = algorithm.name;
    } catch {
      return false;
    }
  }
  return typeof name === 'string' && ML_DSA.test(name);
}

/**
 * The platform's crypto.subtle as in a browser without ML-DSA: its methods
 * refuse ML-DSA algorithms (and keys) with a NotSupportedError, and
 * SubtleCrypto.supports says false for them. Done before mldsa-simd/webcrypto
 * loads, so that it takes these methods for the platform's.
 */
function hideNativeMlDsa() {
  const proto = SubtleCrypto.prototype;
  const refuse = (method) => Promise.reject(new DOMException(`${method}: ML-DSA is not supported`, 'NotSupportedError'));
  const keyIsMlDsa = (key) => {
    try {
      return ML_DSA.test(key.algorithm.name);
    } catch {
      return false;
    }
  };
  const byAlgorithmAt = { generateKey: 0, importKey: 2, sign: 0, verify: 0 };
  for (const [method, at] of Object.entries(byAlgorithmAt)) {
    const original = proto[method];
    Object.defineProperty(proto, method, {
      value: function (...args) {
        return namesMlDsa(args[at]) ? refuse(method) : Reflect.apply(original, this, args);
      },
      writable: true,
      configurable: true,
      enumerable: true,
    });
  }
  for (const [method, at] of Object.entries({ exportKey: 1, getPublicKey: 0 })) {
    const original = proto[method];
    if (typeof original !== 'function') continue;
    Object.defineProperty(proto, method, {
      value: function (...args) {
        return keyIsMlDsa(args[at]) ? refuse(method) : Reflect.apply(original, this, args);
      },
      writable: true,
      configurable: true,
      enumerable: true,
    });
  }
  const supports = SubtleCrypto.supports;
  if (typeof supports === 'function') {
    Object.defineProperty(SubtleCrypto, 'supports', {
      value: function supports_(operation, algorithm, lengthOrAdditional) {
        return namesMlDsa(algorithm) ? false : Reflect.apply(supports, SubtleCrypto, [operation, algorithm, lengthOrAdditional]);
      },
      writable: true,
      configurable: true,
    });
  }
}

/**
 * ArrayBuffer.prototype.transfer, where the platform lacks it (Node 20):
 * the WPT files detach buffers with it. A copy, and the original detached.
 */
function transferPolyfill() {
  if (typeof ArrayBuffer.prototype.transfer === 'function') return;
  Object.defineProperty(ArrayBuffer.prototype, 'transfer', {
    value: function transfer() {
      const copy = this.slice(0);
      structuredClone(this, { transfer: [this] });
      return copy;
    },
    writable: true,
    configurable: true,
  });
}

if (cfg.hideNative) hideNativeMlDsa();
let installed = null;
if (cfg.mode !== 'none') {
  const { install } = await import(cfg.moduleUrl);
  installed = await install(cfg.mode === 'force' ? { force: true } : undefined);
}
globalThis.self ??= globalThis;
globalThis.location ??= { href: 'http://127.0.0.1/', search: '', hash: '' };
transferPolyfill();

vm.runInThisContext(fs.readFileSync(cfg.harness, 'utf8'), { filename: cfg.harness });
process.on('unhandledRejection', (e) => globalThis.__wpt.harnessError(e));
for (const file of cfg.scripts) {
  try {
    vm.runInThisContext(fs.readFileSync(file, 'utf8'), { filename: file });
  } catch (e) {
    globalThis.__wpt.harnessError(e);
  }
}
const out = await globalThis.__wpt.complete();
// Exits once the result is written: a pipe takes a large one in several writes.
process.stdout.write(JSON.stringify({ installed, ...out }), () => process.exit(0));
