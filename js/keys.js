/**
 * mldsa-simd/keys: key formats (placeholder while the JavaScript implementation is written;
 * the wasm-based one is js/keys.js of main).
 * @module
 */
import { ml_dsa44, ml_dsa65, ml_dsa87 } from './index.js';

const SETS = [ml_dsa44, ml_dsa65, ml_dsa87];
const todo = (alg) => {
  if (!SETS.includes(alg)) throw new TypeError('alg: expected ml_dsa44, ml_dsa65 or ml_dsa87 of mldsa-simd');
  throw new Error('key formats: not written yet');
};
export const importPublicKey = (alg) => todo(alg);
export const exportPublicKey = (alg) => todo(alg);
export const importSecretKey = (alg) => todo(alg);
export const exportSecretKey = (alg) => todo(alg);
