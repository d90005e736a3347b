// Harness self-check only (MLDSA_IMPL=noble): @noble/post-quantum shaped like the
// package. prehash() also takes a hash name, and a pre-hash weaker than the parameter
// set (which noble refuses and the package accepts, as FIPS 204 allows) is computed
// on noble's internal API with M′ built by hand.
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { HASH_FNS, hashMlDsaMessage } from './util.mjs';

function checkKeys(opts, allowed) {
  for (const k of Object.keys(opts)) if (!allowed.includes(k)) throw new TypeError(`unexpected option "${k}"`);
}

function wrap(alg) {
  return Object.freeze({
    ...alg,
    prehash(hash) {
      const fn = typeof hash === 'string' ? HASH_FNS[hash] : hash;
      if (typeof hash === 'string' && !fn) throw new Error(`unknown hash name "${hash}"`);
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
