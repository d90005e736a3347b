//! simd128 versions of `portable.rs` (same functions, same order), with the
//! same contract: (c ⊕ x) + y per coefficient, B-bit fields, eight fields per
//! B bytes. Every shuffle pattern and multiplier is a constant of B; nothing
//! depends on the coefficient values.
//!
//! Unpacking moves each field's bytes into its own lane with one constant
//! swizzle, then shifts it per lane: multiplying by 2^(L−B−s) (L the lane
//! width, s the field's bit offset in its first byte) puts the field at the
//! top of the lane and drops the bits above it, and a uniform shift right by
//! L − B brings it down. Widths whose fields all fit in two bytes
//! (s + B ≤ 16: B = 3, 4, 6, 10) use 16-bit lanes, eight fields per vector;
//! the others (13, 18, 20) use 32-bit lanes, four per vector.
//!
//! Packing is done here only for the 16-bit widths (a per-lane shift left by
//! s, then two (four for B = 3) swizzles OR-ed together gather the bytes); the others
//! use the portable code, as they run once per key or signature.
//!
//! Loads and stores are 16 bytes wide, and never touch memory outside the
//! slices: the groups near the end go through a zero-padded buffer.

use super::portable;
use crate::poly::simd128::{load, store};
use crate::poly::Poly;
use core::arch::wasm32::*;
use zeroize::Zeroize;

/// Constants of width B.
struct W<const B: usize>;

impl<const B: usize> W<B> {
    /// Bit offset of field j within its first byte.
    const fn s(j: usize) -> usize {
        j * B % 8
    }
    /// Every field lies within two bytes: 16-bit lanes suffice.
    const NARROW: bool = {
        let mut j = 0;
        let mut ok = true;
        while j < 8 {
            ok &= Self::s(j) + B <= 16;
            j += 1;
        }
        ok
    };
    /// Bytes read from a group's start: one 16-byte load, or for B > 16 a
    /// second one for fields 4..8 at byte B/2 (B is even there).
    const HALF: usize = if B <= 16 { 0 } else { B / 2 };
    const SPAN: usize = Self::HALF + 16;
    /// Groups whose loads stay inside the 32·B input bytes.
    const FULL: usize = (32 * B - Self::SPAN) / B + 1;

    /// 16-bit lanes: lane j gets bytes ⌊jB/8⌋ and ⌊jB/8⌋ + 1.
    const U16_PAT: v128 = {
        let mut t = [0u8; 16];
        let mut j = 0;
        while j < 8 {
            t[2 * j] = (j * B / 8) as u8;
            t[2 * j + 1] = (j * B / 8 + 1) as u8;
            j += 1;
        }
        // SAFETY: v128 is 16 plain bytes.
        unsafe { core::mem::transmute::<[u8; 16], v128>(t) }
    };
    const U16_MUL: v128 = {
        let mut t = [0u16; 8];
        let mut j = 0;
        while j < 8 {
            if Self::NARROW {
                t[j] = 1 << (16 - B - Self::s(j));
            }
            j += 1;
        }
        // SAFETY: as above.
        unsafe { core::mem::transmute::<[u16; 8], v128>(t) }
    };
    /// 32-bit lanes, fields 4q..4q+4 of a group, read from byte q·HALF: lane
    /// j gets the four bytes from the field's first.
    const fn u32_pat(q: usize) -> v128 {
        let mut t = [0x80u8; 16];
        let mut j = 0;
        while j < 4 {
            let at = (4 * q + j) * B / 8 - q * Self::HALF;
            let mut k = 0;
            while k < 4 {
                t[4 * j + k] = (at + k) as u8;
                k += 1;
            }
            j += 1;
        }
        // SAFETY: as above.
        unsafe { core::mem::transmute::<[u8; 16], v128>(t) }
    }
    const fn u32_mul(q: usize) -> v128 {
        let mut t = [0u32; 4];
        let mut j = 0;
        while j < 4 {
            t[j] = 1 << (32 - B - Self::s(4 * q + j));
            j += 1;
        }
        // SAFETY: as above.
        unsafe { core::mem::transmute::<[u32; 4], v128>(t) }
    }
    const U32_PAT: [v128; 2] = [Self::u32_pat(0), Self::u32_pat(1)];
    const U32_MUL: [v128; 2] = [Self::u32_mul(0), Self::u32_mul(1)];

    /// Packing (16-bit widths): lane j shifted left by s_j.
    const P16_MUL: v128 = {
        let mut t = [0u16; 8];
        let mut j = 0;
        while j < 8 {
            t[j] = 1 << Self::s(j);
            j += 1;
        }
        // SAFETY: as above.
        unsafe { core::mem::transmute::<[u16; 8], v128>(t) }
    };
    /// Output byte k is the OR of the low bytes of the lanes whose field
    /// starts in byte k and the high byte of the lane whose field starts in
    /// byte k − 1 if it reaches into byte k. Pattern r picks the r-th of
    /// those sources (0x80: none).
    const fn p16_pat(r: usize) -> v128 {
        let mut t = [0x80u8; 16];
        let mut k = 0;
        while Self::NARROW && k < B {
            let mut n = 0;
            let mut j = 0;
            while j < 8 {
                let first = j * B / 8;
                if first == k || (first + 1 == k && Self::s(j) + B > 8) {
                    if n == r {
                        t[k] = (2 * j + (k - first)) as u8;
                    }
                    n += 1;
                }
                j += 1;
            }
            k += 1;
        }
        // SAFETY: as above.
        unsafe { core::mem::transmute::<[u8; 16], v128>(t) }
    }
    /// How many sources the busiest output byte has (4 for B = 3, else 2).
    const P16_SOURCES: usize = {
        let mut most = 0;
        let mut k = 0;
        while Self::NARROW && k < B {
            let mut n = 0;
            let mut j = 0;
            while j < 8 {
                let first = j * B / 8;
                if first == k || (first + 1 == k && Self::s(j) + B > 8) {
                    n += 1;
                }
                j += 1;
            }
            if n > most {
                most = n;
            }
            k += 1;
        }
        most
    };
    const P16_PAT: [v128; 4] = [Self::p16_pat(0), Self::p16_pat(1), Self::p16_pat(2), Self::p16_pat(3)];
}

/// `portable::pack`.
pub fn pack<const B: usize>(p: &Poly, x: i32, y: i32, out: &mut [u8]) {
    if !W::<B>::NARROW {
        return portable::pack::<B>(p, x, y, out);
    }
    const { assert!(W::<B>::P16_SOURCES <= 4 && (32 - W::<B>::FULL) * B + 16 <= 48) };
    let out = &mut out[..32 * B];
    let full = W::<B>::FULL;
    for g in 0..full {
        // The 16-byte store runs into the next groups' bytes, which are written later.
        pack_group::<B>(p, g, x, y, &mut out[g * B..]);
    }
    let mut buf = [0u8; 48];
    for g in full..32 {
        pack_group::<B>(p, g, x, y, &mut buf[(g - full) * B..]);
    }
    out[full * B..].copy_from_slice(&buf[..(32 - full) * B]);
    buf.zeroize();
}

/// Packs coefficients 8g..8g+8 into dst[..B]; writes dst[..16].
#[inline(always)]
fn pack_group<const B: usize>(p: &Poly, g: usize, x: i32, y: i32, dst: &mut [u8]) {
    let dst = &mut dst[..16];
    let (xv, yv, m) = (i32x4_splat(x), i32x4_splat(y), u32x4_splat((1 << B) - 1));
    let a = v128_and(i32x4_add(v128_xor(load(p, 2 * g), xv), yv), m);
    let b = v128_and(i32x4_add(v128_xor(load(p, 2 * g + 1), xv), yv), m);
    // Fields below 2^B ≤ 2^10 narrow exactly; s_j + B ≤ 16 keeps the shift inside the lane.
    let n = i16x8_mul(u16x8_narrow_i32x4(a, b), W::<B>::P16_MUL);
    let pat = W::<B>::P16_PAT;
    let mut r = v128_or(i8x16_swizzle(n, pat[0]), i8x16_swizzle(n, pat[1]));
    if W::<B>::P16_SOURCES > 2 {
        r = v128_or(r, i8x16_swizzle(n, pat[2]));
    }
    if W::<B>::P16_SOURCES > 3 {
        r = v128_or(r, i8x16_swizzle(n, pat[3]));
    }
    // SAFETY: dst has 16 bytes; v128.store needs no alignment.
    unsafe { v128_store(dst.as_mut_ptr() as *mut v128, r) }
}

/// `portable::unpack`.
pub fn unpack<const B: usize>(inp: &[u8], x: i32, y: i32, p: &mut Poly) {
    const { assert!(B >= 3 && B <= 20 && (32 - W::<B>::FULL) * B + W::<B>::SPAN <= 48) };
    let inp = &inp[..32 * B];
    let full = W::<B>::FULL;
    for g in 0..full {
        unpack_group::<B>(&inp[g * B..], g, x, y, p);
    }
    let mut buf = [0u8; 48];
    buf[..(32 - full) * B].copy_from_slice(&inp[full * B..]);
    for g in full..32 {
        unpack_group::<B>(&buf[(g - full) * B..], g, x, y, p);
    }
    buf.zeroize();
}

/// Coefficients 8g..8g+8 from src[..B]; reads src[..SPAN].
#[inline(always)]
fn unpack_group<const B: usize>(src: &[u8], g: usize, x: i32, y: i32, p: &mut Poly) {
    let src = &src[..W::<B>::SPAN];
    // SAFETY: src has SPAN = HALF + 16 bytes; v128.load needs no alignment.
    let ld = |at: usize| unsafe { v128_load(src.as_ptr().add(at) as *const v128) };
    if W::<B>::NARROW {
        // f < 2^10, x ∈ {0, −1} and |y| ≤ 2^14: (f ⊕ x) + y fits in i16, so
        // it is computed before widening.
        let v = i8x16_swizzle(ld(0), W::<B>::U16_PAT);
        let v = u16x8_shr(i16x8_mul(v, W::<B>::U16_MUL), (16 - B) as u32);
        let v = i16x8_add(v128_xor(v, i16x8_splat(x as i16)), i16x8_splat(y as i16));
        store(p, 2 * g, i32x4_extend_low_i16x8(v));
        store(p, 2 * g + 1, i32x4_extend_high_i16x8(v));
    } else {
        let (xv, yv) = (i32x4_splat(x), i32x4_splat(y));
        for q in 0..2 {
            let v = i8x16_swizzle(ld(q * W::<B>::HALF), W::<B>::U32_PAT[q]);
            let v = u32x4_shr(i32x4_mul(v, W::<B>::U32_MUL[q]), (32 - B) as u32);
            store(p, 2 * g + q, i32x4_add(v128_xor(v, xv), yv));
        }
    }
}
