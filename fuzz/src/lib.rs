//! Input layouts shared by the fuzz targets (`fuzz_targets/`) and the seed
//! generator (`examples/seeds.rs`), so that seeds start from valid structure.
//!
//! Every target reads its input front to back with [`Input`]; a short input
//! gives short (or zero) fields, never a panic in the harness itself.

use mldsa_simd::ParamSet;

pub const SETS: [ParamSet; 3] = [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87];

/// The first byte of the ML-DSA targets: the parameter set in its low bits
/// (value mod 3 of the low nibble), and two flags that each target gives its
/// own meaning: the top bit (a mode) and the bit below it (costlier checks).
pub fn header(b: u8) -> (ParamSet, bool, bool) {
    (SETS[usize::from(b & 0x0f) % 3], b & 0x80 != 0, b & 0x40 != 0)
}

/// The header byte for a set index (0, 1, 2) and the two flags.
pub fn header_byte(set: usize, top: bool, second: bool) -> u8 {
    set as u8 | if top { 0x80 } else { 0 } | if second { 0x40 } else { 0 }
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

/// The numbers of FIPS 204 Table 1 that the harness's own checks need, written
/// out here again (not taken from the crate) so that they are independent of it.
pub struct Table {
    pub k: usize,
    pub l: usize,
    pub eta: u32,
    pub omega: usize,
    pub c_tilde_bytes: usize,
    pub z_bits: usize,
}

pub fn table(ps: ParamSet) -> Table {
    match ps {
        ParamSet::MlDsa44 => Table { k: 4, l: 4, eta: 2, omega: 80, c_tilde_bytes: 32, z_bits: 18 },
        ParamSet::MlDsa65 => Table { k: 6, l: 5, eta: 4, omega: 55, c_tilde_bytes: 48, z_bits: 20 },
        ParamSet::MlDsa87 => Table { k: 8, l: 7, eta: 2, omega: 75, c_tilde_bytes: 64, z_bits: 20 },
    }
}

/// Bits [bit, bit + width) of `bytes`, least significant first (FIPS 204's bit order).
fn bits_at(bytes: &[u8], bit: usize, width: usize) -> u32 {
    (0..width).map(|i| u32::from(bytes[(bit + i) / 8] >> ((bit + i) % 8) & 1) << i).sum()
}

/// Whether every s1 and s2 coefficient of an encoded secret key lies in
/// [−η, η]: skDecode's BitUnpack (FIPS 204 Algorithms 19, 25) stores η − s in
/// bitlen(2η) bits, so each stored value must be at most 2η. `sk` must have
/// its set's length.
pub fn sk_in_range(ps: ParamSet, sk: &[u8]) -> bool {
    let t = table(ps);
    let width = if t.eta == 2 { 3 } else { 4 };
    let s = &sk[128..128 + 32 * width * (t.k + t.l)];
    (0..256 * (t.k + t.l)).all(|i| bits_at(s, i * width, width) <= 2 * t.eta)
}

/// Whether the hint of an encoded signature is well formed (HintBitUnpack,
/// FIPS 204 Algorithm 21): the k counts at the end never decrease and stay at
/// most ω, the indices of each polynomial strictly increase, and the unused
/// index bytes are zero. `sig` must have its set's length.
pub fn hint_well_formed(ps: ParamSet, sig: &[u8]) -> bool {
    let t = table(ps);
    let y = &sig[sig.len() - t.omega - t.k..];
    let mut index = 0;
    for i in 0..t.k {
        let end = usize::from(y[t.omega + i]);
        if end < index || end > t.omega {
            return false;
        }
        if (index + 1..end).any(|j| y[j - 1] >= y[j]) {
            return false;
        }
        index = end;
    }
    y[index..t.omega].iter().all(|&b| b == 0)
}

/// Whether every coefficient of z is below γ1 − β in size, z = γ1 − (stored
/// value) (FIPS 204 Algorithm 27 and the norm check of Algorithm 8 step 13).
pub fn z_in_range(ps: ParamSet, sig: &[u8]) -> bool {
    let t = table(ps);
    let (gamma1, beta): (i64, i64) = match ps {
        ParamSet::MlDsa44 => (1 << 17, 78),
        ParamSet::MlDsa65 => (1 << 19, 196),
        ParamSet::MlDsa87 => (1 << 19, 120),
    };
    let z = &sig[t.c_tilde_bytes..];
    (0..256 * t.l).all(|i| (gamma1 - i64::from(bits_at(z, i * t.z_bits, t.z_bits))).abs() < gamma1 - beta)
}
