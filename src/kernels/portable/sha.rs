//! SHA-2's word byte order (FIPS 180-4 §3.1), the reference of
//! `ShaKernels::swap_words`.

use crate::backend::{Portable, ShaKernels};

impl ShaKernels for Portable {
    /// One byte at a time.
    #[inline(always)]
    fn swap_words<const N: usize, const W: usize>(b: &[u8; N]) -> [u8; N] {
        core::array::from_fn(|i| b[i ^ (W - 1)])
    }
}
