//! SHA-2's word byte order (FIPS 180-4 §3.1) in wasm simd128:
//! `ShaKernels::swap_words` with one byte shuffle per 16 bytes.

use crate::backend::{ShaKernels, Simd128};
use core::arch::wasm32::*;

impl ShaKernels for Simd128 {
    /// `swap_words` in wasm, which has no byte swap instruction: a scalar swap is
    /// five to nine instructions with wide constants per word (about 0.9 KB of
    /// code for one block of 64-bit words), one byte shuffle per 16 bytes does it.
    #[inline(always)]
    fn swap_words<const N: usize, const W: usize>(b: &[u8; N]) -> [u8; N] {
        const { assert!(N % 16 == 0 && (W == 4 || W == 8)) };
        let mut out = [0u8; N];
        for i in 0..N / 16 {
            // SAFETY: bytes 16i..16i+16 of two N-byte arrays, N a multiple of 16;
            // v128 loads and stores need no alignment.
            unsafe {
                let v = v128_load(b.as_ptr().add(16 * i) as *const v128);
                let v = match W {
                    4 => i8x16_shuffle::<3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12>(v, v),
                    _ => i8x16_shuffle::<7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8>(v, v),
                };
                v128_store(out.as_mut_ptr().add(16 * i) as *mut v128, v);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::backend::{Portable, ShaKernels, Simd128};
    use crate::test_rng::Rng;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn swap_words_matches_portable() {
        let mut rng = Rng(0x5A5A);
        for _ in 0..200 {
            let mut b64 = [0u8; 64];
            let mut b128 = [0u8; 128];
            rng.fill(&mut b64);
            rng.fill(&mut b128);
            assert_eq!(Simd128::swap_words::<64, 4>(&b64), Portable::swap_words::<64, 4>(&b64));
            assert_eq!(Simd128::swap_words::<64, 8>(&b64), Portable::swap_words::<64, 8>(&b64));
            assert_eq!(Simd128::swap_words::<128, 8>(&b128), Portable::swap_words::<128, 8>(&b128));
        }
    }
}
