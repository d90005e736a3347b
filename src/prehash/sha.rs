//! SHA-2 (FIPS 180-4) for the HashML-DSA pre-hashes: SHA-224, SHA-256,
//! SHA-384, SHA-512, SHA-512/224 and SHA-512/256.
//!
//! Written for size, not speed: one compression function per word size
//! (§6.2 for 32-bit words, §6.4 for 64-bit words) as plain loops, and one
//! buffering/padding path for both. The variants differ only in their initial
//! hash value (§5.3) and in how many leading bytes of the final hash are kept.
//! Inputs are public messages: no secret-independence is needed here.

/// The 80 round constants K of SHA-384/512 (§4.2.3). The 64 constants of
/// SHA-224/256 (§4.2.2) are the first 32 bits of the first 64 of these (both
/// are the fractional parts of the cube roots of the first primes).
const K64: [u64; 80] = [
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
    0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
    0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
    0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
    0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
];

/// Initial hash values (§5.3). SHA-256's are the first 32 bits of SHA-512's
/// and SHA-224's the last 32 bits of SHA-384's, so four tables serve six.
const IV_512: [u64; 8] = [
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
];
const IV_384: [u64; 8] = [
    0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
    0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4,
];
const IV_512_224: [u64; 8] = [
    0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82, 0x679dd514582f9fcf,
    0x0f6d2b697bd44da8, 0x77e36f7304c48942, 0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1,
];
const IV_512_256: [u64; 8] = [
    0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151, 0x963877195940eabd,
    0x96283ee2a88effe3, 0xbe5e1e2553863992, 0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2,
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

    fn compress(&mut self) {
        match &mut self.h {
            Words::W32(h) => compress32(h, &self.buf),
            Words::W64(h) => compress64(h, &self.buf),
        }
    }

    pub fn update(&mut self, mut data: &[u8]) {
        let block = self.block_len();
        self.total = self.total.wrapping_add(data.len() as u64);
        while !data.is_empty() {
            let take = (block - self.fill).min(data.len());
            let (head, rest) = data.split_at(take);
            self.buf[self.fill..self.fill + take].copy_from_slice(head);
            self.fill += take;
            data = rest;
            if self.fill == block {
                self.compress();
                self.fill = 0;
            }
        }
    }

    /// Padding (§5.1.1, §5.1.2): a 1 bit, zeros, then the message length in
    /// bits as a 64-bit (SHA-224/256) or 128-bit (SHA-384/512) big-endian integer.
    pub fn finalize(mut self) -> Vec<u8> {
        let block = self.block_len();
        let len_bytes = block / 8;
        self.buf[self.fill] = 0x80;
        self.buf[self.fill + 1..].fill(0);
        if self.fill + 1 > block - len_bytes {
            self.compress();
            self.buf.fill(0);
        }
        // The high 64 bits of SHA-384/512's 128-bit length; zero for
        // SHA-224/256, whose 64-bit length field this would overlap.
        if block == 128 {
            self.buf[112..120].copy_from_slice(&(self.total >> 61).to_be_bytes());
        }
        self.buf[block - 8..block].copy_from_slice(&(self.total << 3).to_be_bytes());
        self.compress();
        let mut out = [0u8; 64];
        match &self.h {
            Words::W32(h) => out.chunks_exact_mut(4).zip(h).for_each(|(o, w)| o.copy_from_slice(&w.to_be_bytes())),
            Words::W64(h) => out.chunks_exact_mut(8).zip(h).for_each(|(o, w)| o.copy_from_slice(&w.to_be_bytes())),
        }
        out[..self.out_len].to_vec()
    }
}

/// SHA-256 compression of one 64-byte block (§6.2.2), the first 64 bytes of `block`.
#[inline(never)]
fn compress32(h: &mut [u32; 8], block: &[u8; 128]) {
    let mut w = [0u32; 64];
    for i in 0..16 {
        w[i] = u32::from_be_bytes([block[4 * i], block[4 * i + 1], block[4 * i + 2], block[4 * i + 3]]);
    }
    for i in 16..64 {
        let (a, b) = (w[i - 15], w[i - 2]);
        let s0 = a.rotate_right(7) ^ a.rotate_right(18) ^ (a >> 3);
        let s1 = b.rotate_right(17) ^ b.rotate_right(19) ^ (b >> 10);
        w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
    }
    let mut v = *h;
    for i in 0..64 {
        let [a, b, c, d, e, f, g, hh] = v;
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let k = (K64[i] >> 32) as u32;
        let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(k).wrapping_add(w[i]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        v = [t1.wrapping_add(s0).wrapping_add(maj), a, b, c, d.wrapping_add(t1), e, f, g];
    }
    for (x, y) in h.iter_mut().zip(v) {
        *x = x.wrapping_add(y);
    }
}

/// SHA-512 compression of one 128-byte block (§6.4.2).
#[inline(never)]
fn compress64(h: &mut [u64; 8], block: &[u8; 128]) {
    let mut w = [0u64; 80];
    for i in 0..16 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&block[8 * i..8 * i + 8]);
        w[i] = u64::from_be_bytes(b);
    }
    for i in 16..80 {
        let (a, b) = (w[i - 15], w[i - 2]);
        let s0 = a.rotate_right(1) ^ a.rotate_right(8) ^ (a >> 7);
        let s1 = b.rotate_right(19) ^ b.rotate_right(61) ^ (b >> 6);
        w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
    }
    let mut v = *h;
    for i in 0..80 {
        let [a, b, c, d, e, f, g, hh] = v;
        let s1 = e.rotate_right(14) ^ e.rotate_right(18) ^ e.rotate_right(41);
        let ch = (e & f) ^ (!e & g);
        let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(K64[i]).wrapping_add(w[i]);
        let s0 = a.rotate_right(28) ^ a.rotate_right(34) ^ a.rotate_right(39);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        v = [t1.wrapping_add(s0).wrapping_add(maj), a, b, c, d.wrapping_add(t1), e, f, g];
    }
    for (x, y) in h.iter_mut().zip(v) {
        *x = x.wrapping_add(y);
    }
}

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
