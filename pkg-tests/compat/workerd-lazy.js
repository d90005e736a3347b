// A workerd worker that imports the package only when a request comes
// (compat-runtimes.test.mjs): the module is evaluated inside the fetch handler,
// where workerd forbids compiling WebAssembly from bytes.
import { probe } from './probe.js';

export default {
  async fetch() {
    try {
      const lib = await import('mldsa-simd');
      const { subtle, CryptoKey } = await import('mldsa-simd/webcrypto');
      return Response.json(await probe({ lib, subtle, OurKey: CryptoKey }));
    } catch (e) {
      return Response.json({ error: String((e && e.stack) || e) });
    }
  },
};
