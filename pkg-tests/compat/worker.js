// The module Worker of compat/page.js, bundled as its own entry (import maps do
// not reach workers, so the bundler resolves 'mldsa-simd' here too).
import * as lib from 'mldsa-simd';
import { install, CryptoKey as OurKey } from 'mldsa-simd/webcrypto';
import { probe, platformMlDsa } from './probe.js';

(async () => {
  try {
    const platformHasMlDsa = await platformMlDsa(lib.ml_dsa65); // (before install() replaces crypto.subtle's methods)
    const forced = await install({ force: true });
    postMessage({ forced, ...(await probe({ lib, subtle: crypto.subtle, OurKey, platformHasMlDsa })) });
  } catch (e) {
    postMessage({ error: String((e && e.stack) || e) });
  }
})();
