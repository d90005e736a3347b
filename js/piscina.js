/**
 * piscina, for the Node side of mldsa-simd/worker (the pool, js/worker-node.js,
 * and its task module, js/worker-task.js): an optional peer dependency, so
 * that a plain install of mldsa-simd installs nothing else. It is loaded when
 * first needed, not at import, so that importing either module works without
 * it; a pool asked for without it throws an Error that says what to install.
 * @module
 */
import { createRequire } from 'node:module';

let piscina;

/** The piscina module, resolved from this package's folder as a static import would be. */
export function loadPiscina() {
  if (piscina) return piscina;
  try {
    piscina = createRequire(import.meta.url)('piscina');
  } catch (e) {
    // Only piscina itself missing; any other failure (one of its own files or
    // dependencies) is reported as it is.
    if (e?.code === 'MODULE_NOT_FOUND' && /'piscina'/.test(e.message)) {
      throw new Error('mldsa-simd/worker: the Node pool needs piscina: npm install piscina', { cause: e });
    }
    throw e;
  }
  return piscina;
}
