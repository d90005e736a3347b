//! SHA-2 (FIPS 180-4) for the HashML-DSA pre-hashes: SHA-224, SHA-256,
//! SHA-384, SHA-512, SHA-512/224 and SHA-512/256.
//!
//! Written for size first (it replaced the `sha2` crate to save ~20 KB of
//! .wasm), then for speed at little size: one compression function per word
//! size (§6.2 for 32-bit words, §6.4 for 64-bit words) from one macro,
//! unrolled by 8 rounds, and one buffering/padding path for both. In wasm,
//! SHA-256 and SHA-512 run about as fast as the `sha2` crate (PERF.md). The
//! variants differ only in their initial hash value (§5.3) and in how many
//! leading bytes of the final hash are kept. Inputs are public messages: no secret-independence is
//! needed here.

use crate::backend::{Active, ShaKernels};
use alloc::vec::Vec;

/// The 80 round constants K of SHA-384/512 (§4.2.3). The 64 constants of
/// SHA-224/256 (§4.2.2) are the first 32 bits of the first 64 of these (both
/// are the fractional parts of the cube roots of the first primes).
pub(crate) const K64: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

/// Initial hash values (§5.3). SHA-256's are the first 32 bits of SHA-512's
/// and SHA-224's the last 32 bits of SHA-384's, so four tables serve six.
pub(crate) const IV_512: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];
const IV_384: [u64; 8] = [
    0xcbbb9d5dc1059ed8,
    0x629a292a367cd507,
    0x9159015a3070dd17,
    0x152fecd8f70e5939,
    0x67332667ffc00b31,
    0x8eb44a8768581511,
    0xdb0c2e0d64f98fa7,
    0x47b5481dbefa4fa4,
];
const IV_512_224: [u64; 8] = [
    0x8c3d37c819544da2,
    0x73e1996689dcd4d6,
    0x1dfab7ae32ff9c82,
    0x679dd514582f9fcf,
    0x0f6d2b697bd44da8,
    0x77e36f7304c48942,
    0x3f9d85a86a1d36c8,
    0x1112e6ad91d692a1,
];
const IV_512_256: [u64; 8] = [
    0x22312194fc2bf72c,
    0x9f555fa3c84c64c2,
    0x2393b86b6f53b151,
    0x963877195940eabd,
    0x96283ee2a88effe3,
    0xbe5e1e2553863992,
    0x2b0199fc2c85b8aa,
    0x0eb72ddc81c52ca2,
];

/// The six SHA-2 functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Sha224,
    Sha256,
    Sha384,
    Sha512,
    Sha512_224,
    Sha512_256,
}

enum Words {
    /// SHA-224/256: eight 32-bit words, 64-byte blocks.
    W32([u32; 8]),
    /// SHA-384/512 and SHA-512/t: eight 64-bit words, 128-byte blocks.
    W64([u64; 8]),
}

/// An incremental SHA-2 hash.
pub struct Sha2 {
    h: Words,
    /// The block being filled; SHA-224/256 use its first 64 bytes.
    buf: [u8; 128],
    /// Bytes in `buf`, always < the block length between calls.
    fill: usize,
    /// Message bytes so far (a message of 2^64 bytes or more cannot exist here).
    total: u64,
    /// Bytes of the final hash value to output (the truncation of SHA-224 and SHA-512/t).
    out_len: usize,
}

impl Sha2 {
    pub fn new(v: Variant) -> Sha2 {
        let (iv, out_len) = match v {
            Variant::Sha224 => (IV_384, 28),
            Variant::Sha256 => (IV_512, 32),
            Variant::Sha384 => (IV_384, 48),
            Variant::Sha512 => (IV_512, 64),
            Variant::Sha512_224 => (IV_512_224, 28),
            Variant::Sha512_256 => (IV_512_256, 32),
        };
        let h = match v {
            Variant::Sha224 => Words::W32(iv.map(|x| x as u32)),
            Variant::Sha256 => Words::W32(iv.map(|x| (x >> 32) as u32)),
            _ => Words::W64(iv),
        };
        Sha2 { h, buf: [0; 128], fill: 0, total: 0, out_len }
    }

    fn block_len(&self) -> usize {
        match self.h {
            Words::W32(_) => 64,
            Words::W64(_) => 128,
        }
    }

    /// Compresses `block` (of the block length) into `h`.
    fn compress(h: &mut Words, block: &[u8]) {
        match h {
            Words::W32(h) => compress32(h, block.first_chunk().unwrap()),
            Words::W64(h) => compress64(h, block.first_chunk().unwrap()),
        }
    }

    pub fn update(&mut self, mut data: &[u8]) {
        let block = self.block_len();
        self.total = self.total.wrapping_add(data.len() as u64);
        while !data.is_empty() {
            let take = (block - self.fill).min(data.len());
            let (head, rest) = data.split_at(take);
            data = rest;
            if take == block {
                // A whole block (`buf` empty): compressed in place, not copied.
                Self::compress(&mut self.h, head);
                continue;
            }
            self.buf[self.fill..self.fill + take].copy_from_slice(head);
            self.fill += take;
            if self.fill == block {
                Self::compress(&mut self.h, &self.buf[..block]);
                self.fill = 0;
            }
        }
    }

    /// Bytes of [`Sha2::to_bytes`]: the hash words (64 bytes; SHA-224/256's
    /// eight 32-bit words in the first 32), the block buffer, its fill, the total length.
    pub const STATE_BYTES: usize = 64 + 128 + 1 + 8;

    /// The state between two updates, for [`Sha2::with_state`] (message data
    /// only: the bytes are not wiped).
    pub fn to_bytes(&self) -> [u8; Sha2::STATE_BYTES] {
        let mut out = [0u8; Sha2::STATE_BYTES];
        match &self.h {
            Words::W32(h) => out.chunks_exact_mut(4).zip(h).for_each(|(o, w)| o.copy_from_slice(&w.to_le_bytes())),
            Words::W64(h) => out.chunks_exact_mut(8).zip(h).for_each(|(o, w)| o.copy_from_slice(&w.to_le_bytes())),
        }
        out[64..192].copy_from_slice(&self.buf);
        out[192] = self.fill as u8;
        out[193..].copy_from_slice(&self.total.to_le_bytes());
        out
    }

    /// This hash (fresh, of the variant that saved `b`) resumed from
    /// [`Sha2::to_bytes`]; None when the fill is not below the block length.
    pub fn with_state(self, b: &[u8; Sha2::STATE_BYTES]) -> Option<Sha2> {
        let mut s = self;
        match &mut s.h {
            Words::W32(h) => {
                h.iter_mut().zip(b.chunks_exact(4)).for_each(|(w, i)| *w = u32::from_le_bytes(i.try_into().unwrap()))
            }
            Words::W64(h) => {
                h.iter_mut().zip(b.chunks_exact(8)).for_each(|(w, i)| *w = u64::from_le_bytes(i.try_into().unwrap()))
            }
        }
        s.buf.copy_from_slice(&b[64..192]);
        s.fill = b[192] as usize;
        s.total = u64::from_le_bytes(b[193..].try_into().unwrap());
        (s.fill < s.block_len()).then_some(s)
    }

    /// Padding (§5.1.1, §5.1.2): a 1 bit, zeros, then the message length in
    /// bits as a 64-bit (SHA-224/256) or 128-bit (SHA-384/512) big-endian integer.
    pub fn finalize(mut self) -> Vec<u8> {
        let block = self.block_len();
        let len_bytes = block / 8;
        self.buf[self.fill] = 0x80;
        self.buf[self.fill + 1..].fill(0);
        if self.fill + 1 > block - len_bytes {
            Self::compress(&mut self.h, &self.buf[..block]);
            self.buf.fill(0);
        }
        // The high 64 bits of SHA-384/512's 128-bit length; zero for
        // SHA-224/256, whose 64-bit length field this would overlap.
        if block == 128 {
            self.buf[112..120].copy_from_slice(&(self.total >> 61).to_be_bytes());
        }
        self.buf[block - 8..block].copy_from_slice(&(self.total << 3).to_be_bytes());
        Self::compress(&mut self.h, &self.buf[..block]);
        let mut out = [0u8; 64];
        let out = match &self.h {
            Words::W32(h) => {
                out.chunks_exact_mut(4).zip(h).for_each(|(o, w)| o.copy_from_slice(&w.to_le_bytes()));
                Active::swap_words::<64, 4>(&out)
            }
            Words::W64(h) => {
                out.chunks_exact_mut(8).zip(h).for_each(|(o, w)| o.copy_from_slice(&w.to_le_bytes()));
                Active::swap_words::<64, 8>(&out)
            }
        };
        out[..self.out_len].to_vec()
    }
}

/// The compression function of one word size (§6.2.2 for SHA-224/256, §6.4.2
/// for SHA-384/512 and SHA-512/t), in groups of 8 rounds.
///
/// The working variables a..h are never shifted: round t uses them renamed by
/// t mod 8 (round t+1's `b` is round t's `a`, ...), and a round writes only its
/// `d` (d + T1) and its `h` (T1 + T2, the new `a`), so after 8 rounds the names
/// are back in place.
///
/// The message schedule (step 1) is 16 words, W_t..W_{t+15} at the start of
/// the group of rounds t..t+7, which read the first 8. After them, W_{t+16+j}
/// (from W_{t+j}, W_{t+j+1}, W_{t+j+9} and W_{t+j+14}) replaces W_{t+j},
/// j = 0..7 in order (W_{t+16+j} needs W_{t+14+j}, computed two steps before);
/// then the two halves swap places. All indices are constants, so the 16
/// words stay in locals, not memory (with memory indices t mod 16 this was
/// 1.5x the `sha2` crate's time in V8).
macro_rules! compress {
    ($name:ident, $word:ty, $block:literal, $rounds:literal, $k:expr,
     sigma0: $s0:tt, sigma1: $s1:tt, big_sigma0: $b0:tt, big_sigma1: $b1:tt) => {
        #[inline(never)]
        fn $name(hv: &mut [$word; 8], block: &[u8; $block]) {
            const N: usize = core::mem::size_of::<$word>();
            let block = Active::swap_words::<$block, N>(block);
            let mut w = [0 as $word; 16];
            for (w, b) in w.iter_mut().zip(block.chunks_exact(N)) {
                *w = <$word>::from_le_bytes(b.try_into().unwrap());
            }
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *hv;
            let mut t = 0;
            loop {
                // Round t+j (step 3): d += T1, h = T1 + T2.
                macro_rules! round {
                    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $j:literal) => {
                        let t1 = $h
                            .wrapping_add($k(t + $j))
                            .wrapping_add(w[$j])
                            .wrapping_add($g ^ ($e & ($f ^ $g)))
                            .wrapping_add($e.rotate_right($b1.0) ^ $e.rotate_right($b1.1) ^ $e.rotate_right($b1.2));
                        let t2 = ($a.rotate_right($b0.0) ^ $a.rotate_right($b0.1) ^ $a.rotate_right($b0.2))
                            .wrapping_add(($a & $b) | ($c & ($a | $b)));
                        $d = $d.wrapping_add(t1);
                        $h = t1.wrapping_add(t2);
                    };
                }
                round!(a, b, c, d, e, f, g, h, 0);
                round!(h, a, b, c, d, e, f, g, 1);
                round!(g, h, a, b, c, d, e, f, 2);
                round!(f, g, h, a, b, c, d, e, 3);
                round!(e, f, g, h, a, b, c, d, 4);
                round!(d, e, f, g, h, a, b, c, 5);
                round!(c, d, e, f, g, h, a, b, 6);
                round!(b, c, d, e, f, g, h, a, 7);
                t += 8;
                if t == $rounds {
                    break;
                }
                if t + 8 < $rounds {
                    // (t has moved on by 8.) W_{t+8+j} into the slot of W_{t-8+j},
                    // used by the rounds above; not needed for the last group.
                    macro_rules! schedule {
                        ($i:literal) => {
                            let (x, y) = (w[$i + 1], w[($i + 14) % 16]);
                            let s0 = x.rotate_right($s0.0) ^ x.rotate_right($s0.1) ^ (x >> $s0.2);
                            let s1 = y.rotate_right($s1.0) ^ y.rotate_right($s1.1) ^ (y >> $s1.2);
                            w[$i] = w[$i].wrapping_add(s0).wrapping_add(w[($i + 9) % 16]).wrapping_add(s1);
                        };
                    }
                    schedule!(0); schedule!(1); schedule!(2); schedule!(3);
                    schedule!(4); schedule!(5); schedule!(6); schedule!(7);
                }
                w = core::array::from_fn(|i| w[(i + 8) % 16]);
            }
            for (x, y) in hv.iter_mut().zip([a, b, c, d, e, f, g, h]) {
                *x = x.wrapping_add(y);
            }
        }
    };
}

compress!(compress32, u32, 64, 64, |t: usize| (K64[t] >> 32) as u32,
    sigma0: (7, 18, 3), sigma1: (17, 19, 10), big_sigma0: (2, 13, 22), big_sigma1: (6, 11, 25));
compress!(compress64, u64, 128, 80, |t: usize| K64[t],
    sigma0: (1, 8, 7), sigma1: (19, 61, 6), big_sigma0: (28, 34, 39), big_sigma1: (14, 18, 41));

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::Digest;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const ALL: [Variant; 6] =
        [Variant::Sha224, Variant::Sha256, Variant::Sha384, Variant::Sha512, Variant::Sha512_224, Variant::Sha512_256];

    fn reference(v: Variant, m: &[u8]) -> Vec<u8> {
        match v {
            Variant::Sha224 => sha2::Sha224::digest(m).to_vec(),
            Variant::Sha256 => sha2::Sha256::digest(m).to_vec(),
            Variant::Sha384 => sha2::Sha384::digest(m).to_vec(),
            Variant::Sha512 => sha2::Sha512::digest(m).to_vec(),
            Variant::Sha512_224 => sha2::Sha512_224::digest(m).to_vec(),
            Variant::Sha512_256 => sha2::Sha512_256::digest(m).to_vec(),
        }
    }

    fn ours(v: Variant, m: &[u8]) -> Vec<u8> {
        let mut h = Sha2::new(v);
        h.update(m);
        h.finalize()
    }

    /// Every length from 0 to 300 bytes (each padding case of both block
    /// sizes: the length field fitting in the last block or not, and every
    /// block boundary up to 2 blocks of 128 bytes), then longer ones.
    #[test]
    fn equals_sha2_crate_at_every_length() {
        let m: Vec<u8> = (0..3000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        let lens = (0..=300).chain([383, 384, 385, 511, 512, 513, 1000, 1023, 1024, 1025, 3000]);
        for len in lens {
            for v in ALL {
                assert_eq!(ours(v, &m[..len]), reference(v, &m[..len]), "{v:?} len {len}");
            }
        }
    }

    /// Fed in pieces of every size 1..=130 (crossing block boundaries at all
    /// offsets), with empty updates between them.
    #[test]
    fn pieces_equal_one_shot() {
        let m: Vec<u8> = (0..700u32).map(|i| (i * 31 + 7) as u8).collect();
        for v in ALL {
            let want = reference(v, &m);
            for piece in 1..=130 {
                let mut h = Sha2::new(v);
                for c in m.chunks(piece) {
                    h.update(c);
                    h.update(&[]);
                }
                assert_eq!(h.finalize(), want, "{v:?} piece {piece}");
            }
        }
    }

    /// FIPS 180-4 example "abc" (first and last bytes), independent of the crate.
    #[test]
    fn abc_examples() {
        let d = ours(Variant::Sha256, b"abc");
        assert_eq!((d[0], d[31]), (0xba, 0xad));
        let d = ours(Variant::Sha224, b"abc");
        assert_eq!((d.len(), d[0], d[27]), (28, 0x23, 0xa7));
        let d = ours(Variant::Sha512, b"abc");
        assert_eq!((d[0], d[63]), (0xdd, 0x9f));
        let d = ours(Variant::Sha384, b"abc");
        assert_eq!((d.len(), d[0], d[47]), (48, 0xcb, 0xa7));
    }
}
