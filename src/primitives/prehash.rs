//! The pre-hash functions of HashML-DSA (FIPS 204 §5.4) and their DER-encoded
//! object identifiers (NIST hashAlgs arc 2.16.840.1.101.3.4.2).

#[path = "prehash/sha.rs"]
pub(crate) mod sha;

use crate::keccak::f1600;
use crate::xof::{load_state, save_state, SHA3_PAD, SHAKE128_RATE, SHAKE256_RATE, SHAKE_PAD, STATE_BYTES};
use alloc::vec::Vec;
use sha::{Sha2, Variant};
use zeroize::Zeroize;

/// A pre-hash function PH of HashML-DSA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashAlg {
    Sha224,
    Sha256,
    Sha384,
    Sha512,
    Sha512_224,
    Sha512_256,
    Sha3_224,
    Sha3_256,
    Sha3_384,
    Sha3_512,
    /// SHAKE128 with 256-bit output.
    Shake128,
    /// SHAKE256 with 512-bit output.
    Shake256,
}

const ALL: [(HashAlg, &str, &str); 12] = [
    (HashAlg::Sha224, "sha224", "SHA2-224"),
    (HashAlg::Sha256, "sha256", "SHA2-256"),
    (HashAlg::Sha384, "sha384", "SHA2-384"),
    (HashAlg::Sha512, "sha512", "SHA2-512"),
    (HashAlg::Sha512_224, "sha512_224", "SHA2-512/224"),
    (HashAlg::Sha512_256, "sha512_256", "SHA2-512/256"),
    (HashAlg::Sha3_224, "sha3_224", "SHA3-224"),
    (HashAlg::Sha3_256, "sha3_256", "SHA3-256"),
    (HashAlg::Sha3_384, "sha3_384", "SHA3-384"),
    (HashAlg::Sha3_512, "sha3_512", "SHA3-512"),
    (HashAlg::Shake128, "shake128", "SHAKE-128"),
    (HashAlg::Shake256, "shake256", "SHAKE-256"),
];

/// The DER prefix shared by every OID here: tag 06, length 09, then 2.16.840.1.101.3.4.2.
pub const NIST_HASH_OID_PREFIX: [u8; 10] = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02];

impl HashAlg {
    /// Every pre-hash function, in the order of their names.
    pub fn all() -> impl Iterator<Item = HashAlg> {
        ALL.iter().map(|e| e.0)
    }
    /// Lower-case names as the JavaScript API takes them: "sha256", "sha512_224", "sha3_256", "shake128", …
    pub fn from_name(name: &str) -> Option<HashAlg> {
        ALL.iter().find(|e| e.1 == name).map(|e| e.0)
    }
    /// Names as NIST ACVP writes them: "SHA2-256", "SHA2-512/224", "SHA3-256", "SHAKE-128", …
    pub fn from_acvp_name(name: &str) -> Option<HashAlg> {
        ALL.iter().find(|e| e.2 == name).map(|e| e.0)
    }
    pub fn name(self) -> &'static str {
        ALL.iter().find(|e| e.0 == self).map(|e| e.1).unwrap_or("")
    }

    /// The DER encoding of the function's OID, as HashML-DSA puts it in M′.
    pub fn oid(self) -> &'static [u8] {
        static OIDS: [[u8; 11]; 12] = {
            let mut t = [[0u8; 11]; 12];
            let mut i = 0;
            while i < 12 {
                let mut j = 0;
                while j < 10 {
                    t[i][j] = NIST_HASH_OID_PREFIX[j];
                    j += 1;
                }
                t[i][10] = i as u8 + 1;
                i += 1;
            }
            t
        };
        let arc = match self {
            HashAlg::Sha256 => 1,
            HashAlg::Sha384 => 2,
            HashAlg::Sha512 => 3,
            HashAlg::Sha224 => 4,
            HashAlg::Sha512_224 => 5,
            HashAlg::Sha512_256 => 6,
            HashAlg::Sha3_224 => 7,
            HashAlg::Sha3_256 => 8,
            HashAlg::Sha3_384 => 9,
            HashAlg::Sha3_512 => 10,
            HashAlg::Shake128 => 11,
            HashAlg::Shake256 => 12,
        };
        &OIDS[arc - 1]
    }

    /// PH(M). SHAKE128 gives 32 bytes and SHAKE256 64 bytes (FIPS 204 §5.4.1).
    pub fn digest(self, msg: &[u8]) -> Vec<u8> {
        let mut h = self.hasher();
        h.update(msg);
        h.finalize()
    }

    /// An incremental PH, for messages given in pieces.
    pub fn hasher(self) -> Prehasher {
        Prehasher { alg: self, state: self.initial_state() }
    }

    fn initial_state(self) -> State {
        match self {
            HashAlg::Sha224 => State::Sha2(Sha2::new(Variant::Sha224)),
            HashAlg::Sha256 => State::Sha2(Sha2::new(Variant::Sha256)),
            HashAlg::Sha384 => State::Sha2(Sha2::new(Variant::Sha384)),
            HashAlg::Sha512 => State::Sha2(Sha2::new(Variant::Sha512)),
            HashAlg::Sha512_224 => State::Sha2(Sha2::new(Variant::Sha512_224)),
            HashAlg::Sha512_256 => State::Sha2(Sha2::new(Variant::Sha512_256)),
            // SHA3-d is Keccak[2d] with rate 200 − d/4 bytes (FIPS 202 §6.1);
            // SHAKE128 and SHAKE256 give 32 and 64 bytes here (FIPS 204 §5.4.1).
            HashAlg::Sha3_224 => State::Keccak(KeccakPh::new(144, SHA3_PAD, 28)),
            HashAlg::Sha3_256 => State::Keccak(KeccakPh::new(136, SHA3_PAD, 32)),
            HashAlg::Sha3_384 => State::Keccak(KeccakPh::new(104, SHA3_PAD, 48)),
            HashAlg::Sha3_512 => State::Keccak(KeccakPh::new(72, SHA3_PAD, 64)),
            HashAlg::Shake128 => State::Keccak(KeccakPh::new(SHAKE128_RATE, SHAKE_PAD, 32)),
            HashAlg::Shake256 => State::Keccak(KeccakPh::new(SHAKE256_RATE, SHAKE_PAD, 64)),
        }
    }
}

enum State {
    /// SHA2-224/256/384/512, SHA2-512/224 and SHA2-512/256 (FIPS 180-4).
    Sha2(Sha2),
    /// SHA3-224/256/384/512, SHAKE128 and SHAKE256 (FIPS 202).
    Keccak(KeccakPh),
}

/// A Keccak sponge whose rate, padding suffix and output length are values,
/// not types: one copy of the code serves all six SHA-3 pre-hashes (the
/// const-generic `xof::Sponge` would be compiled once per rate). Bytes are
/// absorbed a lane at a time where aligned, else one at a time.
struct KeccakPh {
    a: [u64; 25],
    /// Bytes of the current block absorbed so far: 0 ≤ pos < rate.
    pos: usize,
    /// 72..=168 bytes; always > out_len, so one squeezed block is enough.
    rate: usize,
    /// SHA3_PAD or SHAKE_PAD: the domain suffix and first padding bit.
    suffix: u8,
    out_len: usize,
}

impl KeccakPh {
    fn new(rate: usize, suffix: u8, out_len: usize) -> KeccakPh {
        KeccakPh { a: [0; 25], pos: 0, rate, suffix, out_len }
    }

    /// Byte i of the sponge's string is byte i % 8 of lane i / 8 (FIPS 202 B.1).
    fn xor_byte(&mut self, b: u8) {
        self.a[self.pos / 8] ^= (b as u64) << (8 * (self.pos % 8));
    }

    fn update(&mut self, mut data: &[u8]) {
        while let Some((&b, rest)) = data.split_first() {
            if self.pos % 8 == 0 && data.len() >= 8 {
                // A whole lane at once (rates are multiples of 8 bytes).
                let mut lane = [0u8; 8];
                lane.copy_from_slice(&data[..8]);
                self.a[self.pos / 8] ^= u64::from_le_bytes(lane);
                self.pos += 8;
                data = &data[8..];
            } else {
                self.xor_byte(b);
                self.pos += 1;
                data = rest;
            }
            if self.pos == self.rate {
                f1600(&mut self.a);
                self.pos = 0;
            }
        }
    }

    /// pad10*1 after the suffix bits (FIPS 202 Algorithm 8, §6.1, §6.2), then
    /// the first out_len bytes of the next permutation's output.
    fn finalize(mut self) -> Vec<u8> {
        self.xor_byte(self.suffix);
        self.pos = self.rate - 1;
        self.xor_byte(0x80);
        f1600(&mut self.a);
        let mut out = [0u8; 64];
        for (o, w) in out.chunks_exact_mut(8).zip(self.a) {
            o.copy_from_slice(&w.to_le_bytes());
        }
        out[..self.out_len].to_vec()
    }
}

impl Drop for KeccakPh {
    fn drop(&mut self) {
        self.a.zeroize();
    }
}

/// PH computed over a message given in pieces; see [`HashAlg::hasher`].
pub struct Prehasher {
    alg: HashAlg,
    state: State,
}

// Both kinds of state save to the same number of bytes.
const _: () = assert!(Sha2::STATE_BYTES == STATE_BYTES);

impl Prehasher {
    /// Bytes of [`Prehasher::to_bytes`]: the function's index in
    /// [`HashAlg::all`], then its state.
    pub const STATE_BYTES: usize = 1 + STATE_BYTES;

    pub fn update(&mut self, data: &[u8]) {
        match &mut self.state {
            State::Sha2(h) => h.update(data),
            State::Keccak(h) => h.update(data),
        }
    }

    pub fn finalize(self) -> Vec<u8> {
        match self.state {
            State::Sha2(h) => h.finalize(),
            State::Keccak(h) => h.finalize(),
        }
    }

    /// The state between two updates, so that a caller can keep any number
    /// of pre-hashes outside the crate and resume each with
    /// [`Prehasher::from_bytes`]. It holds the message so far in compressed
    /// form, and is not wiped: for public messages.
    pub fn to_bytes(&self) -> [u8; Prehasher::STATE_BYTES] {
        let mut out = [0u8; Prehasher::STATE_BYTES];
        out[0] = HashAlg::all().position(|h| h == self.alg).unwrap_or(0) as u8;
        let body: &mut [u8; STATE_BYTES] = (&mut out[1..]).try_into().unwrap();
        match &self.state {
            State::Sha2(h) => *body = h.to_bytes(),
            State::Keccak(h) => save_state(&h.a, h.pos, body),
        }
        out
    }

    /// A pre-hash resumed from [`Prehasher::to_bytes`]; None for bytes that
    /// it cannot have written (wrong length, unknown function, a position
    /// outside the block).
    pub fn from_bytes(b: &[u8]) -> Option<Prehasher> {
        let (&index, body) = b.split_first()?;
        let body: &[u8; STATE_BYTES] = body.try_into().ok()?;
        let alg = HashAlg::all().nth(index as usize)?;
        let state = match alg.initial_state() {
            State::Sha2(h) => State::Sha2(h.with_state(body)?),
            State::Keccak(mut h) => {
                (h.a, h.pos) = load_state(body, h.rate)?;
                State::Keccak(h)
            }
        };
        Some(Prehasher { alg, state })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn names_oids_and_lengths() {
        let lens = [28, 32, 48, 64, 28, 32, 28, 32, 48, 64, 32, 64];
        for (h, len) in HashAlg::all().zip(lens) {
            assert_eq!(HashAlg::from_name(h.name()), Some(h));
            assert_eq!(h.digest(b"abc").len(), len, "{}", h.name());
            assert_eq!(&h.oid()[..10], &NIST_HASH_OID_PREFIX);
        }
        assert_eq!(HashAlg::Sha256.oid()[10], 1);
        assert_eq!(HashAlg::Sha224.oid()[10], 4);
        assert_eq!(HashAlg::Shake256.oid()[10], 12);
        assert_eq!(HashAlg::from_acvp_name("SHA2-512/256"), Some(HashAlg::Sha512_256));
        assert_eq!(HashAlg::from_name("md5"), None);
        // Hashing in pieces equals hashing at once.
        for h in HashAlg::all() {
            let mut inc = h.hasher();
            inc.update(b"ab");
            inc.update(b"");
            inc.update(b"c");
            assert_eq!(inc.finalize(), h.digest(b"abc"), "{}", h.name());
        }
        // SHA3-256("abc") from FIPS 202's examples.
        assert_eq!(&HashAlg::Sha3_256.digest(b"abc")[..4], &[0x3a, 0x98, 0x5d, 0xa7]);
        // SHA-256("abc") from FIPS 180-4's examples.
        assert_eq!(&HashAlg::Sha256.digest(b"abc")[..4], &[0xba, 0x78, 0x16, 0xbf]);
    }

    /// Every pre-hash fed in pieces of 1..=20 bytes (the SHA-3 sponge takes
    /// whole lanes only when aligned, so pieces shift the alignment) equals
    /// the one-shot digest, over 600 bytes (several blocks of every rate).
    #[test]
    fn pieces_of_every_size_equal_one_shot() {
        let m: Vec<u8> = (0..600u32).map(|i| (i * 13 + 5) as u8).collect();
        for h in HashAlg::all() {
            let want = h.digest(&m);
            for piece in 1..=20 {
                let mut inc = h.hasher();
                for c in m.chunks(piece) {
                    inc.update(c);
                }
                assert_eq!(inc.finalize(), want, "{} piece {piece}", h.name());
            }
        }
    }

    /// Every pre-hash saved with `to_bytes` and resumed with `from_bytes`
    /// after every piece, for pieces around each block length and rate,
    /// equals the one-shot digest; bytes no pre-hash wrote are refused.
    #[test]
    fn saved_and_resumed_state_equals_one_shot() {
        let m: Vec<u8> = (0..700u32).map(|i| (i * 31 + 7) as u8).collect();
        for h in HashAlg::all() {
            let want = h.digest(&m);
            for piece in [1, 7, 63, 64, 65, 72, 128, 136, 168, 169, 700] {
                let mut state = h.hasher().to_bytes();
                for c in m.chunks(piece) {
                    let mut p = Prehasher::from_bytes(&state).unwrap();
                    p.update(c);
                    state = p.to_bytes();
                }
                assert_eq!(Prehasher::from_bytes(&state).unwrap().finalize(), want, "{} pieces of {piece}", h.name());
            }
            let good = h.hasher().to_bytes();
            assert!(Prehasher::from_bytes(&good[..good.len() - 1]).is_none());
            assert!(Prehasher::from_bytes(&[]).is_none());
            let mut bad = good;
            bad[0] = 12; // no 13th function
            assert!(Prehasher::from_bytes(&bad).is_none());
            // The position in the block: pos of the Keccak sponge, fill of SHA-2.
            let keccak = h.name().starts_with("sha3_") || h.name().starts_with("shake");
            let (at, block) = if keccak {
                (1 + 200, [144, 136, 104, 72, 168, 136][h as usize - 6])
            } else {
                (1 + 192, [64, 64, 128, 128, 128, 128][h as usize])
            };
            let mut bad = good;
            bad[at] = block - 1;
            assert!(Prehasher::from_bytes(&bad).is_some(), "{}", h.name());
            bad[at] = block;
            assert!(Prehasher::from_bytes(&bad).is_none(), "{}", h.name());
        }
    }

    /// The SHA-3 and SHAKE pre-hashes (on our Keccak) against the `sha3`
    /// crate, at lengths around each rate (72, 104, 136, 144, 168 bytes).
    #[test]
    fn sha3_prehashes_equal_sha3_crate() {
        use sha3::digest::{Digest, ExtendableOutput, Update, XofReader};
        for len in [0usize, 1, 71, 72, 73, 103, 104, 105, 135, 136, 137, 143, 144, 145, 167, 168, 169, 1000] {
            let m: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
            assert_eq!(HashAlg::Sha3_224.digest(&m), sha3::Sha3_224::digest(&m).to_vec(), "len {len}");
            assert_eq!(HashAlg::Sha3_256.digest(&m), sha3::Sha3_256::digest(&m).to_vec(), "len {len}");
            assert_eq!(HashAlg::Sha3_384.digest(&m), sha3::Sha3_384::digest(&m).to_vec(), "len {len}");
            assert_eq!(HashAlg::Sha3_512.digest(&m), sha3::Sha3_512::digest(&m).to_vec(), "len {len}");
            let mut want = [0u8; 64];
            let mut x = sha3::Shake128::default();
            x.update(&m);
            x.finalize_xof().read(&mut want[..32]);
            assert_eq!(HashAlg::Shake128.digest(&m), want[..32].to_vec(), "len {len}");
            let mut x = sha3::Shake256::default();
            x.update(&m);
            x.finalize_xof().read(&mut want);
            assert_eq!(HashAlg::Shake256.digest(&m), want.to_vec(), "len {len}");
        }
    }
}
