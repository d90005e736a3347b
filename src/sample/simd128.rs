//! simd128 versions of `portable.rs` (same functions, same order), with the
//! same outputs: the same coefficients and the same final *n for any input.
//! Each vector loop runs only while a whole vector step fits in both the
//! input (no read past `buf`) and the polynomial (no write past N), and
//! leaves the rest to the portable code.

use super::portable;
use super::Poly;
use crate::params::{N, Q};
use core::arch::wasm32::*;
use zeroize::Zeroize;

/// Byte indices for `i8x16_swizzle` that move the i32 lanes of a vector whose
/// bits are set in the 4-bit index to the front, in order (the other lanes
/// get whatever; they are overwritten or beyond the stop).
static COMPACT: [[u8; 16]; 16] = compact_table();

const fn compact_table() -> [[u8; 16]; 16] {
    let mut t = [[0u8; 16]; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut out = 0;
        let mut lane = 0;
        while lane < 4 {
            if mask >> lane & 1 == 1 {
                let mut b = 0;
                while b < 4 {
                    t[mask][4 * out + b] = (4 * lane + b) as u8;
                    b += 1;
                }
                out += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    t
}

/// `portable::rej_ntt_parse` (FIPS 204 Algorithms 14 and 30): four candidates
/// (12 bytes) per step. The input (from ρ) is public, so the table index may
/// depend on which candidates are accepted.
pub fn rej_ntt_parse(buf: &[u8], a: &mut Poly, n: &mut usize) {
    // Lane j gets bytes 3j, 3j+1, 3j+2 and a zero byte (index ≥ 16).
    let spread = i8x16(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    let (low23, q) = (i32x4_splat(0x7f_ffff), i32x4_splat(Q));
    let (mut i, mut m) = (0, *n);
    // A step reads buf[i..i + 16] (the last 4 bytes unused) and writes
    // a[m..m + 4]; it keeps at most 4, so m ≤ N after it.
    while i + 16 <= buf.len() && m + 4 <= N {
        // SAFETY: i + 16 ≤ buf.len(); m + 4 ≤ N; v128 loads and stores need
        // no alignment.
        unsafe {
            let v = v128_load(buf.as_ptr().add(i) as *const v128);
            let z = v128_and(i8x16_swizzle(v, spread), low23);
            let keep = i32x4_bitmask(i32x4_lt(z, q)) as usize;
            let order = v128_load(COMPACT[keep].as_ptr() as *const v128);
            v128_store(a.0.as_mut_ptr().add(m) as *mut v128, i8x16_swizzle(z, order));
            m += keep.count_ones() as usize;
        }
        i += 12;
    }
    *n = m;
    portable::rej_ntt_parse(&buf[i..], a, n);
}

/// `portable::rej_bounded_parse` (FIPS 204 Algorithms 15 and 31): 16
/// half-bytes (8 bytes) per step. The map and the keep flags are computed
/// lane-wise: `i8x16_swizzle` of a constant table by the half-byte is a
/// register permutation, not a memory access. The values are then placed as
/// in the portable code (stored at *n, *n advanced by the keep flag), since a
/// table of compaction patterns would be indexed by secret data.
pub fn rej_bounded_parse(buf: &[u8], eta: i32, a: &mut Poly, n: &mut usize) {
    // η − (z mod (2η + 1)) for each half-byte z; unused where z is rejected.
    let (map, bound) = if eta == 2 {
        (i8x16(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0), 15)
    } else {
        (i8x16(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0), 9)
    };
    let bound = u8x16_splat(bound);
    let spread = i8x16(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    let odd = u16x8_splat(0xff00);
    let (mut i, mut m) = (0, *n);
    let mut vals = [0i32; 16];
    let mut keep = [0u8; 16];
    // A step reads buf[i..i + 8] and writes a[m..m + 16] at most.
    while i + 8 <= buf.len() && m + 16 <= N {
        let bytes = u64::from_le_bytes(buf[i..i + 8].try_into().unwrap());
        let b = i8x16_swizzle(u64x2_splat(bytes), spread);
        // Lane 2k: low half-byte of byte k; lane 2k + 1: its high half-byte.
        let z = v128_bitselect(u8x16_shr(b, 4), v128_and(b, u8x16_splat(15)), odd);
        let c = i8x16_swizzle(map, z);
        let k = v128_and(u8x16_lt(z, bound), u8x16_splat(1));
        let (c0, c1) = (i16x8_extend_low_i8x16(c), i16x8_extend_high_i8x16(c));
        // SAFETY: `vals` holds 16 i32 (four v128), `keep` 16 bytes.
        unsafe {
            let p = vals.as_mut_ptr() as *mut v128;
            v128_store(p, i32x4_extend_low_i16x8(c0));
            v128_store(p.add(1), i32x4_extend_high_i16x8(c0));
            v128_store(p.add(2), i32x4_extend_low_i16x8(c1));
            v128_store(p.add(3), i32x4_extend_high_i16x8(c1));
            v128_store(keep.as_mut_ptr() as *mut v128, k);
        }
        for j in 0..16 {
            a.0[m] = vals[j];
            m += keep[j] as usize;
        }
        i += 8;
    }
    vals.zeroize();
    keep.zeroize();
    *n = m;
    portable::rej_bounded_parse(&buf[i..], eta, a, n);
}

#[cfg(test)]
mod tests {
    use super::super::portable::streams;
    use super::*;
    use crate::test_rng::Rng;
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// Same coefficients and same final n as the portable parsers, on random
    /// and adversarial streams of every length the samplers use, from start
    /// indices up to N (so the stop at N falls inside a vector step).
    #[test]
    fn parsers_equal_portable() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for len in streams::lengths() {
            for kind in 0..8 {
                let buf = streams::ntt(kind, len, &mut rng);
                for n0 in streams::starts() {
                    let init = rng.poly_in(0, Q - 1);
                    let (mut a, mut b) = (init, init);
                    let (mut na, mut nb) = (n0, n0);
                    rej_ntt_parse(&buf, &mut a, &mut na);
                    portable::rej_ntt_parse(&buf, &mut b, &mut nb);
                    assert_eq!((na, &a.0[..na]), (nb, &b.0[..nb]), "ntt kind {kind} len {len} n0 {n0}");
                }
                for eta in [2, 4] {
                    let buf = streams::half_bytes(kind, len, eta, &mut rng);
                    for n0 in streams::starts() {
                        let init = rng.poly(eta);
                        let (mut a, mut b) = (init, init);
                        let (mut na, mut nb) = (n0, n0);
                        rej_bounded_parse(&buf, eta, &mut a, &mut na);
                        portable::rej_bounded_parse(&buf, eta, &mut b, &mut nb);
                        assert_eq!((na, &a.0[..na]), (nb, &b.0[..nb]), "bounded η {eta} kind {kind} len {len} n0 {n0}");
                    }
                }
            }
        }
    }
}
