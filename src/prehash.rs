//! The pre-hash functions of HashML-DSA (FIPS 204 §5.4) and their DER-encoded
//! object identifiers (NIST hashAlgs arc 2.16.840.1.101.3.4.2).

use sha2::Digest;
use sha3::digest::{ExtendableOutput, Update, XofReader};

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
        fn xof<H: Default + Update + ExtendableOutput>(msg: &[u8], n: usize) -> Vec<u8> {
            let mut h = H::default();
            h.update(msg);
            let mut out = vec![0u8; n];
            h.finalize_xof().read(&mut out);
            out
        }
        match self {
            HashAlg::Sha224 => sha2::Sha224::digest(msg).to_vec(),
            HashAlg::Sha256 => sha2::Sha256::digest(msg).to_vec(),
            HashAlg::Sha384 => sha2::Sha384::digest(msg).to_vec(),
            HashAlg::Sha512 => sha2::Sha512::digest(msg).to_vec(),
            HashAlg::Sha512_224 => sha2::Sha512_224::digest(msg).to_vec(),
            HashAlg::Sha512_256 => sha2::Sha512_256::digest(msg).to_vec(),
            HashAlg::Sha3_224 => sha3::Sha3_224::digest(msg).to_vec(),
            HashAlg::Sha3_256 => sha3::Sha3_256::digest(msg).to_vec(),
            HashAlg::Sha3_384 => sha3::Sha3_384::digest(msg).to_vec(),
            HashAlg::Sha3_512 => sha3::Sha3_512::digest(msg).to_vec(),
            HashAlg::Shake128 => xof::<sha3::Shake128>(msg, 32),
            HashAlg::Shake256 => xof::<sha3::Shake256>(msg, 64),
        }
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
        // SHA-256("abc") from FIPS 180-4's examples.
        assert_eq!(&HashAlg::Sha256.digest(b"abc")[..4], &[0xba, 0x78, 0x16, 0xbf]);
    }
}
