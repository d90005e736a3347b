//! Constant-time check of KeyGen and Sign under valgrind memcheck (the
//! "ctgrind" method); run by `scripts/ct.sh`, which builds this with
//! `--features ct-testing` and fails on any memcheck error.
//!
//! For each parameter set it marks ξ secret and runs KeyGen_internal (FIPS 204
//! Algorithm 6), then marks K, s1, s2, t0 of the secret key and every rnd
//! secret and signs messages (Algorithm 7, through the public API); ρ and tr
//! stay public, as they are in the public key / are H(pk). Memcheck then
//! reports any branch or memory index that depends on a secret the library
//! did not declassify (src/ct.rs lists the rule, each call site its reason).
//!
//! The harness also checks, through memcheck's V bits, that pk and every
//! signature come out public and that K, s1, s2 and t0 in the secret key are
//! still secret (a declassification that went too far would show there),
//! and that each of the four rejection conditions of Algorithm 7 ran at least
//! once. `--canary-branch` / `--canary-index` branch or index on a secret on
//! purpose: ct.sh expects memcheck to report those, proving the marks work.

use mldsa_simd::{ct, keygen_internal, public_key, sign, verify, ParamSet, SigningKey};
use std::hint::black_box;
use std::process::exit;

fn fail(msg: &str) -> ! {
    eprintln!("ctgrind: FAILED: {msg}");
    exit(1)
}

/// The V bits of `v` (1 = secret).
fn bits(v: &[u8]) -> Vec<u8> {
    ct::secret_bits(v).unwrap_or_else(|| fail("valgrind did not return V bits"))
}

fn all_public(v: &[u8]) -> bool {
    bits(v).iter().all(|&b| b == 0)
}

/// Every byte holds at least one secret bit.
fn all_secret(v: &[u8]) -> bool {
    bits(v).iter().all(|&b| b != 0)
}

/// Where t0 starts in an encoded secret key: it is the last k·32·13 bytes.
fn t0_start(ps: ParamSet, k: usize) -> usize {
    ps.secret_key_len() - k * 32 * 13
}

/// The secret key as a caller holds it: ρ and tr public, K and s1 ‖ s2 ‖ t0 secret.
fn mark_secret_key(sk: &[u8]) -> Vec<u8> {
    let mut sk = sk.to_vec();
    // The harness's own copy starts public; then only the secret parts are marked.
    ct::declassify(&sk[..]);
    ct::secret(&mut sk[32..64]);
    ct::secret(&mut sk[128..]);
    sk
}

/// ML-DSA-44 keys whose t0 makes the rare rejections common (as in the unit
/// test `every_rejection_condition_of_algorithm_7_fires`): t0 = 2^12 in its
/// first polynomial (all-zero bytes) makes hint counts over ω common; every
/// coefficient ±2^12 at random makes ‖ct0‖∞ ≥ γ2 reachable. They sign, but
/// their signatures do not verify.
fn extreme_t0_keys(sk: &[u8]) -> [Vec<u8>; 2] {
    let ps = ParamSet::MlDsa44;
    let (k, start) = (4, t0_start(ps, 4));
    let mut first = sk.to_vec();
    first[start..start + 32 * 13].fill(0);
    let mut every = sk.to_vec();
    // The same pattern as the unit test's, from the same generator and seed.
    let mut rng = mldsa_simd::test_rng::Rng(0x1234_5678);
    // SimpleBitPack of 13-bit fields, least significant bit first: each field
    // all zeros (t0 = 2^12) or all ones (t0 = −(2^12 − 1)).
    let mut out = vec![0u8; k * 32 * 13];
    for c in 0..k * 256 {
        if rng.next() & 1 == 1 {
            for b in c * 13..c * 13 + 13 {
                out[b / 8] |= 1 << (b % 8);
            }
        }
    }
    every[start..].copy_from_slice(&out);
    [first, every]
}

fn canary(kind: &str) {
    let mut s = [7u8; 32];
    ct::secret(&mut s);
    match kind {
        // "Conditional jump or move depends on uninitialised value(s)"
        "--canary-branch" => {
            if black_box(s[0]) == 7 {
                println!("ctgrind canary: branched on a secret");
            }
        }
        // "Use of uninitialised value of size 8"
        _ => {
            let table = black_box([1u8; 256]);
            println!("ctgrind canary: indexed by a secret: {}", black_box(table[black_box(s[3]) as usize]));
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !ct::running_on_valgrind() {
        fail("not running under valgrind: the marks would do nothing (run scripts/ct.sh)");
    }
    if let Some(kind) = args.iter().find(|a| a.starts_with("--canary")) {
        canary(kind);
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let (keys, msgs, extreme) = if quick { (1, 4, (40, 2)) } else { (2, 12, (100, 4)) };
    let sets = [(ParamSet::MlDsa44, 4), (ParamSet::MlDsa65, 6), (ParamSet::MlDsa87, 8)];
    let mut signatures = 0;
    for (ps, k) in sets {
        for key in 0..keys {
            // KeyGen_internal with ξ secret.
            let mut xi = [0x5a ^ key as u8 ^ k as u8; 32];
            ct::secret(&mut xi);
            let (pk, sk) = keygen_internal(ps, &xi).unwrap_or_else(|_| fail("keygen"));
            if !all_public(&pk) {
                fail(&format!("{}: the public key is not fully declassified", ps.name()));
            }
            // ρ ‖ K ‖ tr ‖ s1 ‖ s2 ‖ t0: K and everything after tr must still be secret.
            if !all_public(&sk[..32]) || !all_public(&sk[64..128]) || !all_secret(&sk[32..64]) || !all_secret(&sk[128..]) {
                fail(&format!("{}: the secret key's K, s1, s2, t0 are not all secret, or ρ, tr not public", ps.name()));
            }
            let sk = mark_secret_key(&sk);
            if public_key(ps, &sk).ok() != Some(pk.clone()) {
                fail(&format!("{}: public_key(sk) differs from keygen's pk", ps.name()));
            }
            // Sign with secret rnd: one-shot, and with a prepared key.
            let signer = SigningKey::new(ps, &sk).unwrap_or_else(|_| fail("SigningKey::new"));
            for m in 0..msgs {
                let msg = [m as u8; 33];
                let mut rnd = [m as u8 ^ 0xa5; 32];
                ct::secret(&mut rnd);
                let sig = if m % 2 == 0 {
                    sign(ps, &sk, &msg, b"ct", Some(&rnd))
                } else {
                    signer.sign(&msg, b"ct", Some(&rnd))
                }
                .unwrap_or_else(|_| fail("sign"));
                if !all_public(&sig) {
                    fail(&format!("{}: a signature is not fully declassified", ps.name()));
                }
                if !verify(ps, &pk, &msg, &sig, b"ct") {
                    fail(&format!("{}: a signature does not verify", ps.name()));
                }
                signatures += 1;
            }
            if ps == ParamSet::MlDsa44 && key == 0 {
                let [first, every] = extreme_t0_keys(&sk);
                for (sk, n) in [(first, extreme.0), (every, extreme.1)] {
                    let sk = mark_secret_key(&sk);
                    for m in 0..n {
                        let mut rnd = [0u8; 32];
                        ct::secret(&mut rnd);
                        let sig = sign(ps, &sk, &(m as u32).to_le_bytes(), b"", Some(&rnd)).unwrap_or_else(|_| fail("sign"));
                        if !all_public(&sig) {
                            fail("ML-DSA-44 (extreme t0): a signature is not fully declassified");
                        }
                        signatures += 1;
                    }
                }
            }
        }
        println!("ctgrind: {}: {keys} key(s), keygen + public_key + signing checked", ps.name());
    }
    let r = ct::rejections();
    println!("ctgrind: {signatures} signatures; rejections by z {}, r0 {}, ct0 {}, hint count {}", r[0], r[1], r[2], r[3]);
    for (i, name) in ["z", "r0", "ct0", "hint count"].iter().enumerate() {
        if r[i] == 0 {
            fail(&format!("the {name} rejection never ran under valgrind"));
        }
    }
}
