//! simd128 versions of `portable/sample.rs` (same kernels, same order),
//! with the same outputs: the same coefficients and the same final *n for any input.
//! Each vector loop runs only while a whole vector step fits in both the
//! input (no read past `buf`) and the polynomial (no write past N), and
//! leaves the rest to the portable code.

use super::opaque;
use crate::backend::{Portable, SampleKernels, Simd128};
use crate::params::{N, Q};
use crate::ring::Poly;
use core::arch::wasm32::*;

/// The constants of `candidates` and `below_q`, read once per call
/// (`crate::simd128::opaque`).
#[derive(Clone, Copy)]
struct ParseConsts {
    /// Lane j gets bytes 3j, 3j + 1, 3j + 2 and a zero byte.
    spread: v128,
    mask: v128,
    q: v128,
}

static PARSE_CONSTS: ParseConsts = ParseConsts {
    spread: i8x16(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1),
    mask: u32x4(0x7f_ffff, 0x7f_ffff, 0x7f_ffff, 0x7f_ffff),
    q: u32x4(Q as u32, Q as u32, Q as u32, Q as u32),
};

impl ParseConsts {
    #[inline(always)]
    fn load() -> Self {
        ParseConsts {
            spread: opaque(&PARSE_CONSTS.spread),
            mask: opaque(&PARSE_CONSTS.mask),
            q: opaque(&PARSE_CONSTS.q),
        }
    }
}

/// The four CoeffFromThreeBytes candidates (FIPS 204 Algorithm 14) in
/// buf[i..i + 12], one per i32 lane, in [0, 2^23).
#[inline(always)]
fn candidates(buf: &[u8], i: usize, k: ParseConsts) -> v128 {
    // Checked always (it guards the load below); the callers' loop conditions
    // imply it, so it folds away.
    assert!(i + 16 <= buf.len());
    // Lane j gets bytes i + 3j, i + 3j + 1, i + 3j + 2 (`k.spread`); its top
    // byte is masked off with the top bit of the third (`k.mask`).
    // SAFETY: i + 16 ≤ buf.len() (the last 4 bytes are loaded, not used);
    // v128.load needs no alignment.
    let v = unsafe { v128_load(buf.as_ptr().add(i) as *const v128) };
    v128_and(i8x16_swizzle(v, k.spread), k.mask)
}

/// The sign bits of z − q: set exactly where a candidate z < 2^23 is below q,
/// i.e. accepted (a subtraction instead of a compare, which LLVM would emit
/// as an unsigned one that V8 lowers to several instructions).
#[inline(always)]
fn below_q(z: v128, k: ParseConsts) -> v128 {
    i32x4_sub(z, k.q)
}

/// Stores v at a[m..m + 4].
#[inline(always)]
fn store_at(a: &mut Poly, m: usize, v: v128) {
    assert!(m + 4 <= N); // folds away as above
                         // SAFETY: m + 4 ≤ N; v128.store needs no alignment.
    unsafe { v128_store(a.0.as_mut_ptr().add(m) as *mut v128, v) }
}

impl SampleKernels for Simd128 {
    /// `Portable::rej_ntt_parse_vartime` (FIPS 204 Algorithms 14 and 30), 16 candidates
    /// per step. The input (from ρ) is public, so the code branches on
    /// acceptance: a step whose candidates are all accepted (probability
    /// (q/2^23)^16 ≈ 0.984) stores them as they are, and any other step is parsed
    /// by the portable code (cheaper on average than compacting lanes through a
    /// table of shuffles). A step runs only if it cannot pass N (it keeps at most
    /// the 16 it parses) and reads only inside `buf`; the last < 16 candidates of
    /// a polynomial and the last < 52 bytes of `buf` are left to the portable code.
    /// Not inlined: one copy serves the one- and two-lane samplers.
    #[inline(never)]
    fn rej_ntt_parse_vartime(buf: &[u8], a: &mut Poly, n: &mut usize) {
        let (mut i, mut m) = (0, *n);
        let k = ParseConsts::load();
        // Reads buf[i..i + 52], parses buf[i..i + 48].
        // In forms that cannot wrap, so that they imply the asserts of
        // `candidates` and `store_at`.
        while buf.len() >= 52 && i <= buf.len() - 52 && m <= N - 16 {
            let z = [
                candidates(buf, i, k),
                candidates(buf, i + 12, k),
                candidates(buf, i + 24, k),
                candidates(buf, i + 36, k),
            ];
            let all =
                v128_and(v128_and(below_q(z[0], k), below_q(z[1], k)), v128_and(below_q(z[2], k), below_q(z[3], k)));
            if i32x4_bitmask(all) == 15 {
                for (k, &zk) in z.iter().enumerate() {
                    store_at(a, m + 4 * k, zk);
                }
                m += 16;
            } else {
                Portable::rej_ntt_parse_vartime(&buf[i..i + 48], a, &mut m);
            }
            i += 48;
        }
        *n = m;
        Portable::rej_ntt_parse_vartime(&buf[i..], a, n);
    }

    /// `Portable::rej_bounded_parse` (FIPS 204 Algorithms 15 and 31): 16
    /// half-bytes (8 bytes) per step. The map and the keep flags are computed
    /// lane-wise: `i8x16_swizzle` of a constant table by the half-byte is a
    /// register permutation, not a memory access. The values are then placed as
    /// in the portable code (each lane stored at *n, *n advanced by its keep
    /// bit), straight from the vector lanes: a table of compaction patterns would
    /// be indexed by secret data (and a compaction by constant shuffles is slower
    /// in V8, PERF.md). Not inlined: one copy serves the one- and two-lane
    /// samplers.
    #[inline(never)]
    fn rej_bounded_parse(buf: &[u8], eta: i32, a: &mut Poly, n: &mut usize) {
        // For each half-byte z: η − (z mod (2η + 1)) (unused where z is
        // rejected), and −1 if z is kept (z < 15 for η = 2, z < 9 for η = 4).
        let (map, keeps) = if eta == 2 {
            (
                i8x16(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0),
                i8x16(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0),
            )
        } else {
            (
                i8x16(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0),
                i8x16(-1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0),
            )
        };
        let spread = i8x16(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
        // Read at run time, outside the loop (`opaque`).
        let (odd, low) = (opaque(&u16x8_splat(0xff00)), opaque(&u8x16_splat(15)));
        let (mut i, mut m) = (0, *n);
        // A step reads buf[i..i + 8] and writes a[m..m + 16] at most.
        while i + 8 <= buf.len() && m + 16 <= N {
            let bytes = u64::from_le_bytes(buf[i..i + 8].try_into().unwrap());
            let b = i8x16_swizzle(u64x2_splat(bytes), spread);
            // Lane 2k: low half-byte of byte k; lane 2k + 1: its high half-byte,
            // the top of the 16-bit lane (byte k twice) shifted by 4 (an 8-bit
            // shift would cost V8 a mask of its own).
            let z = v128_bitselect(u16x8_shr(b, 4), v128_and(b, low), odd);
            let c = i8x16_swizzle(map, z);
            // Bit j set if lane j is kept.
            let bits = i8x16_bitmask(i8x16_swizzle(keeps, z)) as u32;
            let (c0, c1) = (i16x8_extend_low_i8x16(c), i16x8_extend_high_i8x16(c));
            let out: &mut [i32; 16] = (&mut a.0[m..m + 16]).try_into().unwrap();
            let mut k = 0;
            place4(out, &mut k, i32x4_extend_low_i16x8(c0), bits);
            place4(out, &mut k, i32x4_extend_high_i16x8(c0), bits >> 4);
            place4(out, &mut k, i32x4_extend_low_i16x8(c1), bits >> 8);
            place4(out, &mut k, i32x4_extend_high_i16x8(c1), bits >> 12);
            m += k;
            i += 8;
        }
        *n = m;
        Portable::rej_bounded_parse(&buf[i..], eta, a, n);
    }
}

/// The four lanes of v stored at out[k], k advanced past each lane whose bit
/// (from bit 0 up) is set in `bits`. k ≤ 12 on entry, so every index is at
/// most 15 and `k & 15` is k (it spares a bounds check).
#[inline(always)]
fn place4(out: &mut [i32; 16], k: &mut usize, v: v128, bits: u32) {
    out[*k & 15] = i32x4_extract_lane::<0>(v);
    *k += (bits & 1) as usize;
    out[*k & 15] = i32x4_extract_lane::<1>(v);
    *k += (bits >> 1 & 1) as usize;
    out[*k & 15] = i32x4_extract_lane::<2>(v);
    *k += (bits >> 2 & 1) as usize;
    out[*k & 15] = i32x4_extract_lane::<3>(v);
    *k += (bits >> 3 & 1) as usize;
}

#[cfg(test)]
mod tests {
    use crate::backend::{Portable, SampleKernels, Simd128};
    use crate::sample::streams;
    use crate::test_rng::Rng;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Same coefficients and same final n as the portable parsers, on random
    /// and adversarial streams of every length the samplers use, from start
    /// indices up to N (so the stop at N falls inside a vector step).
    #[test]
    fn parsers_equal_portable() {
        streams::compare(
            Rng(0x2545_f491_4f6c_dd1d),
            (Simd128::rej_ntt_parse_vartime, Portable::rej_ntt_parse_vartime),
            (Simd128::rej_bounded_parse, Portable::rej_bounded_parse),
        );
    }
}
