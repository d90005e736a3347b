// A workerd worker that imports the package at the top (compat-runtimes.test.mjs).
import * as lib from 'mldsa-simd';
import { subtle, CryptoKey } from 'mldsa-simd/webcrypto';
import { probe } from './probe.js';

export default {
  async fetch() {
    try {
      return Response.json(await probe({ lib, subtle, OurKey: CryptoKey }));
    } catch (e) {
      return Response.json({ error: String((e && e.stack) || e) });
    }
  },
};
