//! The samplers' parsers in plain Rust: the reference for `simd128.rs` (same
//! functions, same order) and the code used off wasm.
//!
//! Both parsers write each candidate at index *n and keep it by advancing *n
//! only if it is accepted (the next write overwrites a rejected one), so no
//! branch depends on a candidate. The stop at N is the failed `get_mut(*n)`,
//! which is also the bounds check: one test per candidate.

use super::Poly;
use crate::params::Q;

/// Parses CoeffFromThreeBytes candidates (FIPS 204 Algorithm 14) from `buf`
/// into a from index *n on (RejNTTPoly, Algorithm 30, steps 4–10), stopping
/// at N; whole 3-byte groups only. Coefficients are in [0, q).
pub fn rej_ntt_parse(buf: &[u8], a: &mut Poly, n: &mut usize) {
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

/// Parses CoeffFromHalfByte values (FIPS 204 Algorithm 15) from `buf` into a
/// from index *n on (RejBoundedPoly, Algorithm 31, steps 4–12), low half-byte
/// first, stopping at N; coefficients in [−η, η].
///
/// The stream is secret. Which half-bytes are rejected may leak, and only
/// that does: the stores go to *n and the stop checks test *n, both functions
/// of the rejection pattern alone. That pattern is independent of s1, s2: each
/// half-byte is uniform and independent of the others, and a kept one is
/// uniform on [0, 15) (η = 2) or [0, 9) (η = 4) whatever the pattern, so the
/// pattern says nothing about the kept values; the rejected ones are
/// discarded (Dilithium round-3 specification v3.1, §5.5, which mldsa-native
/// cites for the same point). `scripts/ct.sh` checks that nothing else leaks.
///
/// The map needs no division: for z < 15, z mod 5 = z − 5·⌊205·z / 1024⌋
/// (z = 15 is rejected).
pub fn rej_bounded_parse(buf: &[u8], eta: i32, a: &mut Poly, n: &mut usize) {
    if eta == 2 {
        bounded::<2>(buf, a, n)
    } else {
        bounded::<4>(buf, a, n)
    }
}

/// One half-byte z: the coefficient η − (z mod (2η + 1)) and whether z is kept.
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
            // Declassified: whether this half-byte is kept (see above).
            m += crate::ct::declassified(keep);
        }
    }
    *n = m;
}

/// Input streams for the parsers' tests (here and in `simd128.rs`): random
/// bytes and adversarial ones, at every length the samplers use and many
/// short ones, with start indices up to and at N.
#[cfg(test)]
pub(super) mod streams {
    use crate::params::{N, Q};
    use crate::poly::Poly;
    use crate::test_rng::Rng;

    /// Lengths: all up to 64, and around one and five SHAKE128 blocks and
    /// one and two SHAKE256 blocks.
    pub fn lengths() -> impl Iterator<Item = usize> {
        (0..=64).chain(130..=140).chain(165..=171).chain([272, 336, 504, 672]).chain(837..=843)
    }

    /// Where parsing starts: the beginning, the middle, and every index near N.
    pub fn starts() -> impl Iterator<Item = usize> {
        [0, 1, 2, 3, 5, 100, 200].into_iter().chain(236..=N)
    }

    /// Kinds of stream for `ntt` and `half_bytes`.
    pub const KINDS: usize = 9;

    /// Streams of 3-byte candidates, `kind` < KINDS: random bytes, all
    /// rejected (0xFF), all accepted (0x00), candidates at q − 1, q and
    /// 2^23 − 1, mixes of accepted and rejected ones at several rates, all
    /// accepted but the last few, and accepted ones with a rare q (the least
    /// rejected value); the ignored bit 23 is set at random.
    pub fn ntt(kind: usize, len: usize, rng: &mut Rng) -> Vec<u8> {
        let p = [0, 0, 0, 0, 50, 10, 90, 0, 0][kind];
        let mut v = Vec::with_capacity(len + 3);
        let cands = len.div_ceil(3);
        for i in 0..cands {
            let r = rng.next();
            let z: u32 = match kind {
                0 => r as u32,
                1 => 0xff_ffff,
                2 => 0,
                3 => [Q as u32 - 1, Q as u32, 0x7f_ffff, 0][(r % 4) as usize] | ((r >> 8) as u32 & 1) << 23,
                7 if i + 1 + (r % 5) as usize >= cands => Q as u32 + (r >> 40) as u32 % 0x1fff,
                8 if r % 50 == 0 => Q as u32,
                _ if (r % 100) < p => Q as u32 + (r >> 40) as u32 % (0x80_0000 - Q as u32),
                _ => (r >> 40) as u32 % Q as u32,
            };
            // Bit 23 is dropped by the parser: set it at random.
            let z = z | ((r >> 20) as u32 & 1) << 23;
            v.extend_from_slice(&z.to_le_bytes()[..3]);
        }
        v.truncate(len);
        v
    }

    /// Streams of half-bytes, `kind` < KINDS: random bytes, all 0xFF (15 is
    /// rejected for both η), all 0x00, all in 9..=14 (kept for η = 2 only),
    /// mixes at several rates of rejection, all kept but the last few, and
    /// kept ones with a rare least rejected value (15 or 9).
    pub fn half_bytes(kind: usize, len: usize, eta: i32, rng: &mut Rng) -> Vec<u8> {
        let bound = if eta == 2 { 15 } else { 9 };
        let p = [0, 0, 0, 0, 50, 10, 90, 0, 0][kind];
        let mut nib = |i: usize| -> u8 {
            let r = rng.next();
            match kind {
                0 => r as u8 & 15,
                1 => 15,
                2 => 0,
                3 => 9 + (r % 6) as u8,
                7 if i + 1 + (r % 7) as usize >= 2 * len => bound + (r >> 8) as u8 % (16 - bound),
                8 if r % 30 == 0 => bound,
                _ if (r % 100) < p => bound + (r >> 8) as u8 % (16 - bound),
                _ => (r >> 8) as u8 % bound,
            }
        };
        (0..len).map(|i| nib(2 * i) | nib(2 * i + 1) << 4).collect()
    }

    /// A parser of RejNTTPoly candidates or of RejBoundedPoly half-bytes.
    pub type NttParser = fn(&[u8], &mut Poly, &mut usize);
    pub type BoundedParser = fn(&[u8], i32, &mut Poly, &mut usize);

    /// Runs each parser and its reference on every stream kind and length
    /// from every start index, from the same initial polynomial; asserts the
    /// same final n and the same coefficients below it.
    pub fn compare(mut rng: Rng, (ntt, ntt_ref): (NttParser, NttParser), (bounded, bounded_ref): (BoundedParser, BoundedParser)) {
        for len in lengths() {
            for kind in 0..KINDS {
                let buf = self::ntt(kind, len, &mut rng);
                for n0 in starts() {
                    let init = rng.poly_in(0, Q - 1);
                    let (mut a, mut b) = (init, init);
                    let (mut na, mut nb) = (n0, n0);
                    ntt(&buf, &mut a, &mut na);
                    ntt_ref(&buf, &mut b, &mut nb);
                    assert_eq!((na, &a.0[..na]), (nb, &b.0[..nb]), "ntt kind {kind} len {len} n0 {n0}");
                }
                for eta in [2, 4] {
                    let buf = half_bytes(kind, len, eta, &mut rng);
                    for n0 in starts() {
                        let init = rng.poly(eta);
                        let (mut a, mut b) = (init, init);
                        let (mut na, mut nb) = (n0, n0);
                        bounded(&buf, eta, &mut a, &mut na);
                        bounded_ref(&buf, eta, &mut b, &mut nb);
                        assert_eq!((na, &a.0[..na]), (nb, &b.0[..nb]), "bounded η {eta} kind {kind} len {len} n0 {n0}");
                    }
                }
            }
        }
    }
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
        streams::compare(Rng(0x9e37_79b9_7f4a_7c15), (rej_ntt_parse, ntt_naive), (rej_bounded_parse, bounded_naive));
    }
}
