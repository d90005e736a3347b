//! Input layouts shared by the fuzz targets (`fuzz_targets/`) and the seed
//! generator (`examples/seeds.rs`), so that seeds start from valid structure.
//!
//! Every target reads its input front to back with [`Input`]; a short input
//! gives short (or zero) fields, never a panic in the harness itself.

use mldsa_simd::ParamSet;

pub const SETS: [ParamSet; 3] = [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87];

/// The first byte of the ML-DSA targets: the parameter set in its low bits
/// (value mod 3 of the low nibble), the target's mode in the top bit.
pub fn header(b: u8) -> (ParamSet, bool) {
    (SETS[usize::from(b & 0x0f) % 3], b & 0x80 != 0)
}

/// The header byte for a set index (0, 1, 2) and a mode.
pub fn header_byte(set: usize, mode: bool) -> u8 {
    set as u8 | if mode { 0x80 } else { 0 }
}

pub struct Input<'a>(pub &'a [u8]);

impl<'a> Input<'a> {
    /// The next byte, 0 past the end.
    pub fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }
    /// Two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from(self.byte()) | u16::from(self.byte()) << 8
    }
    /// Up to `n` bytes (fewer at the end).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (a, b) = self.0.split_at(n.min(self.0.len()));
        self.0 = b;
        a
    }
    /// Exactly `n` bytes, zero-padded at the end.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let t = self.take(N);
        out[..t.len()].copy_from_slice(t);
        out
    }
    pub fn rest(self) -> &'a [u8] {
        self.0
    }
}

/// A context string: a length byte, then that many bytes.
pub fn context<'a>(inp: &mut Input<'a>) -> &'a [u8] {
    let n = inp.byte();
    inp.take(usize::from(n))
}

/// `sig` with bit `bit` (mod its length in bits) flipped.
pub fn flip_bit(sig: &[u8], bit: usize) -> Vec<u8> {
    let mut s = sig.to_vec();
    let bit = bit % (8 * s.len());
    s[bit / 8] ^= 1 << (bit % 8);
    s
}

/// LZMA properties from one byte as the .lzma header writes them:
/// (pb·5 + lp)·9 + lc; bytes ≥ 225 give pb ≥ 5 (refused by the decoder).
pub fn lzma_props(b: u8) -> (u32, u32, u32) {
    let b = u32::from(b);
    (b % 9, b / 9 % 5, b / 45)
}
