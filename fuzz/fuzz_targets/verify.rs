//! Signature decode + verify with an arbitrary public key, signature, message
//! and context (mode 0), and a signature from a key derived from the input
//! (mode 1).
//!
//! Mode 0, input: header ‖ |ctx| ‖ ctx ‖ pk ‖ sig ‖ msg. Checks that the three
//! verification paths give one answer (one-shot, with Â generated row by row;
//! a prepared VerifyingKey, with Â cached; the prepared key on an external μ);
//! that sigDecode accepts exactly the hints that the harness's own reading of
//! FIPS 204 Algorithm 21 calls well formed, and that every signature that
//! decodes is the one encoding of its (c̃, z, h); that no signature with a
//! malformed hint or a z out of range verifies; and that a short pk or sig is
//! refused.
//!
//! Mode 1, input: header ‖ ξ (32) ‖ rnd (32) ‖ bit (2) ‖ |ctx| ‖ ctx ‖ msg.
//! Checks that the signature of (pk, sk) = KeyGen_internal(ξ) verifies on
//! both paths and that the same signature with one bit flipped does not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa_simd::{external_mu, fuzzing, keygen_internal, sign, verify, VerifyingKey};
use mldsa_simd_fuzz::{context, flip_bit, header, hint_well_formed, z_in_range, Input};

fuzz_target!(|data: &[u8]| {
    let mut inp = Input(data);
    let (ps, derived) = header(inp.byte());
    if derived {
        let xi: [u8; 32] = inp.array();
        let rnd: [u8; 32] = inp.array();
        let bit = usize::from(inp.u16());
        let ctx = context(&mut inp);
        let msg = inp.rest();
        let (pk, sk) = keygen_internal(ps, &xi).unwrap();
        let sig = sign(ps, &sk, msg, ctx, Some(&rnd)).unwrap();
        assert_eq!(sig.len(), ps.signature_len());
        assert!(verify(ps, &pk, msg, &sig, ctx), "a fresh signature does not verify");
        let vk = VerifyingKey::new(ps, &pk).unwrap();
        assert!(vk.verify(msg, &sig, ctx));
        let bad = flip_bit(&sig, bit);
        assert!(!verify(ps, &pk, msg, &bad, ctx), "a signature with bit {} flipped verifies", bit % (8 * sig.len()));
        assert!(!vk.verify(msg, &bad, ctx));
        return;
    }
    let ctx = context(&mut inp);
    let pk = inp.take(ps.public_key_len());
    let sig = inp.take(ps.signature_len());
    let msg = inp.rest();
    let one_shot = verify(ps, pk, msg, sig, ctx);
    if pk.len() != ps.public_key_len() {
        assert!(!one_shot && VerifyingKey::new(ps, pk).is_err());
        return;
    }
    let vk = VerifyingKey::new(ps, pk).unwrap();
    assert_eq!(vk.verify(msg, sig, ctx), one_shot, "one-shot and prepared verify disagree");
    let mu = external_mu(ps, pk, msg, ctx).unwrap();
    assert_eq!(vk.verify_mu(&mu, sig), one_shot, "verify on the external mu disagrees");
    if sig.len() != ps.signature_len() {
        assert!(!one_shot);
        return;
    }
    let well_formed = hint_well_formed(ps, sig);
    match fuzzing::sig_reencode(ps, sig) {
        Some(again) => {
            assert!(well_formed, "sigDecode accepts a malformed hint");
            assert!(again == sig, "a signature that decodes is not the encoding of what it decodes to");
        }
        None => assert!(!well_formed, "sigDecode refuses a well-formed hint"),
    }
    if one_shot {
        assert!(well_formed && z_in_range(ps, sig), "a signature with a malformed hint or z out of range verifies");
    }
});
