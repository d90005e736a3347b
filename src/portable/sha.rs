//! SHA-2's word byte order (FIPS 180-4 §3.1), the reference of
//! `Backend::swap_words`.

/// `b` with the bytes of each `W`-byte word reversed (W = 4 or 8): turns
/// big-endian words (§3.1: the most significant byte first) into little-endian
/// ones and back, so that words are read and written with plain loads and
/// stores (wasm and x86 are little-endian). Portable version.
#[inline(always)]
pub fn swap_words<const N: usize, const W: usize>(b: &[u8; N]) -> [u8; N] {
    core::array::from_fn(|i| b[i ^ (W - 1)])
}
