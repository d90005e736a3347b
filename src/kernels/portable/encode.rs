//! Portable bit packing, one routine per width B (a const parameter). Eight
//! coefficients fill exactly B bytes, so a group of eight is straight-line
//! code: every shift and byte offset is a constant, and nothing depends on
//! the coefficient values. B ∈ [3, 25], which the widths of FIPS 204
//! (3, 4, 6, 10, 13, 18, 20) are. No copy of the data is made.
//!
//! Both routines store or return (c ⊕ x) + y instead of c: x = 0, y = 0 is
//! SimpleBitPack / SimpleBitUnpack (Algorithms 16, 18); x = −1, y = b + 1
//! gives b − c (since −c = ¬c + 1), which is BitPack / BitUnpack
//! (Algorithms 17, 19) with upper bound b.

use crate::backend::{EncodeKernels, Portable};
use crate::ring::Poly;

impl EncodeKernels for Portable {
    fn pack<const B: usize>(p: &Poly, x: i32, y: i32, out: &mut [u8]) {
        for (c, o) in p.0.chunks_exact(8).zip(out[..32 * B].chunks_exact_mut(B)) {
            pack_group::<B>(c, x, y, o);
        }
    }

    fn unpack<const B: usize>(inp: &[u8], x: i32, y: i32, p: &mut Poly) {
        let inp = &inp[..32 * B];
        let (body, last) = p.0.split_at_mut(31 * 8);
        for (g, c) in body.chunks_exact_mut(8).enumerate() {
            unpack_group::<B>(inp, g, x, y, c);
        }
        unpack_group::<B>(inp, 31, x, y, last);
    }
}

/// Eight coefficients into B bytes.
#[inline(always)]
fn pack_group<const B: usize>(c: &[i32], x: i32, y: i32, o: &mut [u8]) {
    const { assert!(B >= 3 && B <= 25) };
    let mask = (1u32 << B) - 1;
    // acc holds fewer than 32 bits before each addition of B ≤ 25 bits.
    let (mut acc, mut have, mut at) = (0u64, 0, 0);
    for &cj in &c[..8] {
        acc |= ((((cj ^ x).wrapping_add(y)) as u32 & mask) as u64) << have;
        have += B;
        if have >= 32 {
            o[at..at + 4].copy_from_slice(&(acc as u32).to_le_bytes());
            (acc, have, at) = (acc >> 32, have - 32, at + 4);
        }
    }
    // 8·B bits in all: what is left is a whole number of bytes.
    o[at..B].copy_from_slice(&acc.to_le_bytes()[..have / 8]);
}

/// Group g (coefficients 8g..8g+8). Field j starts at bit g·8B + j·B; a
/// 4-byte little-endian read from its first byte holds it whole, as
/// (j·B mod 8) + B ≤ 7 + 25 = 32. Near the end of the input the read starts
/// earlier, at most at byte 32·B − 4, and the shift grows by 8 per byte.
/// Groups g ≤ 30 never need that (g·B + ⌊7B/8⌋ + 4 ≤ 32·B for B ≥ 3), so in
/// the loop the `min` is the identity; for g = 31 it folds to constants.
#[inline(always)]
fn unpack_group<const B: usize>(inp: &[u8], g: usize, x: i32, y: i32, c: &mut [i32]) {
    const { assert!(B >= 3 && B <= 25) };
    let mask = (1u32 << B) - 1;
    for (j, cj) in c[..8].iter_mut().enumerate() {
        let first = g * B + j * B / 8;
        let at = first.min(32 * B - 4);
        let w = u32::from_le_bytes([inp[at], inp[at + 1], inp[at + 2], inp[at + 3]]);
        *cj = (((w >> (8 * (first - at) + j * B % 8)) & mask) as i32 ^ x).wrapping_add(y);
    }
}
