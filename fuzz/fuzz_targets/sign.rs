//! Secret-key decode + sign and getPublicKey with arbitrary secret keys
//! (mode 0), and with keys from KeyGen_internal of a fuzz-chosen seed (mode 1).
//! The header's second bit adds the checks that cost a further ExpandA or
//! signature, so that the inputs without it cost one signature each.
//!
//! Mode 0, input: header ‖ rnd (32) ‖ |ctx| ‖ ctx ‖ sk ‖ msg. Checks that skDecode
//! accepts a key exactly when the harness's own reading of FIPS 204 Algorithm
//! 25 finds every s1, s2 coefficient in [−η, η], that what it accepts is the one
//! encoding of what it decodes to, that SigningKey::new and sign agree with it,
//! and that signing a decodable key gives a signature or gives up (a far-fetched
//! t0), never anything else. With the second bit: that public_key agrees on
//! which keys are malformed, and that whenever it accepts the key (its parts
//! belong together) the key signs, and its signature verifies under that key.
//!
//! Mode 1, input: header ‖ ξ (32) ‖ rnd (32) ‖ bit (2) ‖ |ctx| ‖ ctx ‖ msg.
//! Checks that skDecode round-trips KeyGen's sk, that the signature verifies
//! under a prepared VerifyingKey and that the same signature with one bit
//! flipped does not (a flip anywhere: c̃, z or the hint). With the second bit,
//! also that public_key(sk) is KeyGen's pk, that signing on the external μ
//! gives the same bytes, and that flipping a bit of tr makes public_key refuse
//! the key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa_simd::{external_mu, fuzzing, keygen_internal, public_key, sign, verify, Error, SigningKey, VerifyingKey};
use mldsa_simd_fuzz::{context, flip_bit, header, sk_in_range, Input};

fuzz_target!(|data: &[u8]| {
    let mut inp = Input(data);
    let (ps, derived, more) = header(inp.byte());
    if derived {
        let xi: [u8; 32] = inp.array();
        let rnd: [u8; 32] = inp.array();
        let bit = usize::from(inp.u16());
        let ctx = context(&mut inp);
        let msg = inp.rest();
        let (pk, sk) = keygen_internal(ps, &xi).unwrap();
        assert!(fuzzing::sk_reencode(ps, &sk).unwrap() == sk);
        let key = SigningKey::new(ps, &sk).unwrap();
        let sig = key.sign(msg, ctx, Some(&rnd)).unwrap();
        assert_eq!(sig.len(), ps.signature_len());
        let vk = VerifyingKey::new(ps, &pk).unwrap();
        assert!(vk.verify(msg, &sig, ctx), "sign then verify is false");
        let bad = flip_bit(&sig, bit);
        assert!(!vk.verify(msg, &bad, ctx), "a signature with bit {} flipped verifies", bit % (8 * sig.len()));
        if more {
            assert_eq!(public_key(ps, &sk).unwrap(), pk, "getPublicKey differs from keygen");
            let mu = external_mu(ps, &pk, msg, ctx).unwrap();
            assert!(key.sign_mu(&mu, Some(&rnd)).unwrap() == sig, "signing on the external mu differs");
            let mut bad = sk.clone();
            bad[64 + usize::from(xi[0] & 63)] ^= 1 << (xi[1] & 7); // a bit of tr
            assert_eq!(public_key(ps, &bad), Err(Error::MalformedSecretKey));
        }
        return;
    }
    let rnd: [u8; 32] = inp.array();
    let ctx = context(&mut inp);
    let sk = inp.take(ps.secret_key_len());
    let msg = inp.rest();
    let key = SigningKey::new(ps, sk);
    if sk.len() != ps.secret_key_len() {
        let e = Error::Length { what: "secretKey", expected: ps.secret_key_len(), got: sk.len() };
        assert_eq!(key.err(), Some(e.clone()));
        assert_eq!(public_key(ps, sk), Err(e.clone()));
        assert_eq!(sign(ps, sk, msg, ctx, Some(&rnd)), Err(e));
        return;
    }
    let decoded = fuzzing::sk_reencode(ps, sk);
    assert_eq!(decoded.is_some(), sk_in_range(ps, sk), "skDecode disagrees with the harness on the range of s1, s2");
    if let Some(again) = &decoded {
        assert!(again == sk, "a secret key that decodes is not the encoding of what it decodes to");
    }
    let key = match key {
        Ok(key) => key,
        Err(e) => {
            assert_eq!(e, Error::MalformedSecretKey);
            assert!(decoded.is_none(), "SigningKey::new refuses a key that decodes");
            assert_eq!(public_key(ps, sk), Err(Error::MalformedSecretKey));
            return;
        }
    };
    assert!(decoded.is_some(), "SigningKey::new accepts a key that does not decode");
    // Signing with a key whose parts do not belong together still works (or,
    // for a far-fetched t0, gives up); its signatures need not verify.
    let signed = key.sign(msg, ctx, Some(&rnd));
    match &signed {
        Ok(sig) => assert_eq!(sig.len(), ps.signature_len()),
        Err(e) => assert_eq!(*e, Error::SigningFailed),
    }
    if !more {
        return;
    }
    match (signed, public_key(ps, sk)) {
        (Ok(sig), Ok(pk)) => assert!(verify(ps, &pk, msg, &sig, ctx), "a consistent key's signature does not verify"),
        (Ok(_), Err(e)) => assert_eq!(e, Error::MalformedSecretKey),
        (Err(_), pk) => assert!(pk.is_err(), "a consistent key failed to sign"),
    }
});
