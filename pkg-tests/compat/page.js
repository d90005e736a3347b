// The page compat-bundlers.test.mjs builds with each bundler: the probe on the
// page (after the WebCrypto polyfill's install({ force: true }), so that
// crypto.subtle is the package's even where the browser has ML-DSA) and in a
// module Worker built from worker.js; the answers go to globalThis.__compat.
import * as lib from 'mldsa-simd';
import { install, CryptoKey as OurKey } from 'mldsa-simd/webcrypto';
import { probe, platformMlDsa } from './probe.js';

const text = (e) => String((e && e.stack) || e);

async function main() {
  const out = {};
  try {
    const platformHasMlDsa = await platformMlDsa(lib.ml_dsa65); // (before install() replaces crypto.subtle's methods)
    const forced = await install({ force: true });
    out.page = { forced, ...(await probe({ lib, subtle: crypto.subtle, OurKey, platformHasMlDsa })) };
  } catch (e) {
    out.page = { error: text(e) };
  }
  try {
    out.worker = await new Promise((resolve, reject) => {
      const worker = new Worker('./worker.js', { type: 'module' });
      worker.onmessage = (m) => resolve(m.data);
      worker.onerror = (e) => reject(new Error(`worker error: ${e.message || 'failed to load'}`));
      setTimeout(() => reject(new Error('worker did not answer in 60 s')), 60_000);
    });
  } catch (e) {
    out.worker = { error: text(e) };
  }
  return out;
}

main().then((out) => {
  globalThis.__compat = out;
  document.getElementById('out').textContent = JSON.stringify(out, null, 2);
});
