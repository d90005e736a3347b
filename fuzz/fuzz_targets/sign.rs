//! Secret-key decode + sign and getPublicKey with arbitrary secret keys
//! (mode 0), and with keys from KeyGen_internal of a fuzz-chosen seed (mode 1).
//!
//! Mode 0, input: header ‖ rnd (32) ‖ |ctx| ‖ ctx ‖ sk ‖ msg. Checks that skDecode
//! accepts a key exactly when the harness's own reading of FIPS 204 Algorithm
//! 25 finds every s1, s2 coefficient in [−η, η], that what it accepts is the one
//! encoding of what it decodes to,
//! that SigningKey::new, sign and public_key agree on which keys are
//! malformed, and that whenever public_key accepts the key (its parts belong
//! together), the signature made with it verifies under that public key.
//!
//! Mode 1, input: header ‖ ξ (32) ‖ rnd (32) ‖ |ctx| ‖ ctx ‖ msg. Checks that
//! public_key(sk) is KeyGen's pk, that the signature verifies, that signing on
//! the external μ gives the same bytes, and that flipping a bit of tr makes
//! public_key refuse the key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa_simd::{external_mu, fuzzing, keygen_internal, public_key, sign, verify, Error, SigningKey};
use mldsa_simd_fuzz::{context, header, sk_in_range, Input};

fuzz_target!(|data: &[u8]| {
    let mut inp = Input(data);
    let (ps, derived) = header(inp.byte());
    if derived {
        let xi: [u8; 32] = inp.array();
        let rnd: [u8; 32] = inp.array();
        let ctx = context(&mut inp);
        let msg = inp.rest();
        let (pk, sk) = keygen_internal(ps, &xi).unwrap();
        assert_eq!(public_key(ps, &sk).unwrap(), pk, "getPublicKey differs from keygen");
        assert!(fuzzing::sk_reencode(ps, &sk).unwrap() == sk);
        let key = SigningKey::new(ps, &sk).unwrap();
        let sig = key.sign(msg, ctx, Some(&rnd)).unwrap();
        assert!(verify(ps, &pk, msg, &sig, ctx), "sign then verify is false");
        let mu = external_mu(ps, &pk, msg, ctx).unwrap();
        assert!(key.sign_mu(&mu, Some(&rnd)).unwrap() == sig, "signing on the external mu differs");
        let mut bad = sk.clone();
        bad[64 + usize::from(xi[0] & 63)] ^= 1 << (xi[1] & 7); // a bit of tr
        assert_eq!(public_key(ps, &bad), Err(Error::MalformedSecretKey));
        return;
    }
    let rnd: [u8; 32] = inp.array();
    let ctx = context(&mut inp);
    let sk = inp.take(ps.secret_key_len());
    let msg = inp.rest();
    let key = SigningKey::new(ps, sk);
    let pk = public_key(ps, sk);
    if sk.len() != ps.secret_key_len() {
        let e = Error::Length { what: "secretKey", expected: ps.secret_key_len(), got: sk.len() };
        assert_eq!(key.err(), Some(e.clone()));
        assert_eq!(pk, Err(e.clone()));
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
            assert_eq!(pk, Err(Error::MalformedSecretKey));
            return;
        }
    };
    assert!(decoded.is_some(), "SigningKey::new accepts a key that does not decode");
    // Signing with a key whose parts do not belong together still works (or,
    // for a far-fetched t0, gives up); its signatures need not verify.
    match (key.sign(msg, ctx, Some(&rnd)), pk) {
        (Ok(sig), Ok(pk)) => assert!(verify(ps, &pk, msg, &sig, ctx), "a consistent key's signature does not verify"),
        (Ok(sig), Err(e)) => {
            assert_eq!(e, Error::MalformedSecretKey);
            assert_eq!(sig.len(), ps.signature_len());
        }
        (Err(e), pk) => {
            assert_eq!(e, Error::SigningFailed);
            assert!(pk.is_err(), "a consistent key failed to sign");
        }
    }
});
