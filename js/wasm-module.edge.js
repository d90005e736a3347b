/**
 * compileModule() (as in ./wasm-module.js) for workerd (Cloudflare Workers)
 * and Vercel Edge: there, compiling wasm from bytes is allowed only while the
 * worker starts (workerd) or never (Vercel), so a lazy `import()` of the
 * usual entry would fail. Both runtimes (and Wrangler, and Next.js) turn an
 * import of a .wasm file into a WebAssembly.Module compiled ahead of time.
 * scripts/build.mjs resolves the specifier below to `./mldsa_simd.wasm`
 * (workerd) or `./mldsa_simd.wasm?module` (edge-light), next to the entry.
 * @module
 */
import compiled from 'mldsa-simd:wasm-file';

export const compileModule = () => compiled;
