//! SubjectPublicKeyInfo, PEM armour and base64url, each against the harness's
//! own reading of it (RFC 9881's one DER layout; RFC 7468's lax PEM with a
//! table-based strict RFC 4648 base64; unpadded base64url), on the same input.
//!
//! Input: any bytes, read as a whole by each of them:
//! - public_key_from_spki accepts exactly the inputs in the SPKI layout of a
//!   set with a public key of its length, returns that set and key, and then
//!   public_key_to_spki gives back the input bytes;
//! - pem_decode with the labels "PUBLIC KEY" and "PRIVATE KEY" accepts
//!   exactly what the harness's decoder accepts, with the same DER; then
//!   pem_encode writes the DER in the strict form, which decodes to it
//!   again; a "PUBLIC KEY" DER goes on through the SPKI checks;
//! - base64url_decode accepts exactly what the harness's decoder accepts, with
//!   the same bytes, and base64url_encode of them gives back the input;
//! - the encoders on the input as data: pem_encode and base64url_encode equal
//!   the harness's encoders, and decode back to the input.
//!
//! No keygen anywhere: these parsers run at parsing speed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa_simd::{
    base64url_decode, base64url_encode, pem_decode, pem_encode, public_key_from_spki, public_key_to_spki, Error,
};
use mldsa_simd_fuzz::{ref_base64_decode, ref_base64_encode, ref_pem_decode, ref_pem_encode, spki_match, BASE64URL};

fn spki(der: &[u8]) {
    match public_key_from_spki(der) {
        Ok((ps, pk)) => {
            assert_eq!(spki_match(der), Some((ps, &pk[..])), "accepted an SPKI that is not in RFC 9881's layout");
            assert!(public_key_to_spki(ps, &pk).unwrap() == der, "public_key_to_spki is not the input");
        }
        Err(e) => {
            assert!(matches!(e, Error::Format(_)), "refused with {e:?}, not Error::Format");
            assert!(spki_match(der).is_none(), "refused an SPKI in RFC 9881's layout ({e:?})");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    spki(data);
    for label in ["PUBLIC KEY", "PRIVATE KEY"] {
        let got = pem_decode(data, label);
        let want = ref_pem_decode(data, label);
        assert_eq!(
            got.as_ref().ok().map(|d| &d[..]),
            want.as_deref(),
            "{label}: pem_decode differs from the harness ({got:?})"
        );
        if let Ok(der) = got {
            let strict = pem_encode(&der, label);
            assert!(strict.as_bytes() == ref_pem_encode(&der, label), "{label}: pem_encode differs from the harness");
            assert!(
                pem_decode(strict.as_bytes(), label).unwrap()[..] == der[..],
                "{label}: pem_encode does not decode back"
            );
            if label == "PUBLIC KEY" {
                spki(&der);
            }
        }
    }
    let got = base64url_decode(data);
    let want = ref_base64_decode(data, BASE64URL, false);
    assert_eq!(
        got.as_ref().ok().map(|d| &d[..]),
        want.as_deref(),
        "base64url_decode differs from the harness ({got:?})"
    );
    if let Ok(bytes) = got {
        assert!(base64url_encode(&bytes).as_bytes() == data, "base64url_encode is not the input");
    }
    // The encoders, on the input as data.
    let url = base64url_encode(data);
    assert!(url.as_bytes() == ref_base64_encode(data, BASE64URL, false), "base64url_encode differs from the harness");
    assert!(base64url_decode(url.as_bytes()).unwrap()[..] == *data);
    if !data.is_empty() {
        let pem = pem_encode(data, "PRIVATE KEY");
        assert!(pem.as_bytes() == ref_pem_encode(data, "PRIVATE KEY"), "pem_encode differs from the harness");
        assert!(pem_decode(pem.as_bytes(), "PRIVATE KEY").unwrap()[..] == *data);
    }
});
