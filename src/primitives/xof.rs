//! SHAKE128 and SHAKE256 (FIPS 202 §6.2) on our Keccak-f[1600], behind the
//! small interface the algorithms use: H and G of FIPS 204 §3.7 and §7.3,
//! and two-lane versions that run two sponges with different seeds at once
//! for the samplers of FIPS 204 §7.3 (ExpandA, ExpandS, ExpandMask).
//!
//! The sponge (FIPS 202 Algorithm 8) keeps the string of b = 1600 bits as 25
//! little-endian lanes; byte i of it is byte i % 8 of lane i / 8. SHAKE's
//! padding is the suffix 1111 then pad10*1 (FIPS 202 §6.2, B.2): byte 0x1F at
//! the first free position and 0x80 at the last byte of the block.

use crate::backend::StatePair;
use crate::keccak::{f1600, f1600_x2, StateX2};
use zeroize::Zeroize;

/// SHAKE128 rate in bytes: the natural squeeze unit for G.
pub const SHAKE128_RATE: usize = 168;
/// SHAKE256 rate in bytes: the natural squeeze unit for H.
pub const SHAKE256_RATE: usize = 136;

/// Domain-separation suffix and first padding bit of SHAKE (bits 1111, then 1).
pub(crate) const SHAKE_PAD: u8 = 0x1f;
/// Domain-separation suffix and first padding bit of SHA-3 (bits 01, then 1).
pub(crate) const SHA3_PAD: u8 = 0x06;

/// XORs `data` into the state from byte position `pos` (pos + data.len() ≤ 200).
#[inline(never)]
fn xor_bytes(a: &mut [u64; 25], pos: usize, data: &[u8]) {
    let (mut pos, mut data) = (pos, data);
    // Head and tail byte by byte, whole lanes at once in between.
    while pos % 8 != 0 && !data.is_empty() {
        a[pos / 8] ^= (data[0] as u64) << (8 * (pos % 8));
        pos += 1;
        data = &data[1..];
    }
    // One bounds check for all whole lanes instead of one a lane. The whole
    // lanes are split off before the loop, not left in the iterator for its
    // remainder: that compiles to fewer instructions, which counts in the
    // absorbing loop of a long message (one call a block).
    let (whole, tail) = data.split_at(data.len() & !7);
    for (l, w) in a[pos / 8..pos / 8 + whole.len() / 8].iter_mut().zip(whole.chunks_exact(8)) {
        *l ^= u64::from_le_bytes(w.try_into().unwrap());
    }
    pos += whole.len();
    for &b in tail {
        a[pos / 8] ^= (b as u64) << (8 * (pos % 8));
        pos += 1;
    }
}

/// Copies bytes pos.. of the state into `out` (pos + out.len() ≤ 200).
#[inline(never)]
fn read_bytes(a: &[u64; 25], pos: usize, out: &mut [u8]) {
    let (mut pos, mut out) = (pos, out);
    while pos % 8 != 0 && !out.is_empty() {
        out[0] = (a[pos / 8] >> (8 * (pos % 8))) as u8;
        pos += 1;
        out = &mut out[1..];
    }
    let mut lanes = out.chunks_exact_mut(8);
    let whole = lanes.len();
    for (w, l) in (&mut lanes).zip(&a[pos / 8..pos / 8 + whole]) {
        w.copy_from_slice(&l.to_le_bytes());
    }
    pos += 8 * whole;
    for b in lanes.into_remainder() {
        *b = (a[pos / 8] >> (8 * (pos % 8))) as u8;
        pos += 1;
    }
}

/// The absorbing step of the sponge (FIPS 202 Algorithm 8, steps 5–6) from
/// byte position pos < rate of the current block; returns the new position.
/// Shared by every rate, and not inlined, to keep the .wasm small.
#[inline(never)]
fn absorb(a: &mut [u64; 25], mut pos: usize, rate: usize, mut data: &[u8]) -> usize {
    while !data.is_empty() {
        let take = data.len().min(rate - pos);
        xor_bytes(a, pos, &data[..take]);
        pos += take;
        data = &data[take..];
        if pos == rate {
            f1600(a);
            pos = 0;
        }
    }
    pos
}

/// The squeezing steps of the sponge (FIPS 202 Algorithm 8, steps 8–10) from
/// byte position 0 < pos ≤ rate of the current output block; returns the new
/// position.
#[inline(never)]
fn squeeze(a: &mut [u64; 25], mut pos: usize, rate: usize, mut out: &mut [u8]) -> usize {
    while !out.is_empty() {
        if pos == rate {
            f1600(a);
            pos = 0;
        }
        let take = out.len().min(rate - pos);
        read_bytes(a, pos, &mut out[..take]);
        pos += take;
        out = &mut out[take..];
    }
    pos
}

/// A Keccak[c] sponge with rate RATE bytes in its absorbing phase.
#[derive(Clone)]
pub struct Sponge<const RATE: usize> {
    a: [u64; 25],
    /// Bytes of the current block absorbed so far: 0 ≤ pos < RATE.
    pos: usize,
}

/// The sponge in its squeezing phase.
pub struct Squeeze<const RATE: usize> {
    a: [u64; 25],
    /// Bytes of the current block already output: 0 < pos ≤ RATE.
    pos: usize,
}

pub type Shake128 = Sponge<SHAKE128_RATE>;
pub type Shake256 = Sponge<SHAKE256_RATE>;

impl<const RATE: usize> Default for Sponge<RATE> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const RATE: usize> Sponge<RATE> {
    pub fn new() -> Self {
        Sponge { a: [0; 25], pos: 0 }
    }
    pub fn absorb(mut self, data: &[u8]) -> Self {
        self.update(data);
        self
    }
    pub fn update(&mut self, data: &[u8]) {
        self.pos = absorb(&mut self.a, self.pos, RATE, data);
    }
    /// Pads with SHAKE's suffix and switches to squeezing.
    pub fn finalize(self) -> Squeeze<RATE> {
        self.finalize_with(SHAKE_PAD)
    }
    /// Pads with the given suffix-and-first-pad-bit byte (0x1F for SHAKE,
    /// 0x06 for SHA-3) and the final pad bit, then switches to squeezing.
    pub(crate) fn finalize_with(mut self, suffix: u8) -> Squeeze<RATE> {
        xor_bytes(&mut self.a, self.pos, &[suffix]);
        xor_bytes(&mut self.a, RATE - 1, &[0x80]);
        // The first block is permuted by the first squeeze.
        Squeeze { a: self.a, pos: RATE }
    }
}

/// Bytes of a saved absorbing state ([`save_state`]): the 25 lanes, then the position.
pub(crate) const STATE_BYTES: usize = 201;

/// Writes lanes `a` (little-endian, lane by lane) and the absorbing position
/// `pos` < 200 into `out`: what a caller that keeps a sponge between calls holds.
pub(crate) fn save_state(a: &[u64; 25], pos: usize, out: &mut [u8; STATE_BYTES]) {
    read_bytes(a, 0, &mut out[..200]);
    out[200] = pos as u8;
}

/// Reads what [`save_state`] wrote; None unless the position is below `rate`.
pub(crate) fn load_state(b: &[u8; STATE_BYTES], rate: usize) -> Option<([u64; 25], usize)> {
    let mut a = [0u64; 25];
    xor_bytes(&mut a, 0, &b[..200]);
    let pos = b[200] as usize;
    (pos < rate).then_some((a, pos))
}

impl<const RATE: usize> Sponge<RATE> {
    /// The absorbing state, for [`Sponge::from_bytes`]. Only for sponges over
    /// public data: the bytes are not wiped.
    pub(crate) fn to_bytes(&self) -> [u8; STATE_BYTES] {
        let mut out = [0u8; STATE_BYTES];
        save_state(&self.a, self.pos, &mut out);
        out
    }
    /// A sponge resumed from [`Sponge::to_bytes`]; None for bytes it cannot have written.
    pub(crate) fn from_bytes(b: &[u8; STATE_BYTES]) -> Option<Self> {
        load_state(b, RATE).map(|(a, pos)| Sponge { a, pos })
    }
}

impl<const RATE: usize> Squeeze<RATE> {
    pub fn squeeze(&mut self, out: &mut [u8]) {
        self.pos = squeeze(&mut self.a, self.pos, RATE, out);
    }
}

impl<const RATE: usize> Drop for Sponge<RATE> {
    fn drop(&mut self) {
        self.a.zeroize();
    }
}

impl<const RATE: usize> Drop for Squeeze<RATE> {
    fn drop(&mut self) {
        self.a.zeroize();
    }
}

/// H(inputs…, out.len()) = SHAKE256 of the concatenated inputs (FIPS 204 §3.7).
pub fn h(inputs: &[&[u8]], out: &mut [u8]) {
    let mut s = Shake256::new();
    for x in inputs {
        s.update(x);
    }
    s.finalize().squeeze(out);
}

/// Two SHAKE sponges run side by side (two lanes of one simd128 Keccak where
/// available). Both absorb one seed each, of equal length and shorter than
/// the rate (the samplers' seeds are 34 or 66 bytes), and then squeeze the
/// same number of bytes.
pub struct ShakeX2<const RATE: usize> {
    s: StateX2,
    /// Bytes of the current block already output: 0 < pos ≤ RATE.
    pos: usize,
}

pub type Shake128x2 = ShakeX2<SHAKE128_RATE>;
pub type Shake256x2 = ShakeX2<SHAKE256_RATE>;

impl<const RATE: usize> ShakeX2<RATE> {
    /// SHAKE(seed0) and SHAKE(seed1), each seed given in two parts (ρ and the
    /// index bytes), ready to squeeze. Panics unless both seeds have the same
    /// length and fit one block with its padding.
    pub fn new(seed0: [&[u8]; 2], seed1: [&[u8]; 2]) -> Self {
        ShakeX2 { s: absorb_x2(RATE, seed0, seed1), pos: RATE }
    }

    /// Fills out0 from the first sponge and out1 from the second; both the
    /// same length, any length.
    pub fn squeeze(&mut self, out0: &mut [u8], out1: &mut [u8]) {
        self.pos = squeeze_x2(&mut self.s, self.pos, RATE, out0, out1);
    }
}

/// The padded single block of each seed XORed into a zero state pair.
#[inline(never)]
fn absorb_x2(rate: usize, seed0: [&[u8]; 2], seed1: [&[u8]; 2]) -> StateX2 {
    let len = seed0[0].len() + seed0[1].len();
    assert!(len == seed1[0].len() + seed1[1].len());
    let mut b = [[0u64; 25]; 2];
    pad_seed(&mut b[0], rate, seed0);
    pad_seed(&mut b[1], rate, seed1);
    let s = StateX2::from_lanes(&b);
    b.zeroize();
    s
}

/// XORs a seed (in two parts, shorter than the rate) and SHAKE's padding
/// into a zero state: its one absorbed block, ready for the first permutation.
pub(crate) fn pad_seed(lane: &mut [u64; 25], rate: usize, seed: [&[u8]; 2]) {
    let len = seed[0].len() + seed[1].len();
    assert!(len < rate);
    xor_bytes(lane, 0, seed[0]);
    xor_bytes(lane, seed[0].len(), seed[1]);
    // SHAKE's padding (see the module comment): 0x1F at byte len, 0x80 at
    // byte rate − 1, the last byte of lane rate / 8 − 1 (both rates are
    // multiples of 8).
    lane[len / 8] ^= (SHAKE_PAD as u64) << (8 * (len % 8));
    lane[rate / 8 - 1] ^= 0x80 << 56;
}

/// XORs the first block of `rest`, what is left of a message, padded when it
/// is the last one (fewer than rate bytes), into state `which` of a pair:
/// absorbing a message into one state, a block before each permutation,
/// from a zero state.
pub(crate) fn xor_shake256_block(s: &mut StateX2, which: usize, rest: &[u8]) {
    const R: usize = SHAKE256_RATE;
    // The last block, 0 ≤ len < R bytes of message and the padding, is
    // copied once (a whole one is XORed from where it is).
    let mut last = [0u8; R];
    let block = if rest.len() >= R {
        &rest[..R]
    } else {
        last[..rest.len()].copy_from_slice(rest);
        last[rest.len()] = SHAKE_PAD;
        last[R - 1] ^= 0x80;
        &last[..]
    };
    s.xor_lanes(which, 0, block);
    last.zeroize();
}

/// `squeeze` for both states at once; 0 < pos ≤ rate as in `Squeeze`.
#[inline(never)]
fn squeeze_x2(s: &mut StateX2, mut pos: usize, rate: usize, out0: &mut [u8], out1: &mut [u8]) -> usize {
    assert_eq!(out0.len(), out1.len());
    let mut done = 0;
    while done < out0.len() {
        if pos == rate {
            f1600_x2(s);
            pos = 0;
        }
        let take = (out0.len() - done).min(rate - pos);
        if pos % 8 == 0 && take % 8 == 0 {
            s.read_lanes(pos / 8, &mut out0[done..done + take], &mut out1[done..done + take]);
        } else {
            for k in 0..take {
                let p = pos + k;
                let (v0, v1) = s.lane(p / 8);
                out0[done + k] = (v0 >> (8 * (p % 8))) as u8;
                out1[done + k] = (v1 >> (8 * (p % 8))) as u8;
            }
        }
        pos += take;
        done += take;
    }
    pos
}

impl<const RATE: usize> Drop for ShakeX2<RATE> {
    fn drop(&mut self) {
        self.s.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha3::digest::{Digest, ExtendableOutput, Update, XofReader};
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn msg(len: usize, salt: u8) -> Vec<u8> {
        (0..len).map(|i| (i as u8).wrapping_mul(31).wrapping_add(salt ^ (i >> 8) as u8)).collect()
    }

    #[test]
    fn shake_known_answers() {
        // FIPS 202 example values (NIST "SHAKE128_Msg0", "SHAKE256_Msg0").
        let mut o = [0u8; 8];
        Shake128::new().finalize().squeeze(&mut o);
        assert_eq!(o, [0x7f, 0x9c, 0x2b, 0xa4, 0xe8, 0x8f, 0x82, 0x7d]);
        h(&[], &mut o);
        assert_eq!(o, [0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13]);
        // SHA3-256("abc") (FIPS 202 examples, "SHA3-256_Msg24"): the SHA-3
        // padding path of the same sponge.
        let mut d = [0u8; 32];
        Sponge::<136>::new().absorb(b"abc").finalize_with(SHA3_PAD).squeeze(&mut d);
        assert_eq!(d[..8], [0x3a, 0x98, 0x5d, 0xa7, 0x4f, 0xe2, 0x25, 0xb2]);
        assert_eq!(d[24..], [0x46, 0xbf, 0xe2, 0x45, 0x11, 0x43, 0x15, 0x32]);
        // Absorbing in pieces equals absorbing at once; squeezing in pieces too.
        let mut a = [0u8; 300];
        let mut b = [0u8; 300];
        h(&[b"abc", b"def"], &mut a);
        let mut s = Shake256::new().absorb(b"abcdef").finalize();
        s.squeeze(&mut b[..137]);
        s.squeeze(&mut b[137..]);
        assert_eq!(a, b);
    }

    /// Our sponge against the `sha3` crate over lengths around every rate
    /// boundary, absorbing whole and in uneven pieces, squeezing whole and in
    /// uneven pieces.
    #[test]
    fn shake_equals_sha3_crate() {
        let lens: Vec<usize> = (0..=10)
            .chain([31, 32, 33, 34, 63, 64, 65, 66])
            .chain([135, 136, 137, 167, 168, 169, 271, 272, 273, 335, 336, 337, 1000, 4099])
            .collect();
        for &len in &lens {
            let m = msg(len, len as u8);
            for out_len in [1usize, 32, 135, 136, 137, 167, 168, 169, 500] {
                let mut want = vec![0u8; out_len];
                let mut r = sha3::Shake128::default();
                r.update(&m);
                r.finalize_xof().read(&mut want);
                let mut got = vec![0u8; out_len];
                Shake128::new().absorb(&m).finalize().squeeze(&mut got);
                assert_eq!(got, want, "SHAKE128 len {len} out {out_len}");

                let mut r = sha3::Shake256::default();
                r.update(&m);
                r.finalize_xof().read(&mut want);
                // Pieces of 1, 7 and 13 bytes in turn; output in pieces of 5 and 131.
                let mut s = Shake256::new();
                let (mut rest, mut k) = (&m[..], 0);
                while !rest.is_empty() {
                    let n = [1, 7, 13][k % 3].min(rest.len());
                    s.update(&rest[..n]);
                    rest = &rest[n..];
                    k += 1;
                }
                let mut sq = s.finalize();
                for (i, chunk) in got.chunks_mut(131).enumerate() {
                    let (a, b) = chunk.split_at_mut((5 * (i + 1)).min(chunk.len()));
                    sq.squeeze(a);
                    sq.squeeze(b);
                }
                assert_eq!(got, want, "SHAKE256 len {len} out {out_len}");
            }
            let mut d = [0u8; 32];
            Sponge::<136>::new().absorb(&m).finalize_with(SHA3_PAD).squeeze(&mut d);
            assert_eq!(d[..], sha3::Sha3_256::digest(&m)[..], "SHA3-256 len {len}");
        }
    }

    /// A message absorbed block by block into either state of a pair, beside
    /// a squeeze in the other, equals both one-lane sponges, for messages
    /// around every block and lane boundary.
    #[test]
    fn block_by_block_equals_sponge() {
        let seed = msg(66, 3);
        for len in [0usize, 1, 7, 8, 9, 64, 127, 128, 129, 135, 136, 137, 271, 272, 273, 832, 1088, 1500] {
            let m = msg(len, 9);
            let mut want = [0u8; 64];
            h(&[&m], &mut want);
            let blocks = len / SHAKE256_RATE + 1;
            let mut other = vec![0u8; 136 * blocks];
            h(&[&seed], &mut other);
            for which in 0..2 {
                let mut b = [[0u64; 25]; 2];
                pad_seed(&mut b[1 - which], SHAKE256_RATE, [&seed[..64], &seed[64..]]);
                let mut s = StateX2::from_lanes(&b);
                let (mut squeezed, mut digest) = (vec![], [0u8; 136]);
                for i in 0..blocks {
                    xor_shake256_block(&mut s, which, &m[i * SHAKE256_RATE..]);
                    f1600_x2(&mut s);
                    let mut o = [[0u8; 136]; 2];
                    let [o0, o1] = &mut o;
                    s.read_lanes(0, o0, o1);
                    squeezed.extend_from_slice(&o[1 - which]);
                    digest = o[which];
                }
                assert_eq!(digest[..64], want, "digest, len {len} state {which}");
                assert_eq!(squeezed, other, "squeeze, len {len} state {which}");
            }
        }
    }

    /// Pieces that leave the sponge at a block boundary and then hand it
    /// whole blocks, or stop one byte short of one, at three rates.
    #[test]
    fn absorb_whole_blocks_in_pieces() {
        fn check<const R: usize>(pieces: &[usize]) {
            let m = msg(pieces.iter().sum(), R as u8);
            let mut whole = [0u8; 64];
            let mut parts = [0u8; 64];
            Sponge::<R>::new().absorb(&m).finalize().squeeze(&mut whole);
            let mut s = Sponge::<R>::new();
            let mut rest = &m[..];
            for &n in pieces {
                s.update(&rest[..n]);
                rest = &rest[n..];
            }
            s.finalize().squeeze(&mut parts);
            assert_eq!(whole, parts, "rate {R} pieces {pieces:?}");
        }
        let shapes = |r: usize| {
            vec![
                vec![r, r, 3],
                vec![r - 1, 1, 2 * r + 5],
                vec![5, r - 5, r, 0, 3 * r],
                vec![1, 3 * r - 1, r],
                vec![2 * r, r - 1, 1, r],
            ]
        };
        for p in shapes(168) {
            check::<168>(&p);
        }
        for p in shapes(136) {
            check::<136>(&p);
        }
        for p in shapes(72) {
            check::<72>(&p);
        }
        // Against the sha3 crate too, with a block boundary in mid-message.
        let m = msg(5 * 136 + 17, 9);
        let mut want = [0u8; 64];
        let mut r = sha3::Shake256::default();
        r.update(&m);
        r.finalize_xof().read(&mut want);
        let mut got = [0u8; 64];
        Shake256::new().absorb(&m[..136]).absorb(&m[136..]).finalize().squeeze(&mut got);
        assert_eq!(got, want);
    }

    /// The two-lane sponges against two scalar ones, for the seed lengths the
    /// samplers use and the extreme lengths the API accepts.
    #[test]
    fn two_lane_shake_equals_scalar() {
        for len in [0usize, 1, 32, 34, 66, 134, 135, 166, 167] {
            let (m0, m1) = (msg(len, 1), msg(len, 2));
            let split = len / 3;
            for out_len in [0usize, 8, 136, 168, 576, 640, 840, 1000, 1001] {
                let (mut g0, mut g1) = (vec![0u8; out_len], vec![0u8; out_len]);
                let (mut w0, mut w1) = (vec![0u8; out_len], vec![0u8; out_len]);
                if len < SHAKE128_RATE {
                    let mut x = Shake128x2::new([&m0[..split], &m0[split..]], [&m1[..split], &m1[split..]]);
                    // Squeeze in two uneven parts to cover the unaligned path.
                    let cut = out_len / 3;
                    x.squeeze(&mut g0[..cut], &mut g1[..cut]);
                    x.squeeze(&mut g0[cut..], &mut g1[cut..]);
                    Shake128::new().absorb(&m0).finalize().squeeze(&mut w0);
                    Shake128::new().absorb(&m1).finalize().squeeze(&mut w1);
                    assert_eq!((&g0, &g1), (&w0, &w1), "SHAKE128x2 len {len} out {out_len}");
                }
                if len < SHAKE256_RATE {
                    let mut x = Shake256x2::new([&m0, &[]], [&m1, &[]]);
                    x.squeeze(&mut g0, &mut g1);
                    Shake256::new().absorb(&m0).finalize().squeeze(&mut w0);
                    Shake256::new().absorb(&m1).finalize().squeeze(&mut w1);
                    assert_eq!((&g0, &g1), (&w0, &w1), "SHAKE256x2 len {len} out {out_len}");
                }
            }
        }
    }
}
