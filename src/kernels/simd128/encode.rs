//! simd128 versions of `portable/encode.rs` (same kernels, same order), with the
//! same contract: (c ⊕ x) + y per coefficient, B-bit fields, eight fields per
//! B bytes. Every shuffle pattern and multiplier is a constant of B; nothing
//! depends on the coefficient values.
//!
//! Lanes: widths whose fields all lie within two bytes (s + B ≤ 16, s the
//! field's bit offset in its first byte: B = 3, 4, 6, 10) put a group's eight
//! fields in the 16-bit lanes of one vector; the others (13, 18, 20) put them
//! in the 32-bit lanes of two vectors (fields 0–3 and 4–7).
//!
//! Unpacking moves each field's bytes into its lane with a constant swizzle,
//! multiplies by 2^(L−B−s) (L the lane width), which puts the field at the
//! top of the lane and drops the bits above it, and shifts right by L − B.
//! Packing multiplies each field by 2^s and ORs two to four swizzles that
//! gather the lanes' bytes into place; B = 13 is packed by the portable
//! code, which is faster there (PERF.md). The multipliers, the swizzle
//! patterns, the field mask and x, y are read once per call through
//! `crate::simd128::opaque`: LLVM would otherwise turn the multiplies by
//! constants into per-lane shifts, which wasm lacks, and scalarise them; and
//! V8 rebuilds a literal vector constant before every use inside a loop.
//!
//! Each group's bytes are read and written exactly, with lane loads and
//! stores of 8, 4, 2 and 1 bytes: nothing outside the slices is touched and
//! no copy of the data is made.

use super::{load, opaque, store};
use crate::backend::{EncodeKernels, Simd128};
use crate::ring::Poly;
use core::arch::wasm32::*;

/// Constants of width B.
struct W<const B: usize>;

impl<const B: usize> W<B> {
    /// Every field lies within two bytes: 16-bit lanes suffice.
    const NARROW: bool = {
        let mut j = 0;
        let mut ok = true;
        while j < 8 {
            ok &= j * B % 8 + B <= 16;
            j += 1;
        }
        ok
    };
    /// Bytes per lane, and fields per vector.
    const LANE: usize = if Self::NARROW { 2 } else { 4 };
    const PER: usize = 16 / Self::LANE;
    /// Byte of the group where the second vector's fields begin, when they
    /// begin on a byte boundary (B even) and the group exceeds 16 bytes;
    /// otherwise 0 and both vectors use one load or store of B bytes.
    const HALF: usize = if B <= 16 { 0 } else { B / 2 };
    /// Bytes per load or store.
    const IO: usize = if Self::HALF == 0 { B } else { Self::HALF };

    /// Field i of a group: its first byte and how many bytes it touches.
    const fn bytes_of(i: usize) -> (usize, usize) {
        (i * B / 8, (i * B % 8 + B).div_ceil(8))
    }

    /// Unpacking, vector v: lane j gets the LANE bytes from the first byte
    /// of field i = PER·v + j, counted from byte v·HALF. Bytes past the
    /// field are dropped by the multiply, so any byte may stand in for those
    /// past the vector: every index is below 16, and the swizzle is a plain
    /// one-input byte shuffle.
    const fn scatter(v: usize) -> v128 {
        let mut t = [0u8; 16];
        let mut j = 0;
        while j < Self::PER {
            let f = (Self::PER * v + j) * B / 8 - v * Self::HALF;
            let mut k = 0;
            while k < Self::LANE {
                t[Self::LANE * j + k] = if f + k < 16 { f + k } else { 15 } as u8;
                k += 1;
            }
            j += 1;
        }
        // SAFETY: v128 is 16 plain bytes.
        unsafe { core::mem::transmute::<[u8; 16], v128>(t) }
    }
    /// Multipliers per lane: 2^(8·LANE − B − s) to unpack, 2^s to pack.
    const fn mul(v: usize, pack: bool) -> v128 {
        let mut t = [0u8; 16];
        let mut j = 0;
        while j < Self::PER {
            let s = (Self::PER * v + j) * B % 8;
            let m: u32 = if pack { 1 << s } else { 1 << (8 * Self::LANE - B - s) };
            let mut k = 0;
            while k < Self::LANE {
                t[Self::LANE * j + k] = (m >> (8 * k)) as u8;
                k += 1;
            }
            j += 1;
        }
        // SAFETY: as above.
        unsafe { core::mem::transmute::<[u8; 16], v128>(t) }
    }
    /// Packing, vector v: output byte k (counted from byte v·HALF) is the OR
    /// of the lane bytes of the vector's fields that cover it; pattern r
    /// picks the r-th of them, or the first again when there are fewer (OR
    /// is idempotent), or 0x80 (zero) when none of the vector's fields
    /// covers byte k.
    const fn gather(v: usize, r: usize) -> v128 {
        let mut t = [0x80u8; 16];
        let mut k = 0;
        while k < Self::IO {
            let at = k + v * Self::HALF;
            let mut n = 0;
            let mut j = 0;
            while j < Self::PER {
                let i = Self::PER * v + j;
                let (f, bytes) = Self::bytes_of(i);
                if f <= at && at < f + bytes {
                    if n == r || n == 0 {
                        t[k] = (Self::LANE * j + at - f) as u8;
                    }
                    n += 1;
                }
                j += 1;
            }
            k += 1;
        }
        // Bytes past IO are not stored: any in-range index will do.
        while k < 16 {
            t[k] = 0;
            k += 1;
        }
        // SAFETY: as above.
        unsafe { core::mem::transmute::<[u8; 16], v128>(t) }
    }
    /// Most lane bytes that cover one output byte of a vector: 4 for B = 3,
    /// else 2.
    const SOURCES: usize = {
        let mut most = 0;
        let mut k = 0;
        while k < B {
            let mut n = [0; 2];
            let mut i = 0;
            while i < 8 {
                let (f, bytes) = Self::bytes_of(i);
                if f <= k && k < f + bytes {
                    n[i / Self::PER] += 1;
                }
                i += 1;
            }
            if n[0] > most {
                most = n[0];
            }
            if n[1] > most {
                most = n[1];
            }
            k += 1;
        }
        most
    };
    // One constant per vector and pattern, so that a width ships only the
    // ones it reads (a vector 1 only for wide lanes, patterns up to SOURCES).
    const SCATTER_0: v128 = Self::scatter(0);
    const SCATTER_1: v128 = Self::scatter(1);
    const MUL_PACK_0: v128 = Self::mul(0, true);
    const MUL_PACK_1: v128 = Self::mul(1, true);
    const MUL_UNPACK_0: v128 = Self::mul(0, false);
    const MUL_UNPACK_1: v128 = Self::mul(1, false);
    const GATHER_0_0: v128 = Self::gather(0, 0);
    const GATHER_0_1: v128 = Self::gather(0, 1);
    const GATHER_0_2: v128 = Self::gather(0, 2);
    const GATHER_0_3: v128 = Self::gather(0, 3);
    const GATHER_1_0: v128 = Self::gather(1, 0);
    const GATHER_1_1: v128 = Self::gather(1, 1);
    const GATHER_1_2: v128 = Self::gather(1, 2);
    const GATHER_1_3: v128 = Self::gather(1, 3);

    /// Packing pattern r of vector v (`gather`), as a static to read.
    #[inline(always)]
    fn gather_pattern(v: usize, r: usize) -> &'static v128 {
        match (v, r) {
            (0, 0) => &Self::GATHER_0_0,
            (0, 1) => &Self::GATHER_0_1,
            (0, 2) => &Self::GATHER_0_2,
            (0, _) => &Self::GATHER_0_3,
            (_, 0) => &Self::GATHER_1_0,
            (_, 1) => &Self::GATHER_1_1,
            (_, 2) => &Self::GATHER_1_2,
            _ => &Self::GATHER_1_3,
        }
    }
}

/// Reads exactly n ≤ 16 bytes from src into the low bytes of a vector, the
/// rest zero, with loads of 8, 4, 2 and 1 bytes (inlined with a constant n,
/// the branches fold).
#[inline(always)]
fn load_exact(src: &[u8], n: usize) -> v128 {
    // Both checks guard the loads below; n is a constant, so the first folds.
    assert!(n <= 16);
    let src = &src[..n];
    let p = src.as_ptr();
    let mut v = u64x2_splat(0);
    // SAFETY: every lane load reads bytes below n; they need no alignment.
    unsafe {
        let mut at = 0;
        if n - at >= 8 {
            v = v128_load64_lane::<0>(v, p as *const u64);
            at += 8;
        }
        if n - at >= 4 {
            v = match at {
                0 => v128_load32_lane::<0>(v, p as *const u32),
                _ => v128_load32_lane::<2>(v, p.add(8) as *const u32),
            };
            at += 4;
        }
        if n - at >= 2 {
            v = match at {
                0 => v128_load16_lane::<0>(v, p as *const u16),
                4 => v128_load16_lane::<2>(v, p.add(4) as *const u16),
                8 => v128_load16_lane::<4>(v, p.add(8) as *const u16),
                _ => v128_load16_lane::<6>(v, p.add(12) as *const u16),
            };
            at += 2;
        }
        if n - at >= 1 {
            v = match at {
                0 => v128_load8_lane::<0>(v, p),
                2 => v128_load8_lane::<2>(v, p.add(2)),
                4 => v128_load8_lane::<4>(v, p.add(4)),
                6 => v128_load8_lane::<6>(v, p.add(6)),
                8 => v128_load8_lane::<8>(v, p.add(8)),
                10 => v128_load8_lane::<10>(v, p.add(10)),
                12 => v128_load8_lane::<12>(v, p.add(12)),
                _ => v128_load8_lane::<14>(v, p.add(14)),
            };
        }
    }
    v
}

/// Writes the low n ≤ 16 bytes of v to dst exactly (as `load_exact`).
#[inline(always)]
fn store_exact(dst: &mut [u8], n: usize, v: v128) {
    assert!(n <= 16);
    let dst = &mut dst[..n];
    let p = dst.as_mut_ptr();
    // SAFETY: every lane store writes bytes below n; they need no alignment.
    unsafe {
        let mut at = 0;
        if n - at >= 8 {
            v128_store64_lane::<0>(v, p as *mut u64);
            at += 8;
        }
        if n - at >= 4 {
            match at {
                0 => v128_store32_lane::<0>(v, p as *mut u32),
                _ => v128_store32_lane::<2>(v, p.add(8) as *mut u32),
            }
            at += 4;
        }
        if n - at >= 2 {
            match at {
                0 => v128_store16_lane::<0>(v, p as *mut u16),
                4 => v128_store16_lane::<2>(v, p.add(4) as *mut u16),
                8 => v128_store16_lane::<4>(v, p.add(8) as *mut u16),
                _ => v128_store16_lane::<6>(v, p.add(12) as *mut u16),
            }
            at += 2;
        }
        if n - at >= 1 {
            match at {
                0 => v128_store8_lane::<0>(v, p),
                2 => v128_store8_lane::<2>(v, p.add(2)),
                4 => v128_store8_lane::<4>(v, p.add(4)),
                6 => v128_store8_lane::<6>(v, p.add(6)),
                8 => v128_store8_lane::<8>(v, p.add(8)),
                10 => v128_store8_lane::<10>(v, p.add(10)),
                12 => v128_store8_lane::<12>(v, p.add(12)),
                _ => v128_store8_lane::<14>(v, p.add(14)),
            }
        }
    }
}

impl EncodeKernels for Simd128 {
    /// `portable/encode.rs`'s `pack`.
    fn pack<const B: usize>(p: &Poly, x: i32, y: i32, out: &mut [u8]) {
        const { assert!(B >= 3 && B <= 20 && W::<B>::SOURCES <= 4) };
        if !W::<B>::NARROW && W::<B>::HALF == 0 {
            // B = 13: both vectors feed the same 13 bytes (four swizzles, two of
            // them two-input); the scalar code is faster (PERF.md).
            return crate::backend::Portable::pack::<B>(p, x, y, out);
        }
        // Only the constants in use are read: vector 1's only for wide lanes,
        // the third and fourth patterns only if SOURCES needs them.
        let z = i32x4_splat(0);
        let mul = [opaque(&W::<B>::MUL_PACK_0), if W::<B>::NARROW { z } else { opaque(&W::<B>::MUL_PACK_1) }];
        // x and y opaque as in `unpack`.
        let (x, y) = (opaque(&x), opaque(&y));
        let (xv, yv, m) = (i32x4_splat(x), i32x4_splat(y), i32x4_splat(opaque(&((1 << B) - 1))));
        let field = |i: usize| v128_and(i32x4_add(v128_xor(load(p, i), xv), yv), m);
        let pats: [[v128; 4]; 2] = core::array::from_fn(|v| {
            core::array::from_fn(|r| {
                if (v == 0 || !W::<B>::NARROW) && r < W::<B>::SOURCES {
                    opaque(W::<B>::gather_pattern(v, r))
                } else {
                    z
                }
            })
        });
        let gather = |v: usize, n: v128| {
            let pat = &pats[v];
            let mut r = v128_or(i8x16_swizzle(n, pat[0]), i8x16_swizzle(n, pat[1]));
            if W::<B>::SOURCES > 2 {
                r = v128_or(r, i8x16_swizzle(n, pat[2]));
            }
            if W::<B>::SOURCES > 3 {
                r = v128_or(r, i8x16_swizzle(n, pat[3]));
            }
            r
        };
        for (g, o) in out[..32 * B].chunks_exact_mut(B).enumerate() {
            let (a, b) = (field(2 * g), field(2 * g + 1));
            if W::<B>::NARROW {
                // Fields below 2^B ≤ 2^10 narrow exactly, with the signed
                // narrowing too (one `packssdw` in V8, where the unsigned one
                // clamps with a constant it rebuilds at each use); s + B ≤ 16
                // keeps the shifted field inside its lane.
                let n = i16x8_mul(i16x8_narrow_i32x4(a, b), mul[0]);
                store_exact(o, W::<B>::IO, gather(0, n));
            } else {
                // s + B ≤ 7 + 20 bits.
                let (a, b) = (gather(0, i32x4_mul(a, mul[0])), gather(1, i32x4_mul(b, mul[1])));
                if W::<B>::HALF == 0 {
                    store_exact(o, W::<B>::IO, v128_or(a, b));
                } else {
                    store_exact(o, W::<B>::IO, a);
                    store_exact(&mut o[W::<B>::HALF..], W::<B>::IO, b);
                }
            }
        }
    }

    /// `portable/encode.rs`'s `unpack`.
    fn unpack<const B: usize>(inp: &[u8], x: i32, y: i32, p: &mut Poly) {
        const { assert!(B >= 3 && B <= 20) };
        debug_assert!((x == 0 || x == -1) && (y.abs() <= 1 << 14 || !W::<B>::NARROW));
        let mul = [
            opaque(&W::<B>::MUL_UNPACK_0),
            if W::<B>::NARROW { u64x2_splat(0) } else { opaque(&W::<B>::MUL_UNPACK_1) },
        ];
        // x and y opaque too: inlined where they are constants (or specialised
        // for x = −1), their vectors would be rebuilt at each use by V8.
        let (x, y) = (opaque(&x), opaque(&y));
        let (xv, yv) = (i32x4_splat(x), i32x4_splat(y));
        let (x16, y16) = (i16x8_splat(x as i16), i16x8_splat(y as i16));
        let scatter =
            [opaque(&W::<B>::SCATTER_0), if W::<B>::NARROW { u64x2_splat(0) } else { opaque(&W::<B>::SCATTER_1) }];
        for (g, src) in inp[..32 * B].chunks_exact(B).enumerate() {
            let v0 = load_exact(src, W::<B>::IO);
            if W::<B>::NARROW {
                let v = u16x8_shr(i16x8_mul(i8x16_swizzle(v0, scatter[0]), mul[0]), (16 - B) as u32);
                // f < 2^10, x ∈ {0, −1} and |y| ≤ 2^14: (f ⊕ x) + y fits in
                // i16, so it is computed before widening.
                let v = i16x8_add(v128_xor(v, x16), y16);
                store(p, 2 * g, i32x4_extend_low_i16x8(v));
                store(p, 2 * g + 1, i32x4_extend_high_i16x8(v));
            } else {
                let v1 = if W::<B>::HALF == 0 { v0 } else { load_exact(&src[W::<B>::HALF..], W::<B>::IO) };
                for (q, v) in [v0, v1].into_iter().enumerate() {
                    let v = u32x4_shr(i32x4_mul(i8x16_swizzle(v, scatter[q]), mul[q]), (32 - B) as u32);
                    store(p, 2 * g + q, i32x4_add(v128_xor(v, xv), yv));
                }
            }
        }
    }
}
