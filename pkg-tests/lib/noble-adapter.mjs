// Harness self-check only (MLDSA_IMPL=noble): @noble/post-quantum shaped like the
// package. prehash() refuses a hash name as the package does (a TypeError pointing to
// mldsa-simd/prehash), and a pre-hash weaker than the parameter set (which noble
// refuses and the package accepts, as FIPS 204 allows) is computed on noble's
// internal API with M′ built by hand.
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { hashMlDsaMessage } from './util.mjs';

function checkKeys(opts, allowed) {
  for (const k of Object.keys(opts)) if (!allowed.includes(k)) throw new TypeError(`unexpected option "${k}"`);
}

function wrap(alg) {
  return Object.freeze({
    ...alg,
    prehash(hash) {
      if (typeof hash === 'string')
        throw new TypeError(
          `hash: expected a hash function, got a string of ${hash.length} characters; the named pre-hash functions are in mldsa-simd/prehash`,
        );
      const fn = hash;
      try {
        return alg.prehash(fn);
      } catch (e) {
        if (!/security strength too low/i.test(String(e && e.message))) throw e;
      }
      return Object.freeze({
        lengths: alg.lengths,
        sign(msg, sk, opts = {}) {
          checkKeys(opts, ['context', 'extraEntropy']);
          return alg.internal.sign(hashMlDsaMessage(fn, msg, opts.context), sk, { extraEntropy: opts.extraEntropy });
        },
        verify(sig, msg, pk, opts = {}) {
          checkKeys(opts, ['context']);
          return alg.internal.verify(sig, hashMlDsaMessage(fn, msg, opts.context), pk);
        },
      });
    },
  });
}

export const ml_dsa44 = wrap(noble.ml_dsa44);
export const ml_dsa65 = wrap(noble.ml_dsa65);
export const ml_dsa87 = wrap(noble.ml_dsa87);
