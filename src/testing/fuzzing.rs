//! Hooks for the fuzz targets in `fuzz/` only: compiled with the `fuzzing`
//! cargo feature, which nothing else turns on (not the npm build, not the
//! tests), and hidden from the documentation. Not part of the public API.
//!
//! The public API cannot observe the decoders by themselves: pkDecode accepts
//! every input of the right length (every 10-bit value is a t1 coefficient),
//! so only decoding and encoding again shows whether it read the bits right;
//! and sigDecode's job is to accept exactly one encoding of each (z, h), which
//! only a round trip shows. Each function here is decode then encode.

use crate::encode::{pk_decode, pk_encode, sig_decode_vartime, sig_encode_vartime, sk_decode, sk_encode};
use crate::poly::Poly;
use crate::ParamSet;
use alloc::vec;
use alloc::vec::Vec;

/// pkEncode(pkDecode(pk)) (FIPS 204 Algorithms 22–23); None for a wrong length.
pub fn pk_reencode(ps: ParamSet, pk: &[u8]) -> Option<Vec<u8>> {
    let p = ps.params();
    if pk.len() != p.public_key_len() {
        return None;
    }
    let mut t1 = vec![Poly::zero(); p.k];
    let rho = pk_decode(p, pk, &mut t1);
    let mut out = vec![0u8; pk.len()];
    pk_encode(p, rho, &t1, &mut out);
    Some(out)
}

/// skEncode(skDecode(sk)) (Algorithms 24–25); None for a wrong length or a
/// key that does not decode (s1 or s2 outside [−η, η]).
pub fn sk_reencode(ps: ParamSet, sk: &[u8]) -> Option<Vec<u8>> {
    let p = ps.params();
    if sk.len() != p.secret_key_len() {
        return None;
    }
    let (mut s1, mut s2, mut t0) = (vec![Poly::zero(); p.l], vec![Poly::zero(); p.k], vec![Poly::zero(); p.k]);
    let parts = sk_decode(p, sk, &mut s1, &mut s2, &mut t0)?;
    let mut out = vec![0u8; sk.len()];
    sk_encode(p, &parts, &s1, &s2, &t0, &mut out);
    Some(out)
}

/// sigEncode(sigDecode(sig)) (Algorithms 26–27); None for a wrong length or a
/// malformed hint.
pub fn sig_reencode(ps: ParamSet, sig: &[u8]) -> Option<Vec<u8>> {
    let p = ps.params();
    if sig.len() != p.signature_len() {
        return None;
    }
    let (mut z, mut h) = (vec![Poly::zero(); p.l], vec![Poly::zero(); p.k]);
    let c_tilde = sig_decode_vartime(p, sig, &mut z, &mut h)?;
    let mut out = vec![0u8; sig.len()];
    sig_encode_vartime(p, c_tilde, &z, &h, &mut out);
    Some(out)
}
