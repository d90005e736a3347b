// The module Worker of compat/page.js, bundled as its own entry (import maps do
// not reach workers, so the bundler resolves 'mldsa-simd' here too).
import * as lib from 'mldsa-simd';
import { install, CryptoKey as OurKey } from 'mldsa-simd/webcrypto';
import { probe } from './probe.js';

(async () => {
  try {
    const forced = await install({ force: true });
    postMessage({ forced, ...(await probe({ lib, subtle: crypto.subtle, OurKey })) });
  } catch (e) {
    postMessage({ error: String((e && e.stack) || e) });
  }
})();
