//! End-to-end checks of the public API that run natively and in wasm
//! (`cargo test --target wasm32-unknown-unknown`), where the ACVP files cannot
//! be read: one NIST keyGen vector per set, round trips, every rejection
//! path of verification, and argument errors.

use crate::*;
use sha2::{Digest, Sha256};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

const SETS: [ParamSet; 3] = [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87];

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn keygen_matches_first_acvp_vector_of_each_set() {
    // ML-DSA-keyGen-FIPS204 tcId 1, 26 and 51: seed, SHA-256(pk), SHA-256(sk).
    let kats = [
        (
            "7194B13C95231010AFD2C909992BD2003BA6F437C3886BDBE3F6B867A14BA161",
            "838b88b6ac41e2c60698173e08ca173d0b0d2839205806e56a8a3d53195f3a03",
            "1c911d163cd0a5563e06f22403f7e16334fee17c2abb66f11ddf39ca6307ec58",
        ),
        (
            "A991FD42B071D49C48AE3E75C647459E0DAAD1E1BA356A04801912D3294BCFF8",
            "b1a7d0d2f0d7a04b9d5ffccd9bd578864dab4a01cdd7f70a05cd1f4f0672e43a",
            "56c53ac82fbff7d81b7a8cfbbc73011ceccad677e16dc53f2ece66d49aa11edd",
        ),
        (
            "A16F5B0796703E2D1A0140A35CBF36EFABE70E752BA59B6A9A0E9C4B05302F73",
            "33f49649f05ec2fc3b050007b18ade043bbc8d1c0ded03a269d540486daaa5f4",
            "c64e15742f27d7d8e2832f7d55a5c014f2c9536082f3a3181cfc6246908dd649",
        ),
    ];
    for (ps, (seed, pk_hash, sk_hash)) in SETS.into_iter().zip(kats) {
        let (pk, sk) = keygen_internal(ps, &unhex(seed)).unwrap();
        assert_eq!(Sha256::digest(&pk).to_vec(), unhex(pk_hash), "{}", ps.name());
        assert_eq!(Sha256::digest(&sk).to_vec(), unhex(sk_hash), "{}", ps.name());
        assert_eq!(public_key(ps, &sk).unwrap(), pk);
    }
}

#[test]
fn round_trips_and_rejections() {
    for ps in SETS {
        let (pk, sk) = keygen(ps).unwrap();
        let (msg, ctx) = (b"attack at dawn".as_slice(), b"ctx".as_slice());
        let sig = sign(ps, &sk, msg, ctx, None).unwrap();
        assert_eq!(sig.len(), ps.signature_len());
        assert!(verify(ps, &pk, msg, &sig, ctx));
        assert!(!verify(ps, &pk, b"attack at dusk", &sig, ctx));
        assert!(!verify(ps, &pk, msg, &sig, b"ctx2"));
        // Every byte position of the signature matters.
        for pos in [0, 40, sig.len() / 2, sig.len() - ps.params().k - 1, sig.len() - 1] {
            let mut bad = sig.clone();
            bad[pos] ^= 1;
            assert!(!verify(ps, &pk, msg, &bad, ctx), "{} flipped byte {pos}", ps.name());
        }
        assert!(!verify(ps, &pk, msg, &sig[..sig.len() - 1], ctx));
        assert!(!verify(ps, &pk[1..], msg, &sig, ctx));
        // Deterministic signing is deterministic; hedged is not.
        let zero = [0u8; 32];
        assert_eq!(sign(ps, &sk, msg, ctx, Some(&zero)).unwrap(), sign(ps, &sk, msg, ctx, Some(&zero)).unwrap());
        assert_ne!(sign(ps, &sk, msg, ctx, None).unwrap(), sig);
        // Pre-hash, internal and external μ agree with their verifiers.
        for hash in HashAlg::all() {
            let s = sign_prehash(ps, &sk, hash, msg, ctx, None).unwrap();
            assert!(verify_prehash(ps, &pk, hash, msg, &s, ctx));
            assert!(!verify(ps, &pk, msg, &s, ctx), "HashML-DSA and ML-DSA are domain-separated");
        }
        let mu = external_mu(ps, &pk, msg, ctx).unwrap();
        let s = sign_mu(ps, &sk, &mu, Some(&zero)).unwrap();
        assert_eq!(s, sign(ps, &sk, msg, ctx, Some(&zero)).unwrap());
        assert!(verify_mu(ps, &pk, &mu, &s) && !verify_mu(ps, &pk, &mu[1..], &s));
        let mut b = MuBuilder::for_public_key(ps, &pk).unwrap();
        for piece in [&[0u8, 3][..], ctx, &msg[..5], &msg[5..]] {
            b.update(piece);
        }
        assert_eq!(b.finalize(), mu);
        let mut b = MuBuilder::for_secret_key(ps, &sk).unwrap();
        b.update(&[0, 3]);
        b.update(ctx);
        b.update(msg);
        assert_eq!(b.finalize(), mu);
        let s = sign_internal(ps, &sk, msg, None).unwrap();
        assert!(verify_internal(ps, &pk, msg, &s));
    }
}

#[test]
fn argument_errors() {
    let ps = ParamSet::MlDsa44;
    let (pk, sk) = keygen_internal(ps, &[1; 32]).unwrap();
    assert_eq!(keygen_internal(ps, &[1; 31]), Err(Error::Length { what: "seed", expected: 32, got: 31 }));
    // keygen_into writes the same pair into the caller's buffers, whatever they held (every set: η = 2 and 4).
    for q in SETS {
        let (pk, sk) = keygen_internal(q, &[1; 32]).unwrap();
        let (mut pk2, mut sk2) = (vec![0xa5; pk.len()], vec![0x5a; sk.len()]);
        keygen_into(q, &[1; 32], &mut pk2, &mut sk2).unwrap();
        assert!(pk2 == pk && sk2 == sk, "{}", q.name());
    }
    // It checks the seed, then publicKey, then secretKey, before writing anything.
    let (mut pk2, mut sk2) = (vec![0; pk.len()], vec![0; sk.len()]);
    let (mut short, mut long) = (vec![0; pk.len() - 1], vec![0; sk.len() + 1]);
    let seed_error = Err(Error::Length { what: "seed", expected: 32, got: 33 });
    let pk_error = Err(Error::Length { what: "publicKey", expected: pk.len(), got: pk.len() - 1 });
    assert_eq!(keygen_into(ps, &[1; 33], &mut short, &mut long), seed_error);
    assert_eq!(keygen_into(ps, &[1; 33], &mut pk2, &mut sk2), seed_error);
    assert_eq!(keygen_into(ps, &[1; 32], &mut short, &mut long), pk_error);
    assert_eq!(keygen_into(ps, &[1; 32], &mut short, &mut sk2), pk_error);
    assert_eq!(
        keygen_into(ps, &[1; 32], &mut pk2, &mut long),
        Err(Error::Length { what: "secretKey", expected: sk.len(), got: sk.len() + 1 })
    );
    assert!(pk2.iter().chain(&sk2).chain(&short).chain(&long).all(|&b| b == 0));
    assert!(matches!(sign(ps, &sk[1..], b"", b"", None), Err(Error::Length { what: "secretKey", .. })));
    assert_eq!(sign(ps, &sk, b"", &[0; 256], None), Err(Error::ContextTooLong { got: 256 }));
    assert!(sign(ps, &sk, b"", &[0; 255], None).is_ok());
    assert!(matches!(sign(ps, &sk, b"", b"", Some(&[0; 31])), Err(Error::Length { what: "rnd", .. })));
    assert!(matches!(sign_mu(ps, &sk, &[0; 63], None), Err(Error::Length { what: "mu", .. })));
    assert!(!verify(ps, &pk, b"", &[0; 2420], &[0; 256]));
    // A secret key whose s1 is out of range, and one whose tr does not match.
    let mut bad = sk.clone();
    bad[128] = 0xff;
    assert_eq!(sign(ps, &bad, b"", b"", None), Err(Error::MalformedSecretKey));
    assert_eq!(public_key(ps, &bad), Err(Error::MalformedSecretKey));
    let mut bad = sk.clone();
    bad[64] ^= 1;
    assert_eq!(public_key(ps, &bad), Err(Error::MalformedSecretKey));
    assert_eq!(Error::Length { what: "seed", expected: 32, got: 3 }.to_string(), "seed: expected 32 bytes, got 3");
}

/// Secret key of ML-DSA-44 from seed 1 with t0 polynomials replaced by
/// extreme values. `all = false`: the first t0 polynomial is 2^12 everywhere
/// (all-zero bytes), which makes hint counts over ω common. `all = true`: every
/// t0 coefficient is ±2^12 in a pseudo-random pattern, which makes
/// ‖ct0‖∞ ≥ γ2 reachable. NIST's vectors never reach the ct0 check. Both keys
/// still sign (the signatures do not verify: t0 no longer matches t1).
pub(crate) fn key_with_extreme_t0(all: bool) -> Vec<u8> {
    let ps = ParamSet::MlDsa44;
    let p = ps.params();
    let (_, mut sk) = keygen_internal(ps, &[1; 32]).unwrap();
    let t0_start = 128 + 32 * p.eta_bits() * (p.k + p.l);
    if !all {
        sk[t0_start..t0_start + 32 * 13].fill(0);
        return sk;
    }
    let mut rng = crate::test_rng::Rng(0x1234_5678);
    let mut t0 = crate::poly::Poly::zero();
    for i in 0..p.k {
        for c in t0.0.iter_mut() {
            let x = rng.next();
            // Stored as 2^12 − t0 in 13 bits: 0 is t0 = 2^12, 8191 is t0 = −(2^12 − 1).
            *c = if x & 1 == 0 { 0 } else { 8191 };
        }
        let at = t0_start + i * 32 * 13;
        crate::encode::pack_bits(&t0, 13, &mut sk[at..at + 32 * 13]);
    }
    sk
}

use crate::ct::rejections;

#[test]
fn every_rejection_condition_of_algorithm_7_fires() {
    let count = rejections;
    let before = count();
    let sk = key_with_extreme_t0(false);
    for i in 0u32..100 {
        sign(ParamSet::MlDsa44, &sk, &i.to_le_bytes(), b"", Some(&[0; 32])).unwrap();
    }
    let sk = key_with_extreme_t0(true);
    for i in 0u32..4 {
        sign(ParamSet::MlDsa44, &sk, &i.to_le_bytes(), b"", Some(&[0; 32])).unwrap();
    }
    let after = count();
    for (which, name) in ["z", "r0", "ct0", "hint count"].iter().enumerate() {
        assert!(after[which] > before[which], "the {name} rejection never fired: {before:?} -> {after:?}");
        eprintln!("rejections by {name}: {}", after[which] - before[which]);
    }
}

#[test]
fn prepared_keys_agree_with_one_shot_functions() {
    let zero = [0u8; 32];
    for ps in SETS {
        let (pk, sk) = keygen_internal(ps, &[9; 32]).unwrap();
        let signer = SigningKey::new(ps, &sk).unwrap();
        let verifier = VerifyingKey::new(ps, &pk).unwrap();
        for (i, msg) in [&b""[..], b"a", &[7u8; 1000]].into_iter().enumerate() {
            let ctx = &[i as u8; 3][..i];
            let sig = signer.sign(msg, ctx, Some(&zero)).unwrap();
            assert_eq!(sig, sign(ps, &sk, msg, ctx, Some(&zero)).unwrap());
            assert!(verifier.verify(msg, &sig, ctx) && verify(ps, &pk, msg, &sig, ctx));
            let mut bad = sig.clone();
            bad[i * 100] ^= 0x10;
            assert!(!verifier.verify(msg, &bad, ctx) && !verify(ps, &pk, msg, &bad, ctx));
            assert!(!verifier.verify(msg, &sig[1..], ctx));
            let oid = HashAlg::Sha256.oid();
            let d = HashAlg::Sha256.digest(msg);
            let s = signer.sign_prehashed(oid, &d, ctx, Some(&zero)).unwrap();
            assert_eq!(s, sign_prehashed(ps, &sk, oid, &d, ctx, Some(&zero)).unwrap());
            assert!(verifier.verify_prehashed(oid, &d, &s, ctx));
            let s = signer.sign_internal(msg, None).unwrap();
            assert!(verifier.verify_internal(msg, &s) && verify_internal(ps, &pk, msg, &s));
            let mut b = verifier.mu_builder();
            b.update(msg);
            let mu = b.finalize();
            let mut b2 = signer.mu_builder();
            b2.update(msg);
            assert_eq!(b2.finalize(), mu);
            let s = signer.sign_mu(&mu, Some(&zero)).unwrap();
            assert_eq!(s, signer.sign_internal(msg, Some(&zero)).unwrap());
            assert!(verifier.verify_mu(&mu, &s) && !verifier.verify_mu(&mu[1..], &s));
        }
        assert!(matches!(SigningKey::new(ps, &sk[1..]), Err(Error::Length { what: "secretKey", .. })));
        assert!(matches!(VerifyingKey::new(ps, &pk[1..]), Err(Error::Length { what: "publicKey", .. })));
        let mut bad = sk.clone();
        bad[128] = 0xff;
        assert!(matches!(SigningKey::new(ps, &bad), Err(Error::MalformedSecretKey)));
    }
}

/// μ saved with `to_bytes` and resumed with `from_bytes` after every piece,
/// for pieces around the SHAKE256 rate of 136 bytes, equals `external_mu`;
/// bytes no builder wrote are refused.
#[test]
fn mu_builder_saved_and_resumed_equals_one_shot() {
    let ps = ParamSet::MlDsa44;
    let (pk, _) = keygen_internal(ps, &[3; 32]).unwrap();
    let msg: Vec<u8> = (0..1000u32).map(|i| (i * 29 + 1) as u8).collect();
    let want = external_mu(ps, &pk, &msg, b"ctx").unwrap();
    for piece in [1, 7, 135, 136, 137, 1000] {
        let mut b = MuBuilder::for_public_key(ps, &pk).unwrap();
        b.update(&[0, 3]);
        b.update(b"ctx");
        let mut state = b.to_bytes();
        for c in msg.chunks(piece) {
            let mut b = MuBuilder::from_bytes(&state).unwrap();
            b.update(c);
            state = b.to_bytes();
        }
        assert_eq!(MuBuilder::from_bytes(&state).unwrap().finalize(), want, "pieces of {piece}");
    }
    let mut state = MuBuilder::for_public_key(ps, &pk).unwrap().to_bytes();
    assert_eq!(state.len(), MuBuilder::STATE_BYTES);
    assert!(MuBuilder::from_bytes(&state[1..]).is_none());
    assert!(MuBuilder::from_bytes(&[state.as_slice(), &[0]].concat()).is_none());
    state[200] = 135; // the last position of a block
    assert!(MuBuilder::from_bytes(&state).is_some());
    state[200] = 136;
    assert!(MuBuilder::from_bytes(&state).is_none());
}

/// The rejection-path known-answer tests of draft-celi-acvp-ml-dsa (Tables 1
/// and 2; `tests/data/acvp-rejection-kats.txt` says where they come from):
/// real keys from KeyGen_internal whose deterministic signatures of M′ go
/// through each rejection condition of Algorithm 7 (ct0 only in ML-DSA-44,
/// the only set where it can fire). Checks the key pair and signature
/// hashes, that the signature verifies, that this thread's rejection counter
/// moved by exactly the recorded counts, that the total is the table's
/// number for the Count cases, and that a Path case of ML-DSA-44 reaches all
/// four conditions.
#[test]
fn acvp_rejection_path_kats() {
    let text = include_str!("../../tests/data/acvp-rejection-kats.txt");
    let mut cases = 0;
    let mut reached = [[false; 4]; 3];
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 9, "{line}");
        let (name, seed, key_hash, msg, sig_hash) = (f[0], unhex(f[1]), unhex(f[2]), unhex(f[3]), unhex(f[4]));
        let want: Vec<usize> = f[5..].iter().map(|c| c.parse().unwrap()).collect();
        let set = name.split('/').nth(1).unwrap();
        let which = SETS.iter().position(|ps| ps.name() == set).unwrap();
        let ps = SETS[which];
        let (pk, sk) = keygen_internal(ps, &seed).unwrap();
        assert_eq!(Sha256::new().chain_update(&pk).chain_update(&sk).finalize().to_vec(), key_hash, "{name}: keys");
        let before = rejections();
        let sig = sign_internal(ps, &sk, &msg, Some(&[0; 32])).unwrap();
        let after = rejections();
        let got: Vec<usize> = (0..4).map(|i| after[i] - before[i]).collect();
        eprintln!("{name}: rejections z, r0, ct0, hints = {got:?}");
        assert_eq!(Sha256::digest(&sig).to_vec(), sig_hash, "{name}: signature");
        assert!(verify_internal(ps, &pk, &msg, &sig), "{name}: verify");
        assert_eq!(got, want, "{name}: rejections by z, r0, ct0, hint count");
        if let Some(n) = name.strip_prefix("Count/").and_then(|r| r.split('/').nth(1)) {
            assert_eq!(got.iter().sum::<usize>(), n.parse::<usize>().unwrap(), "{name}: number of rejections");
        }
        for (i, &c) in got.iter().enumerate() {
            reached[which][i] |= c > 0;
        }
        cases += 1;
    }
    assert_eq!(cases, 27);
    // z, r0 and hint count in every set; ct0 in ML-DSA-44 only (its γ2 is the
    // smaller one, and ‖ct0‖∞ ≤ τ·2^12 stays under γ2 = (q−1)/32 otherwise).
    assert_eq!(reached, [[true; 4], [true, true, false, true], [true, true, false, true]]);
}
