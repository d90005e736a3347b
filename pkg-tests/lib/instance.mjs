// A fresh copy of the installed package whose WebAssembly instances the test can
// see: WebAssembly.Instance is wrapped (for this process) so that every instance
// the package makes, including the ones that replace a trapped instance, is
// recorded. The package itself exposes no memory; only tests look inside.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installedPackageDir } from './load.mjs';

const made = [];
const Original = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(Original, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    made.push(instance);
    return instance;
  },
});

/**
 * Imports the installed package's ESM entry for Node (index.node.mjs, which
 * `import 'mldsa-simd'` gives in Node: it hashes long messages with
 * node:crypto) as a new module (its own wasm instance, apart from the one
 * lib/load.mjs shares). Returns the library,
 * `keys` (mldsa-simd/keys on that copy: see watchedKeys) and `memory()`, the
 * linear memory of its current instance.
 */
export async function importWatched(tag) {
  const url = pathToFileURL(path.join(installedPackageDir(), 'index.node.mjs')).href + `?watched=${tag}`;
  const lib = await import(url);
  const instances = () => made.filter((i) => typeof i.exports.prepare_signer === 'function');
  if (instances().length === 0) throw new Error('no mldsa-simd instance was recorded');
  return { lib, keys: await watchedKeys(url), instances, memory: () => instances().at(-1).exports.memory };
}

/**
 * A new copy of the installed keys.node.mjs whose import of the main entry is the
 * copy at `mainUrl`: keys.mjs is plain JavaScript that takes the parameter-set
 * objects of the main entry it imports (recognised by identity), so the
 * watched copy's objects need a keys module of their own.
 */
async function watchedKeys(mainUrl) {
  const code = fs.readFileSync(path.join(installedPackageDir(), 'keys.node.mjs'), 'utf8');
  const rewired = code.replace(/\bfrom\s*"\.\/index\.node\.mjs"/, `from${JSON.stringify(mainUrl)}`);
  if (rewired === code) throw new Error('keys.node.mjs does not import "./index.node.mjs" as expected');
  return import(`data:text/javascript;base64,${Buffer.from(rewired).toString('base64')}`);
}

/** Lets go of every recorded instance but the newest of the package (so that replaced ones can be collected). */
export function forgetReplaced() {
  const ours = made.filter((i) => typeof i.exports.prepare_signer === 'function');
  const keep = new Set([ours.at(-1)]);
  for (let i = made.length - 1; i >= 0; i--) if (ours.includes(made[i]) && !keep.has(made[i])) made.splice(i, 1);
}

/** Lets go of every recorded instance (for a test that imports many copies). */
export function forgetAll() {
  made.length = 0;
}

/** Every offset at which `needle` occurs in `haystack` (both Uint8Array). */
export function occurrences(haystack, needle) {
  const hay = Buffer.from(haystack.buffer, haystack.byteOffset, haystack.byteLength);
  const out = [];
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}
