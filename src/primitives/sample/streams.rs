//! Input streams for the parsers' differential tests (`portable/sample.rs`
//! against the parsers as FIPS 204 writes them, `simd128/sample.rs` against
//! `portable/sample.rs`): random bytes and adversarial ones, at every length the samplers use and many
//! short ones, with start indices up to and at N.

use crate::params::{N, Q};
use crate::ring::Poly;
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
pub fn compare(
    mut rng: Rng,
    (ntt, ntt_ref): (NttParser, NttParser),
    (bounded, bounded_ref): (BoundedParser, BoundedParser),
) {
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
