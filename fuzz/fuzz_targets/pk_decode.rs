//! Public-key decode: pkEncode(pkDecode(pk)) = pk through the `fuzzing` hook,
//! since pkDecode accepts every key of the right length and only a round trip
//! shows that it read the bits right; wrong lengths refused by every public
//! entry that takes a public key.
//!
//! Input: header ‖ pk (of any length). Also checks that tr = H(pk) is the same
//! in MuBuilder::for_public_key and external_mu. The prepared VerifyingKey::new
//! (pkDecode, then ExpandA and NTT(t1·2^d)) runs on the `verify` target's
//! cross-checked inputs; here it would cost 30 times the rest.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa_simd::{external_mu, fuzzing, Error, MuBuilder, VerifyingKey};
use mldsa_simd_fuzz::{header, Input};

fuzz_target!(|data: &[u8]| {
    let mut inp = Input(data);
    let (ps, _, _) = header(inp.byte());
    let pk = inp.rest();
    let expected = ps.public_key_len();
    if pk.len() != expected {
        let e = Error::Length { what: "publicKey", expected, got: pk.len() };
        assert_eq!(VerifyingKey::new(ps, pk).err(), Some(e.clone()));
        assert_eq!(external_mu(ps, pk, b"", b"").err(), Some(e.clone()));
        assert_eq!(MuBuilder::for_public_key(ps, pk).err(), Some(e));
        assert!(fuzzing::pk_reencode(ps, pk).is_none());
        return;
    }
    assert!(fuzzing::pk_reencode(ps, pk).unwrap() == pk, "pkEncode(pkDecode(pk)) != pk");
    // M′ = 0 ‖ 0 (empty context) ‖ "pk": the same μ two ways.
    let m_prime = [0u8, 0, b'p', b'k'];
    let mut b = MuBuilder::for_public_key(ps, pk).unwrap();
    b.update(&m_prime[..1]);
    b.update(&m_prime[1..]);
    assert_eq!(b.finalize(), external_mu(ps, pk, b"pk", b"").unwrap());
});
