//! Signature decode + verify with an arbitrary public key, signature, message
//! and context.
//!
//! Input: header ‖ |ctx| ‖ ctx ‖ pk ‖ sig ‖ msg. Checks that sigDecode accepts
//! exactly the hints that the harness's own reading of FIPS 204 Algorithm 21
//! calls well formed, and that every signature that decodes is the one
//! encoding of its (c̃, z, h); that no signature with a malformed hint or a z
//! out of range verifies; and that a short pk or sig is refused. With the
//! header's top bit, also that the three verification paths give one
//! answer: one-shot (Â generated row by row), a prepared VerifyingKey (Â
//! cached), and the prepared key on an external μ. The bit keeps the inputs
//! that do not ask for it at one ExpandA each.
//!
//! Signatures that verify come from the seeds here and, made fresh from a
//! fuzzed seed with one bit then flipped, from the `sign` target.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa_simd::{external_mu, fuzzing, verify, VerifyingKey};
use mldsa_simd_fuzz::{context, header, hint_well_formed, z_in_range, Input};

fuzz_target!(|data: &[u8]| {
    let mut inp = Input(data);
    let (ps, cross_check, _) = header(inp.byte());
    let ctx = context(&mut inp);
    let pk = inp.take(ps.public_key_len());
    let sig = inp.take(ps.signature_len());
    let msg = inp.rest();
    let one_shot = verify(ps, pk, msg, sig, ctx);
    if pk.len() != ps.public_key_len() {
        assert!(!one_shot && VerifyingKey::new(ps, pk).is_err());
        return;
    }
    if cross_check {
        let vk = VerifyingKey::new(ps, pk).unwrap();
        assert_eq!(vk.verify(msg, sig, ctx), one_shot, "one-shot and prepared verify disagree");
        let mu = external_mu(ps, pk, msg, ctx).unwrap();
        assert_eq!(vk.verify_mu(&mu, sig), one_shot, "verify on the external mu disagrees");
    }
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
