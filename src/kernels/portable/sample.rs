//! The samplers' parsers in plain Rust: the reference for `simd128/sample.rs` (same
//! kernels, same order) and the code used off wasm.
//!
//! Both parsers write each candidate at index *n and keep it by advancing *n
//! only if it is accepted (the next write overwrites a rejected one), so no
//! branch depends on a candidate. The stop at N is the failed `get_mut(*n)`,
//! which is also the bounds check: one test per candidate.

use crate::backend::{Portable, SampleKernels};
use crate::params::Q;
use crate::ring::Poly;

impl SampleKernels for Portable {
    /// CoeffFromThreeBytes (FIPS 204 Algorithm 14) on each 3-byte group, in
    /// the loop of RejNTTPoly (Algorithm 30).
    fn rej_ntt_parse_vartime(buf: &[u8], a: &mut Poly, n: &mut usize) {
        let mut m = *n;
        // Not `chunks_exact(3)`: its length / 3 would be a division in the .wasm.
        let mut at = 0;
        while at + 3 <= buf.len() {
            let b = &buf[at..at + 3];
            at += 3;
            let Some(c) = a.0.get_mut(m) else { break };
            let z = (b[0] as i32) | (b[1] as i32) << 8 | ((b[2] & 0x7f) as i32) << 16;
            *c = z;
            m += (z < Q) as usize;
        }
        *n = m;
    }

    /// CoeffFromHalfByte (FIPS 204 Algorithm 15) on each half-byte, in the
    /// loop of RejBoundedPoly (Algorithm 31).
    fn rej_bounded_parse(buf: &[u8], eta: i32, a: &mut Poly, n: &mut usize) {
        if eta == 2 {
            bounded::<2>(buf, a, n)
        } else {
            bounded::<4>(buf, a, n)
        }
    }
}

/// One half-byte z: the coefficient η − (z mod (2η + 1)) and whether z is kept.
/// No division: for z < 15, z mod 5 = z − 5·⌊205·z / 1024⌋ (z = 15 is rejected).
#[inline(always)]
fn half_byte<const ETA: i32>(z: i32) -> (i32, usize) {
    if ETA == 2 {
        (2 - (z - 5 * ((205 * z) >> 10)), (z < 15) as usize)
    } else {
        (4 - z, (z < 9) as usize)
    }
}

fn bounded<const ETA: i32>(buf: &[u8], a: &mut Poly, n: &mut usize) {
    let mut m = *n;
    'bytes: for &b in buf {
        for z in [(b & 15) as i32, (b >> 4) as i32] {
            let Some(c) = a.0.get_mut(m) else { break 'bytes };
            let (v, keep) = half_byte::<ETA>(z);
            *c = v;
            // Declassified: whether this half-byte is kept (`SampleKernels::rej_bounded_parse`).
            m += crate::ct::declassified(keep);
        }
    }
    *n = m;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::N;
    use crate::test_rng::Rng;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The parsers as FIPS 204 writes them: one candidate at a time, stop
    /// checked before each.
    fn ntt_naive(buf: &[u8], a: &mut Poly, n: &mut usize) {
        for b in buf.chunks_exact(3) {
            if *n == N {
                return;
            }
            let z = (b[0] as i32) | (b[1] as i32) << 8 | ((b[2] & 0x7f) as i32) << 16;
            if z < Q {
                a.0[*n] = z;
                *n += 1;
            }
        }
    }

    fn bounded_naive(buf: &[u8], eta: i32, a: &mut Poly, n: &mut usize) {
        for &b in buf {
            for z in [(b & 15) as i32, (b >> 4) as i32] {
                if *n == N {
                    return;
                }
                if eta == 2 && z < 15 {
                    a.0[*n] = 2 - z % 5;
                    *n += 1;
                } else if eta == 4 && z < 9 {
                    a.0[*n] = 4 - z;
                    *n += 1;
                }
            }
        }
    }

    #[test]
    fn parsers_equal_the_naive_ones() {
        crate::sample::streams::compare(
            Rng(0x9e37_79b9_7f4a_7c15),
            (Portable::rej_ntt_parse_vartime, ntt_naive),
            (Portable::rej_bounded_parse, bounded_naive),
        );
    }
}
