/**
 * The life of a prepared key (signer(), verifier()): the package's own copy
 * of the key bytes, the handle of its expanded key in the instance's bounded
 * pool (src/bindings/wasm/prepared.rs), made again when the pool evicted it or the
 * instance was replaced, and freed by free(), [Symbol.dispose] or, for a key
 * dropped without them, a FinalizationRegistry. The caches that keep prepared
 * objects beyond a call (mldsa-simd/webcrypto, the worker tasks) follow one
 * policy, ./key-cache.js, bounded by the same pool.
 * @module
 */
import { apply, u8Fill, freeze, FR, register, unregister, wasm, liveGeneration } from './boundary.js';

// What a prepared key's finalizer needs: its handle in the instance of its
// generation, and its key bytes, wiped when it is dropped (secret keys).
// Frees the wasm slot of keys dropped without free(); the pool's bound holds
// either way. (A handle is only ever given to the instance it was made in.)
const finalizer =
  typeof FR === 'function'
    ? new FR((state) => {
        if (state.generation !== -1 && state.generation === liveGeneration()) wasm.prepared_free(state.handle);
        if (state.secret) apply(u8Fill, state.bytes, [0]);
      })
    : undefined;
const disposeSymbol = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('Symbol.dispose');

/**
 * A prepared key: `bytes` (the package's own copy of the key), expanded into
 * the pool by `make(bytes)`, which returns a handle; `methods(handle)` gives
 * its methods, where `handle()` is a live handle in the current instance,
 * the key expanded again if the pool evicted it or the instance was replaced
 * after a failure (or an Error after free()). The object, with free() and
 * [Symbol.dispose], is made and registered with the finalizer before the key
 * is expanded, and nothing but assignments follows the expansion: a failure
 * at any point (a caller deep in recursion runs out of stack anywhere) leaves
 * no expanded key in the pool that no object or finalizer will free.
 */
function prepared(what, bytes, secret, make, methods) {
  const state = { __proto__: null, bytes, secret, generation: -1, handle: undefined, freed: false };
  const handle = () => {
    if (state.freed) throw new Error(`${what}: used after free()`);
    const now = liveGeneration();
    if (state.generation !== now || !wasm.prepared_live(state.handle)) {
      state.generation = -1;
      state.handle = make(bytes);
      state.generation = now;
    }
    return state.handle;
  };
  const object = freeze({
    ...methods(handle),
    free() {
      if (state.freed) return;
      // Freed in wasm first (a failure there replaces the instance), and only
      // then marked freed: a free() that fails part-way can be called again.
      if (state.generation !== -1 && state.generation === liveGeneration()) wasm.prepared_free(state.handle);
      state.freed = true;
      unregister(finalizer, object);
      if (secret) apply(u8Fill, bytes, [0]);
    },
    [disposeSymbol]() {
      object.free();
    },
  });
  register(finalizer, object, state);
  try {
    handle();
  } catch (e) {
    state.freed = true;
    unregister(finalizer, object);
    if (secret) apply(u8Fill, bytes, [0]);
    throw e;
  }
  return object;
}

export { prepared };
