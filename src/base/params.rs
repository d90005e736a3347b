//! The three ML-DSA parameter sets (FIPS 204, Table 1 and Table 2) as one plain
//! description, so every algorithm is written once for all of them.

/// Degree of the polynomial ring R_q = Z_q[X]/(X^256 + 1).
pub const N: usize = 256;
/// The modulus q = 2^23 − 2^13 + 1.
pub const Q: i32 = 8_380_417;
/// Number of dropped bits of t (Power2Round).
pub const D: u32 = 13;

/// The shift that packs a row of s1 and of s2 into one polynomial of signing's
/// expanded key, s1[i] + 2^9·s2[i]: |s1|, |s2| ≤ η ≤ 4 < 2^8, so the low 9
/// bits give s1 back (`challenge::challenge_times_pair`).
pub const PAIR_SHIFT: u32 = 9;

/// Byte lengths shared by every set.
pub const SEED_BYTES: usize = 32;
pub const TR_BYTES: usize = 64;
pub const MU_BYTES: usize = 64;
pub const RND_BYTES: usize = 32;

/// An ML-DSA parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamSet {
    MlDsa44,
    MlDsa65,
    MlDsa87,
}

/// The numbers FIPS 204 Table 1 gives for one parameter set.
#[derive(Debug)]
pub(crate) struct Params {
    pub k: usize,
    pub l: usize,
    pub eta: i32,
    pub tau: usize,
    /// Collision strength λ of c̃, in bits; c̃ is λ/4 bytes.
    pub lambda: usize,
    pub gamma1: i32,
    pub gamma2: i32,
    pub omega: usize,
}

const P44: Params =
    Params { k: 4, l: 4, eta: 2, tau: 39, lambda: 128, gamma1: 1 << 17, gamma2: (Q - 1) / 88, omega: 80 };
const P65: Params =
    Params { k: 6, l: 5, eta: 4, tau: 49, lambda: 192, gamma1: 1 << 19, gamma2: (Q - 1) / 32, omega: 55 };
const P87: Params =
    Params { k: 8, l: 7, eta: 2, tau: 60, lambda: 256, gamma1: 1 << 19, gamma2: (Q - 1) / 32, omega: 75 };

// What signing's packed pairs (`PAIR_SHIFT`) and the challenge's runs need of
// every set: η < 2^(PAIR_SHIFT−1), so s1 comes back from the low bits of
// s1 + 2^PAIR_SHIFT·s2; τ ≤ MAX_TAU, the room `challenge::Challenge` has; ℓ ≤ k,
// so every row of s1 has a row of s2; and the expanded key fits its storage.
const _: () = {
    let shift = PAIR_SHIFT;
    let sets = [P44, P65, P87];
    let mut i = 0;
    while i < sets.len() {
        let p = &sets[i];
        assert!(p.eta < 1 << (shift - 1));
        assert!(p.tau <= MAX_TAU);
        assert!(p.l <= p.k);
        assert!(p.k * p.l + p.k <= MAX_EXPANDED_NTT_POLYS && p.k <= MAX_SECRET_ROWS);
        i += 1;
    }
};

/// The largest τ of the parameter sets (ML-DSA-87): the room for c's terms
/// in `challenge::Challenge`. Checked above.
pub const MAX_TAU: usize = 60;

/// The most elements of T_q an expanded key of any set holds: k·ℓ + k for
/// ML-DSA-87 (Â, then NTT(t0) or NTT(t1·2^d)). Checked above.
pub const MAX_EXPANDED_NTT_POLYS: usize = 8 * 7 + 8;
/// The most packed secret rows an expanded secret key holds (k of ML-DSA-87,
/// `mldsa::PackedSecretRows`). Checked above.
pub const MAX_SECRET_ROWS: usize = 8;
/// How many expanded keys the npm package's pool of prepared keys holds at
/// once (src/bindings/wasm/prepared.rs), and so how many prepared objects any of its
/// caches keeps (js/key-cache.js, which has it from build/tables.js):
/// 192 × 72 KiB = 13.5 MiB.
pub const PREPARED_KEY_SLOTS: usize = 192;

/// Number of bits needed to write `x` (FIPS 204 `bitlen`).
const fn bitlen(x: u32) -> usize {
    (32 - x.leading_zeros()) as usize
}

impl Params {
    /// β = τ·η.
    pub fn beta(&self) -> i32 {
        self.tau as i32 * self.eta
    }
    /// Bytes of the commitment hash c̃ (λ/4).
    pub fn c_tilde_bytes(&self) -> usize {
        self.lambda / 4
    }
    /// Bits per coefficient of s1 and s2 in the secret key: bitlen(2η).
    pub fn eta_bits(&self) -> usize {
        bitlen(2 * self.eta as u32)
    }
    /// Bits per coefficient of z in the signature: 1 + bitlen(γ1 − 1).
    pub fn z_bits(&self) -> usize {
        1 + bitlen(self.gamma1 as u32 - 1)
    }
    /// Bits per coefficient of w1: bitlen((q − 1)/(2γ2) − 1), evaluated at
    /// compile time for the two γ2 of FIPS 204 (Table 1), so that signing has
    /// no division in it (scripts/wasm-div-scan.mjs).
    pub fn w1_bits(&self) -> usize {
        const fn w1_bits(gamma2: i32) -> usize {
            bitlen(((Q - 1) / (2 * gamma2) - 1) as u32)
        }
        const { assert!(P44.gamma2 == (Q - 1) / 88 && P65.gamma2 == (Q - 1) / 32 && P87.gamma2 == (Q - 1) / 32) };
        if self.gamma2 == (Q - 1) / 88 {
            const { w1_bits((Q - 1) / 88) }
        } else {
            const { w1_bits((Q - 1) / 32) }
        }
    }
    pub fn public_key_len(&self) -> usize {
        SEED_BYTES + 32 * self.k * (23 - D as usize)
    }
    pub fn secret_key_len(&self) -> usize {
        2 * SEED_BYTES + TR_BYTES + 32 * ((self.k + self.l) * self.eta_bits() + self.k * D as usize)
    }
    pub fn signature_len(&self) -> usize {
        self.c_tilde_bytes() + 32 * self.l * self.z_bits() + self.omega + self.k
    }
}

impl ParamSet {
    pub(crate) fn params(self) -> &'static Params {
        match self {
            ParamSet::MlDsa44 => &P44,
            ParamSet::MlDsa65 => &P65,
            ParamSet::MlDsa87 => &P87,
        }
    }
    /// "ML-DSA-44", "ML-DSA-65" or "ML-DSA-87".
    pub fn from_name(name: &str) -> Option<ParamSet> {
        match name {
            "ML-DSA-44" => Some(ParamSet::MlDsa44),
            "ML-DSA-65" => Some(ParamSet::MlDsa65),
            "ML-DSA-87" => Some(ParamSet::MlDsa87),
            _ => None,
        }
    }
    /// 44, 65 or 87.
    /// 44, 65 or 87.
    pub fn number(self) -> u32 {
        match self {
            ParamSet::MlDsa44 => 44,
            ParamSet::MlDsa65 => 65,
            ParamSet::MlDsa87 => 87,
        }
    }

    pub fn from_number(n: u32) -> Option<ParamSet> {
        match n {
            44 => Some(ParamSet::MlDsa44),
            65 => Some(ParamSet::MlDsa65),
            87 => Some(ParamSet::MlDsa87),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            ParamSet::MlDsa44 => "ML-DSA-44",
            ParamSet::MlDsa65 => "ML-DSA-65",
            ParamSet::MlDsa87 => "ML-DSA-87",
        }
    }
    /// Length of an encoded public key (pkEncode, FIPS 204 Algorithm 22).
    pub fn public_key_len(self) -> usize {
        self.params().public_key_len()
    }
    /// Length of an encoded (expanded) secret key (skEncode, FIPS 204 Algorithm 24).
    pub fn secret_key_len(self) -> usize {
        self.params().secret_key_len()
    }
    /// Length of an encoded signature (sigEncode, FIPS 204 Algorithm 26).
    pub fn signature_len(self) -> usize {
        self.params().signature_len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn sizes_match_fips204_table2() {
        let want = [
            (ParamSet::MlDsa44, 1312, 2560, 2420),
            (ParamSet::MlDsa65, 1952, 4032, 3309),
            (ParamSet::MlDsa87, 2592, 4896, 4627),
        ];
        for (ps, pk, sk, sig) in want {
            assert_eq!(ps.public_key_len(), pk, "{}", ps.name());
            assert_eq!(ps.secret_key_len(), sk, "{}", ps.name());
            assert_eq!(ps.signature_len(), sig, "{}", ps.name());
        }
    }

    #[test]
    fn derived_widths() {
        assert_eq!((P44.beta(), P65.beta(), P87.beta()), (78, 196, 120));
        assert_eq!((P44.eta_bits(), P65.eta_bits(), P87.eta_bits()), (3, 4, 3));
        assert_eq!((P44.z_bits(), P65.z_bits(), P87.z_bits()), (18, 20, 20));
        assert_eq!((P44.w1_bits(), P65.w1_bits(), P87.w1_bits()), (6, 4, 4));
    }
}
