/**
 * The one cache policy of prepared keys, for every part of the package that
 * keeps prepared objects beyond a call (mldsa-simd/webcrypto's signing keys,
 * the worker tasks of mldsa-simd/worker): a map from a name to { object,
 * bytes, secret }, the least recently used entry evicted past PREPARED_SLOTS,
 * the number of slots of the instance's pool of expanded keys
 * (src/bindings/wasm/prepared.rs; build/tables.js has it from the crate). So no cache
 * keeps more prepared objects than one instance can hold expanded, and an
 * evicted entry is freed at once: its object's slot (./prepared.js, `free`)
 * and, for a secret the cache owns, its bytes (wiped). A key used again is
 * prepared again by its owner. Plain JavaScript with no WebAssembly of its
 * own, so that the worker's task module can use it beside its own copy of
 * the main entry; built-ins captured at load, as everywhere a key passes.
 * @module
 */
import { PREPARED_SLOTS } from '../build/tables.js';

const { apply } = Reflect;
const { get: mapGet, set: mapSet, delete: mapDelete, forEach: mapForEach, keys: mapKeys } = Map.prototype;
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get;
const mapIteratorNext = Object.getPrototypeOf(new Map().keys()).next;
const u8Fill = Uint8Array.prototype.fill;

/** A cache of prepared keys under the package's policy; `max` is for tests only. */
export function keyCache(max = PREPARED_SLOTS) {
  const map = new Map(); // name -> { object, bytes, secret }
  const drop = (name) => {
    const entry = apply(mapGet, map, [name]);
    if (!entry) return;
    apply(mapDelete, map, [name]);
    try {
      entry.object.free();
    } finally {
      if (entry.secret) apply(u8Fill, entry.bytes, [0]);
    }
  };
  return {
    /** The entry of `name`, now the most recently used; undefined if there is none. */
    get(name) {
      const entry = apply(mapGet, map, [name]);
      if (entry) {
        apply(mapDelete, map, [name]);
        apply(mapSet, map, [name, entry]);
      }
      return entry;
    },
    /** Keeps `entry` under `name` (freeing what was there), evicting the least recently used past the bound. */
    put(name, entry) {
      drop(name);
      apply(mapSet, map, [name, entry]);
      if (apply(mapSize, map, []) > max) drop(apply(mapIteratorNext, apply(mapKeys, map, []), []).value);
      return entry;
    },
    /** Frees the entry of `name` (and wipes its bytes if they are a secret the cache owns). */
    drop,
    /** The names, least recently used first (a copy: no entry goes with them). */
    names() {
      const out = [];
      apply(mapForEach, map, [(_, name) => (out[out.length] = name)]);
      return out;
    },
  };
}
