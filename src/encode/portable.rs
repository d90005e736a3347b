//! Portable bit packing, one routine per width B (a const parameter). Eight
//! coefficients fill exactly B bytes, so a group of eight is straight-line
//! code: every shift and byte offset is a constant, and nothing depends on
//! the coefficient values. B ∈ [3, 25], which the widths of FIPS 204
//! (3, 4, 6, 10, 13, 18, 20) are.
//!
//! Both routines store or return (c ⊕ x) + y instead of c: x = 0, y = 0 is
//! SimpleBitPack / SimpleBitUnpack (Algorithms 16, 18); x = −1, y = b + 1
//! gives b − c (since −c = ¬c + 1), which is BitPack / BitUnpack
//! (Algorithms 17, 19) with upper bound b.

use crate::poly::Poly;
use zeroize::Zeroize;

/// Writes the low B bits of (c ⊕ x) + y for each coefficient c into `out`
/// (32·B bytes), coefficient i at bits [i·B, (i+1)·B), least significant first.
pub fn pack<const B: usize>(p: &Poly, x: i32, y: i32, out: &mut [u8]) {
    const { assert!(B >= 3 && B <= 25) };
    let mask = (1u32 << B) - 1;
    for (c, o) in p.0.chunks_exact(8).zip(out[..32 * B].chunks_exact_mut(B)) {
        // acc holds fewer than 32 bits before each addition of B ≤ 25 bits.
        let (mut acc, mut have, mut at) = (0u64, 0, 0);
        for &cj in c {
            acc |= ((((cj ^ x).wrapping_add(y)) as u32 & mask) as u64) << have;
            have += B;
            if have >= 32 {
                o[at..at + 4].copy_from_slice(&(acc as u32).to_le_bytes());
                (acc, have, at) = (acc >> 32, have - 32, at + 4);
            }
        }
        // 8·B bits in all: what is left is a whole number of bytes.
        o[at..].copy_from_slice(&acc.to_le_bytes()[..have / 8]);
    }
}

/// Reads 256 fields of B bits from `inp` (32·B bytes) and returns
/// (field ⊕ x) + y for each: with x = y = 0 every coefficient is in [0, 2^B).
pub fn unpack<const B: usize>(inp: &[u8], x: i32, y: i32, p: &mut Poly) {
    const { assert!(B >= 3 && B <= 25 && B * 7 / 8 + 4 <= 24) };
    let inp = &inp[..32 * B];
    let (body, tail) = p.0.split_at_mut(31 * 8);
    for (g, c) in body.chunks_exact_mut(8).enumerate() {
        // Group g reads bytes g·B .. g·B + ⌊7B/8⌋ + 4 ≤ 32·B for g ≤ 30 and B ≥ 3.
        unpack_group::<B>(&inp[g * B..], x, y, c);
    }
    // The last group's 4-byte reads would run past the end: read a zero-padded copy.
    let mut last = [0u8; 24];
    last[..B].copy_from_slice(&inp[31 * B..]);
    unpack_group::<B>(&last, x, y, tail);
    last.zeroize();
}

/// Field j of the group starts at bit j·B: a 4-byte little-endian read at
/// byte ⌊j·B/8⌋ holds it whole, as (j·B mod 8) + B ≤ 7 + 25 = 32.
#[inline(always)]
fn unpack_group<const B: usize>(src: &[u8], x: i32, y: i32, c: &mut [i32]) {
    let src = &src[..B * 7 / 8 + 4];
    let mask = (1u32 << B) - 1;
    for (j, cj) in c.iter_mut().enumerate() {
        let at = j * B / 8;
        let w = u32::from_le_bytes([src[at], src[at + 1], src[at + 2], src[at + 3]]);
        *cj = (((w >> (j * B % 8)) & mask) as i32 ^ x).wrapping_add(y);
    }
}
