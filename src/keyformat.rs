//! ML-DSA keys in the X.509 and PKCS#8 structures of RFC 9881, strict DER only:
//!
//! ```text
//! SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
//! OneAsymmetricKey ::= SEQUENCE { version INTEGER (0), privateKeyAlgorithm AlgorithmIdentifier,
//!                                 privateKey OCTET STRING }          -- no attributes, no publicKey
//! AlgorithmIdentifier ::= SEQUENCE { algorithm OID }                 -- parameters absent (RFC 9881 §2)
//! ML-DSA-PrivateKey ::= CHOICE { seed [0] OCTET STRING (SIZE (32)),
//!                                expandedKey OCTET STRING,
//!                                both SEQUENCE { seed OCTET STRING (SIZE (32)), expandedKey OCTET STRING } }
//! ```
//!
//! with the algorithm OIDs id-ml-dsa-44/65/87 = 2.16.840.1.101.3.4.3.17/18/19.
//! A private key that arrives in any of the three forms is checked as RFC
//! 9881 §6 asks: a seed gives the key pair through KeyGen_internal; an
//! expanded key must have the tr and t0 that its ρ, s1 and s2 give; `both`
//! must have the expanded key that the seed gives.

use crate::api::{keygen_internal, public_key, Error};
use crate::der::{self, DerError, Reader};
use crate::params::ParamSet;
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// The DER of the OID 2.16.840.1.101.3.4.3 (NIST signature algorithms), whose
/// last arc is 17, 18 or 19 for ML-DSA-44, -65, -87.
const OID_PREFIX: [u8; 8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03];

impl ParamSet {
    /// The last arc of the set's OID (RFC 9881 §2).
    pub fn oid_arc(self) -> u8 {
        match self {
            ParamSet::MlDsa44 => 17,
            ParamSet::MlDsa65 => 18,
            ParamSet::MlDsa87 => 19,
        }
    }
    fn from_oid_arc(arc: u8) -> Option<ParamSet> {
        [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87].into_iter().find(|ps| ps.oid_arc() == arc)
    }
}

/// The private key forms of RFC 9881 §6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrivateKeyForm {
    /// `seed [0]`: the 32-byte ξ (what RFC 9881 recommends, and WebCrypto exports).
    Seed,
    /// `expandedKey`: the FIPS 204 secret key encoding.
    ExpandedKey,
    /// `both`: the seed and the expanded key.
    Both,
}

/// A private key read from PKCS#8 (or from a seed), checked, with its public key.
pub struct PrivateKey {
    pub param_set: ParamSet,
    /// ξ, when the key came with it.
    pub seed: Option<Zeroizing<[u8; 32]>>,
    /// The FIPS 204 encoding of the secret key.
    pub secret_key: Zeroizing<Vec<u8>>,
    pub public_key: Vec<u8>,
    /// The form the key arrived in.
    pub form: PrivateKeyForm,
}

impl PrivateKey {
    /// The key pair of a 32-byte seed ξ (KeyGen_internal, FIPS 204 Algorithm 6).
    pub fn from_seed(ps: ParamSet, seed: &[u8]) -> Result<PrivateKey, Error> {
        let (pk, sk) = keygen_internal(ps, seed)?;
        let mut xi = Zeroizing::new([0u8; 32]);
        xi.copy_from_slice(seed);
        Ok(PrivateKey {
            param_set: ps,
            seed: Some(xi),
            secret_key: Zeroizing::new(sk),
            public_key: pk,
            form: PrivateKeyForm::Seed,
        })
    }

    /// An expanded secret key, checked: its tr and t0 must be what its ρ, s1
    /// and s2 give (the check of [`public_key`]).
    pub fn from_expanded(ps: ParamSet, sk: &[u8]) -> Result<PrivateKey, Error> {
        let pk = public_key(ps, sk)?;
        Ok(PrivateKey {
            param_set: ps,
            seed: None,
            secret_key: Zeroizing::new(sk.to_vec()),
            public_key: pk,
            form: PrivateKeyForm::ExpandedKey,
        })
    }

    /// The seed and the expanded key, checked to belong together.
    pub fn from_both(ps: ParamSet, seed: &[u8], sk: &[u8]) -> Result<PrivateKey, Error> {
        let mut key = PrivateKey::from_seed(ps, seed)?;
        if sk.len() != ps.secret_key_len() {
            return Err(Error::Length { what: "expandedKey", expected: ps.secret_key_len(), got: sk.len() });
        }
        let diff = key.secret_key.iter().zip(sk).fold(0u8, |d, (a, b)| d | (a ^ b));
        // Declassified: the verdict only.
        if !crate::ct::declassified(diff == 0) {
            return Err(Error::Format("privateKey: the seed and the expanded key do not belong together"));
        }
        key.form = PrivateKeyForm::Both;
        Ok(key)
    }

    /// Reads a PKCS#8 OneAsymmetricKey holding an ML-DSA private key in any
    /// of the three forms, and checks it.
    pub fn from_pkcs8(der: &[u8]) -> Result<PrivateKey, Error> {
        match parse_pkcs8(der)? {
            (ps, Pkcs8Key::Seed(seed)) => PrivateKey::from_seed(ps, seed),
            (ps, Pkcs8Key::ExpandedKey(sk)) => PrivateKey::from_expanded(ps, sk)
                .map_err(|_| Error::Format("pkcs8: the expandedKey is malformed (its parts do not belong together)")),
            (ps, Pkcs8Key::Both { seed, expanded }) => PrivateKey::from_both(ps, seed, expanded),
        }
    }

    /// The PKCS#8 DER of this key in `form`. `Seed` and `Both` need the seed.
    pub fn to_pkcs8(&self, form: PrivateKeyForm) -> Result<Zeroizing<Vec<u8>>, Error> {
        let sk = &self.secret_key[..];
        let inner_len = match form {
            PrivateKeyForm::Seed => 2 + 32,
            PrivateKeyForm::ExpandedKey => der::header_len(sk.len()) + sk.len(),
            PrivateKeyForm::Both => {
                let n = 2 + 32 + der::header_len(sk.len()) + sk.len();
                der::header_len(n) + n
            }
        };
        let seed = match (form, &self.seed) {
            (PrivateKeyForm::ExpandedKey, _) => None,
            (_, Some(seed)) => Some(seed),
            (_, None) => {
                return Err(Error::Format("privateKey: the seed of this key is not known, so it cannot be exported"))
            }
        };
        let body_len = 3 + ALGORITHM_LEN + der::header_len(inner_len) + inner_len;
        let mut out = Zeroizing::new(Vec::with_capacity(der::header_len(body_len) + body_len));
        der::write_header(&mut out, der::SEQUENCE, body_len);
        out.extend_from_slice(&[der::INTEGER, 1, 0]);
        write_algorithm(&mut out, self.param_set);
        der::write_header(&mut out, der::OCTET_STRING, inner_len);
        match (form, seed) {
            (PrivateKeyForm::Seed, Some(seed)) => {
                out.extend_from_slice(&[der::CONTEXT_0, 32]);
                out.extend_from_slice(&seed[..]);
            }
            (PrivateKeyForm::ExpandedKey, _) => {
                der::write_header(&mut out, der::OCTET_STRING, sk.len());
                out.extend_from_slice(sk);
            }
            (_, Some(seed)) => {
                der::write_header(&mut out, der::SEQUENCE, 2 + 32 + der::header_len(sk.len()) + sk.len());
                out.extend_from_slice(&[der::OCTET_STRING, 32]);
                out.extend_from_slice(&seed[..]);
                der::write_header(&mut out, der::OCTET_STRING, sk.len());
                out.extend_from_slice(sk);
            }
            (_, None) => unreachable!(),
        }
        debug_assert_eq!(out.len(), out.capacity());
        Ok(out)
    }
}

/// What a PKCS#8 ML-DSA private key holds, as read, before any check of the
/// key itself (the lengths are checked: 32 bytes of seed, the set's length of
/// expanded key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pkcs8Key<'a> {
    Seed(&'a [u8]),
    ExpandedKey(&'a [u8]),
    Both { seed: &'a [u8], expanded: &'a [u8] },
}

/// The structure of a PKCS#8 OneAsymmetricKey with an ML-DSA private key
/// (strict DER, RFC 9881's layouts); `PrivateKey::from_pkcs8` then checks the key.
pub fn parse_pkcs8(der: &[u8]) -> Result<(ParamSet, Pkcs8Key<'_>), Error> {
    let fail = |e: DerError, at: &'static str| Error::Format(pkcs8_message(e, at));
    let body = der::read_whole(der, der::SEQUENCE).map_err(|e| fail(e, "OneAsymmetricKey"))?;
    let mut r = Reader::new(body);
    let version = r.read(der::INTEGER).map_err(|e| fail(e, "version"))?;
    if version != [0] {
        return Err(Error::Format(
            "pkcs8: the version must be 0 (v1); the optional attributes and publicKey of v2 are not supported",
        ));
    }
    let ps = algorithm(&mut r).map_err(|e| Error::Format(e.for_pkcs8()))?;
    let inner = r.read(der::OCTET_STRING).map_err(|e| fail(e, "privateKey"))?;
    if r.finish().is_err() {
        return Err(Error::Format("pkcs8: fields after privateKey (attributes and publicKey are not supported)"));
    }
    let seed_len = |seed: &[u8]| {
        if seed.len() == 32 {
            Ok(())
        } else {
            Err(Error::Format("pkcs8: the seed must be 32 bytes"))
        }
    };
    let sk_len = |sk: &[u8]| {
        if sk.len() == ps.secret_key_len() {
            Ok(())
        } else {
            Err(Error::Format("pkcs8: the expandedKey has the wrong length for its parameter set"))
        }
    };
    let key = match inner.first() {
        Some(&der::CONTEXT_0) => {
            let seed = der::read_whole(inner, der::CONTEXT_0).map_err(|e| fail(e, "seed"))?;
            seed_len(seed)?;
            Pkcs8Key::Seed(seed)
        }
        Some(&der::OCTET_STRING) => {
            let sk = der::read_whole(inner, der::OCTET_STRING).map_err(|e| fail(e, "expandedKey"))?;
            sk_len(sk)?;
            Pkcs8Key::ExpandedKey(sk)
        }
        Some(&der::SEQUENCE) => {
            let both = der::read_whole(inner, der::SEQUENCE).map_err(|e| fail(e, "both"))?;
            let mut r = Reader::new(both);
            let seed = r.read(der::OCTET_STRING).map_err(|e| fail(e, "both.seed"))?;
            let expanded = r.read(der::OCTET_STRING).map_err(|e| fail(e, "both.expandedKey"))?;
            r.finish().map_err(|e| fail(e, "both"))?;
            seed_len(seed)?;
            sk_len(expanded)?;
            Pkcs8Key::Both { seed, expanded }
        }
        _ => return Err(Error::Format("pkcs8: the privateKey is none of seed [0], expandedKey or both")),
    };
    Ok((ps, key))
}

/// SEQUENCE { OID } with the 11-byte OID TLV.
const ALGORITHM_LEN: usize = 2 + 11;

fn write_algorithm(out: &mut Vec<u8>, ps: ParamSet) {
    out.extend_from_slice(&[der::SEQUENCE, 11, der::OID, 9]);
    out.extend_from_slice(&OID_PREFIX);
    out.push(ps.oid_arc());
}

enum AlgorithmError {
    Der,
    NotMlDsa,
    Parameters,
}

impl AlgorithmError {
    fn for_spki(self) -> &'static str {
        match self {
            AlgorithmError::Der => "spki: the AlgorithmIdentifier is not a DER SEQUENCE holding an OID",
            AlgorithmError::NotMlDsa => {
                "spki: the algorithm is not ML-DSA-44, ML-DSA-65 or ML-DSA-87 (OID 2.16.840.1.101.3.4.3.17, .18 or .19)"
            }
            AlgorithmError::Parameters => {
                "spki: the AlgorithmIdentifier has parameters; for ML-DSA they must be absent"
            }
        }
    }
    fn for_pkcs8(self) -> &'static str {
        match self {
            AlgorithmError::Der => "pkcs8: the AlgorithmIdentifier is not a DER SEQUENCE holding an OID",
            AlgorithmError::NotMlDsa => "pkcs8: the algorithm is not ML-DSA-44, ML-DSA-65 or ML-DSA-87 (OID 2.16.840.1.101.3.4.3.17, .18 or .19)",
            AlgorithmError::Parameters => "pkcs8: the AlgorithmIdentifier has parameters; for ML-DSA they must be absent",
        }
    }
}

/// Reads AlgorithmIdentifier { id-ml-dsa-*, parameters absent }.
fn algorithm(r: &mut Reader) -> Result<ParamSet, AlgorithmError> {
    let seq = r.read(der::SEQUENCE).map_err(|_| AlgorithmError::Der)?;
    let mut a = Reader::new(seq);
    let oid = a.read(der::OID).map_err(|_| AlgorithmError::Der)?;
    if a.finish().is_err() {
        return Err(AlgorithmError::Parameters);
    }
    match oid {
        [prefix @ .., arc] if *prefix == OID_PREFIX => ParamSet::from_oid_arc(*arc).ok_or(AlgorithmError::NotMlDsa),
        _ => Err(AlgorithmError::NotMlDsa),
    }
}

fn pkcs8_message(e: DerError, at: &'static str) -> &'static str {
    // One text per place and kind would be many strings; the place matters most.
    match (e, at) {
        (DerError::TrailingBytes, "OneAsymmetricKey") => "pkcs8: bytes after the OneAsymmetricKey",
        (_, "OneAsymmetricKey") => "pkcs8: not a DER OneAsymmetricKey (SEQUENCE)",
        (_, "version") => "pkcs8: the version is not a DER INTEGER",
        (_, "privateKey") => "pkcs8: the privateKey is not a DER OCTET STRING",
        (_, "seed") => "pkcs8: the seed [0] is not DER",
        (_, "expandedKey") => "pkcs8: the expandedKey is not a DER OCTET STRING",
        _ => "pkcs8: the `both` SEQUENCE is not DER (seed OCTET STRING, expandedKey OCTET STRING)",
    }
}

/// The SubjectPublicKeyInfo DER of a public key (RFC 9881 §4).
pub fn public_key_to_spki(ps: ParamSet, pk: &[u8]) -> Result<Vec<u8>, Error> {
    if pk.len() != ps.public_key_len() {
        return Err(Error::Length { what: "publicKey", expected: ps.public_key_len(), got: pk.len() });
    }
    let bits = 1 + pk.len();
    let body = ALGORITHM_LEN + der::header_len(bits) + bits;
    let mut out = Vec::with_capacity(der::header_len(body) + body);
    der::write_header(&mut out, der::SEQUENCE, body);
    write_algorithm(&mut out, ps);
    der::write_header(&mut out, der::BIT_STRING, bits);
    out.push(0); // no unused bits
    out.extend_from_slice(pk);
    Ok(out)
}

/// The parameter set and the public key of a SubjectPublicKeyInfo.
pub fn public_key_from_spki(spki: &[u8]) -> Result<(ParamSet, Vec<u8>), Error> {
    let body = der::read_whole(spki, der::SEQUENCE).map_err(|e| {
        Error::Format(match e {
            DerError::TrailingBytes => "spki: bytes after the SubjectPublicKeyInfo",
            _ => "spki: not a DER SubjectPublicKeyInfo (SEQUENCE)",
        })
    })?;
    let mut r = Reader::new(body);
    let ps = algorithm(&mut r).map_err(|e| Error::Format(e.for_spki()))?;
    let bits =
        r.read(der::BIT_STRING).map_err(|_| Error::Format("spki: the subjectPublicKey is not a DER BIT STRING"))?;
    r.finish().map_err(|_| Error::Format("spki: fields after the subjectPublicKey"))?;
    match bits.split_first() {
        Some((0, pk)) if pk.len() == ps.public_key_len() => Ok((ps, pk.to_vec())),
        Some((0, _)) => Err(Error::Format("spki: the public key has the wrong length for its parameter set")),
        _ => Err(Error::Format("spki: the BIT STRING has unused bits")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    const SETS: [ParamSet; 3] = [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87];

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    #[test]
    fn spki_has_rfc_9881_s_bytes_and_round_trips() {
        for ps in SETS {
            let (pk, _) = keygen_internal(ps, &[ps.oid_arc(); 32]).unwrap();
            let der = public_key_to_spki(ps, &pk).unwrap();
            // SEQUENCE(82 len) SEQUENCE(0b) OID(09) 2.16.840.1.101.3.4.3.arc BIT STRING(82 len) 00
            let head = alloc::format!(
                "3082{:04x}300b06096086480165030403{:02x}0382{:04x}00",
                der.len() - 4,
                ps.oid_arc(),
                pk.len() + 1
            );
            assert_eq!(der[..22], hex(&head)[..]);
            assert_eq!(der[22..], pk[..]);
            assert_eq!(public_key_from_spki(&der).unwrap(), (ps, pk));
        }
    }

    #[test]
    fn pkcs8_seed_form_has_rfc_9881_s_bytes() {
        let seed: Vec<u8> = (0..32).collect();
        let key = PrivateKey::from_seed(ParamSet::MlDsa44, &seed).unwrap();
        let der = key.to_pkcs8(PrivateKeyForm::Seed).unwrap();
        let want = hex("3034020100300b06096086480165030403110422802000");
        assert_eq!(der[..want.len() - 1], want[..want.len() - 1]);
        assert_eq!(der[want.len() - 1..], seed[..]);
    }

    #[test]
    fn pkcs8_round_trips_in_every_form() {
        for ps in SETS {
            let seed = [ps.oid_arc() ^ 0x5a; 32];
            let key = PrivateKey::from_seed(ps, &seed).unwrap();
            for form in [PrivateKeyForm::Seed, PrivateKeyForm::ExpandedKey, PrivateKeyForm::Both] {
                let der = key.to_pkcs8(form).unwrap();
                let back = PrivateKey::from_pkcs8(&der).unwrap();
                assert_eq!((back.param_set, back.form), (ps, form));
                assert_eq!(back.public_key, key.public_key);
                assert_eq!(back.secret_key[..], key.secret_key[..]);
                assert_eq!(back.seed.is_some(), form != PrivateKeyForm::ExpandedKey);
                // Every truncation and every extra byte is refused.
                for cut in 0..der.len() {
                    assert!(PrivateKey::from_pkcs8(&der[..cut]).is_err(), "{ps:?} {form:?} cut at {cut}");
                }
                let mut longer = der.to_vec();
                longer.push(0);
                assert!(PrivateKey::from_pkcs8(&longer).is_err());
            }
            let expanded_only = PrivateKey::from_expanded(ps, &key.secret_key).unwrap();
            assert!(expanded_only.to_pkcs8(PrivateKeyForm::Seed).is_err());
            assert!(expanded_only.to_pkcs8(PrivateKeyForm::Both).is_err());
        }
    }

    #[test]
    fn pkcs8_refuses_keys_that_do_not_belong_together() {
        let ps = ParamSet::MlDsa65;
        let a = PrivateKey::from_seed(ps, &[1; 32]).unwrap();
        let b = PrivateKey::from_seed(ps, &[2; 32]).unwrap();
        // both: a's seed with b's expanded key.
        let mixed = PrivateKey { seed: a.seed.clone(), ..PrivateKey::from_seed(ps, &[2; 32]).unwrap() };
        let der = mixed.to_pkcs8(PrivateKeyForm::Both).unwrap();
        assert_eq!(
            PrivateKey::from_pkcs8(&der).err(),
            Some(Error::Format("privateKey: the seed and the expanded key do not belong together"))
        );
        // expandedKey with one bit of tr (bytes 64..128) or of t0 (the end) flipped.
        let mut rng = Rng(3);
        for at in [64 + rng.range(0, 63) as usize, ps.secret_key_len() - 1 - rng.range(0, 400) as usize] {
            let mut sk = b.secret_key.clone();
            sk[at] ^= 1 << rng.range(0, 7);
            let key = PrivateKey { seed: None, secret_key: sk, ..PrivateKey::from_seed(ps, &[2; 32]).unwrap() };
            let der = key.to_pkcs8(PrivateKeyForm::ExpandedKey).unwrap();
            assert!(
                matches!(PrivateKey::from_pkcs8(&der), Err(Error::Format(m)) if m.contains("malformed")),
                "byte {at}"
            );
        }
    }

    #[test]
    fn refuses_what_rfc_9881_does_not_allow() {
        let ps = ParamSet::MlDsa44;
        let key = PrivateKey::from_seed(ps, &[7; 32]).unwrap();
        let good = key.to_pkcs8(PrivateKeyForm::Seed).unwrap().to_vec();
        let edit = |at: usize, b: u8| {
            let mut d = good.clone();
            d[at] = b;
            d
        };
        let mut with_null = good.clone();
        with_null.splice(5..18, hex("300d0609608648016503040311 0500".replace(' ', "").as_str()));
        with_null[1] += 2;
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (edit(4, 1), "version must be 0"),
            (edit(17, 20), "not ML-DSA"),
            (edit(17, 16), "not ML-DSA"),
            (edit(20, 0x81), "none of seed"),
            (edit(21, 31), "not DER"),
            (with_null, "parameters"),
            (edit(1, 0x35), "not a DER OneAsymmetricKey"),
        ];
        for (der, want) in cases {
            match PrivateKey::from_pkcs8(&der) {
                Err(Error::Format(m)) => assert!(m.contains(want), "{m} does not say {want}"),
                Err(e) => panic!("{e:?}"),
                Ok(_) => panic!("accepted {der:02x?}"),
            }
        }
        let (pk, _) = keygen_internal(ps, &[7; 32]).unwrap();
        let spki = public_key_to_spki(ps, &pk).unwrap();
        let mut unused = spki.clone();
        unused[21] = 1;
        assert!(matches!(public_key_from_spki(&unused), Err(Error::Format(m)) if m.contains("unused bits")));
        for cut in 0..spki.len() {
            assert!(public_key_from_spki(&spki[..cut]).is_err());
        }
        // An ML-DSA-44 key labelled ML-DSA-65 has the wrong length for its set.
        let mut relabelled = spki.clone();
        relabelled[16] = 18;
        assert!(matches!(public_key_from_spki(&relabelled), Err(Error::Format(m)) if m.contains("wrong length")));
    }
}
