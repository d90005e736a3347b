//! NIST ACVP vectors for keyGen, sigGen, sigGen-FIPS204-tr1 and sigVer,
//! through the crate's public API.
//!
//! Which vectors: with `ACVP_DIR` set (npm test sets it to
//! ../shared/vectors/acvp), every test case of NIST's files; without it, the
//! pinned subset in tests/data/acvp (scripts/vendor-acvp.mjs says how it is
//! chosen), so that `cargo test` runs in a clone of this repository alone.
//! Either way every file is checked against the SHA256SUMS beside it, every
//! test case in the files runs, and the counts are checked and printed.

#![cfg(not(target_arch = "wasm32"))]

use mldsa_simd::{HashAlg, ParamSet};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// SHA-256 of tests/data/acvp/SHA256SUMS.
const SUBSET_SUMS: &str = "d60c3b559e65bd6de18e147b2b5482791f5a52444a1a0dd3b6c78a9a0e4f26c7";

/// Where the vectors are, and whether they are NIST's full files.
fn vectors() -> (PathBuf, bool) {
    match std::env::var_os("ACVP_DIR") {
        Some(d) => (PathBuf::from(d), true),
        None => (PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/acvp"), false),
    }
}

/// The number of test cases (full files, vendored subset) in each folder.
fn expected_count(folder: &str) -> usize {
    let (_, full) = vectors();
    let (all, subset) = match folder {
        "ML-DSA-keyGen-FIPS204" => (75, 6),
        "ML-DSA-sigGen-FIPS204" => (360, 48),
        "ML-DSA-sigGen-FIPS204-tr1" => (720, 48),
        "ML-DSA-sigVer-FIPS204" => (180, 39),
        _ => panic!("unknown folder {folder}"),
    };
    if full {
        all
    } else {
        subset
    }
}

fn which() -> &'static str {
    if vectors().1 {
        "NIST's full files"
    } else {
        "the vendored subset in tests/data/acvp; ACVP_DIR=path/to/acvp runs all"
    }
}

fn load(folder: &str, file: &str) -> Value {
    let (dir, _) = vectors();
    let rel = format!("{folder}/{file}");
    let path = dir.join(&rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let sums =
        std::fs::read_to_string(dir.join("SHA256SUMS")).unwrap_or_else(|e| panic!("{}/SHA256SUMS: {e}", dir.display()));
    if !vectors().1 {
        // The subset's list of hashes is itself pinned here: regenerating the
        // subset (scripts/vendor-acvp.mjs) means updating this line.
        assert_eq!(
            hex::encode(Sha256::digest(sums.as_bytes())),
            SUBSET_SUMS,
            "tests/data/acvp/SHA256SUMS is not the pinned one"
        );
    }
    let want = sums
        .lines()
        .find_map(|l| l.split_once("  ").filter(|(_, f)| *f == rel).map(|(h, _)| h.to_owned()))
        .unwrap_or_else(|| panic!("{rel} is not in {}/SHA256SUMS", dir.display()));
    assert_eq!(hex::encode(Sha256::digest(&bytes)), want, "{}: SHA-256 differs from SHA256SUMS", path.display());
    serde_json::from_slice(&bytes).unwrap()
}

fn bytes(v: &Value, field: &str) -> Vec<u8> {
    hex::decode(v[field].as_str().unwrap_or_else(|| panic!("missing field {field}"))).unwrap()
}

/// (group, test, expected) triples, joining prompt and expectedResults on (tgId, tcId).
fn cases(folder: &str) -> Vec<(Value, Value, Value)> {
    let prompt = load(folder, "prompt.json");
    let expected = load(folder, "expectedResults.json");
    let mut out = Vec::new();
    for g in prompt["testGroups"].as_array().unwrap() {
        let eg = expected["testGroups"].as_array().unwrap().iter().find(|e| e["tgId"] == g["tgId"]).unwrap();
        for t in g["tests"].as_array().unwrap() {
            let et = eg["tests"].as_array().unwrap().iter().find(|e| e["tcId"] == t["tcId"]).unwrap();
            out.push((g.clone(), t.clone(), et.clone()));
        }
    }
    out
}

fn param_set(g: &Value) -> ParamSet {
    ParamSet::from_name(g["parameterSet"].as_str().unwrap()).unwrap()
}

#[test]
fn acvp_keygen() {
    let cases = cases("ML-DSA-keyGen-FIPS204");
    for (g, t, e) in &cases {
        let (pk, sk) = mldsa_simd::keygen_internal(param_set(g), &bytes(t, "seed")).unwrap();
        assert_eq!(pk, bytes(e, "pk"), "tcId {}", t["tcId"]);
        assert_eq!(sk, bytes(e, "sk"), "tcId {}", t["tcId"]);
        assert_eq!(mldsa_simd::public_key(param_set(g), &sk).unwrap(), pk);
    }
    assert_eq!(cases.len(), expected_count("ML-DSA-keyGen-FIPS204"));
    println!("ACVP keyGen: {} vectors passed ({})", cases.len(), which());
}

fn run_siggen(folder: &str) -> usize {
    let cases = cases(folder);
    for (g, t, e) in &cases {
        let ps = param_set(g);
        let sk = match g.get("keyFormat").and_then(Value::as_str) {
            Some("seed") => mldsa_simd::keygen_internal(ps, &bytes(t, "seed")).unwrap().1,
            _ => bytes(t, "sk"),
        };
        let rnd = if g["deterministic"].as_bool().unwrap() { vec![0u8; 32] } else { bytes(t, "rnd") };
        let sig = match g["signatureInterface"].as_str().unwrap() {
            "internal" if g["externalMu"].as_bool().unwrap() => {
                mldsa_simd::sign_mu(ps, &sk, &bytes(t, "mu"), Some(&rnd))
            }
            "internal" => mldsa_simd::sign_internal(ps, &sk, &bytes(t, "message"), Some(&rnd)),
            "external" => {
                let (msg, ctx) = (bytes(t, "message"), bytes(t, "context"));
                match g["preHash"].as_str().unwrap() {
                    "pure" => mldsa_simd::sign(ps, &sk, &msg, &ctx, Some(&rnd)),
                    "preHash" => {
                        let hash = HashAlg::from_acvp_name(t["hashAlg"].as_str().unwrap()).unwrap();
                        mldsa_simd::sign_prehash(ps, &sk, hash, &msg, &ctx, Some(&rnd))
                    }
                    other => panic!("preHash {other}"),
                }
            }
            other => panic!("signatureInterface {other}"),
        }
        .unwrap();
        assert_eq!(hex::encode_upper(&sig), e["signature"].as_str().unwrap(), "{folder} tcId {}", t["tcId"]);
    }
    cases.len()
}

#[test]
fn acvp_siggen() {
    let n = run_siggen("ML-DSA-sigGen-FIPS204");
    assert_eq!(n, expected_count("ML-DSA-sigGen-FIPS204"));
    println!("ACVP sigGen: {n} vectors passed ({})", which());
}

#[test]
fn acvp_siggen_tr1() {
    let n = run_siggen("ML-DSA-sigGen-FIPS204-tr1");
    assert_eq!(n, expected_count("ML-DSA-sigGen-FIPS204-tr1"));
    println!("ACVP sigGen-FIPS204-tr1: {n} vectors passed ({})", which());
}

#[test]
fn acvp_sigver() {
    let cases = cases("ML-DSA-sigVer-FIPS204");
    let mut passed_true = 0;
    for (g, t, e) in &cases {
        let ps = param_set(g);
        let (pk, sig) = (bytes(t, "pk"), bytes(t, "signature"));
        let ok = match g["signatureInterface"].as_str().unwrap() {
            "internal" if g["externalMu"].as_bool().unwrap() => mldsa_simd::verify_mu(ps, &pk, &bytes(t, "mu"), &sig),
            "internal" => mldsa_simd::verify_internal(ps, &pk, &bytes(t, "message"), &sig),
            _ => {
                let (msg, ctx) = (bytes(t, "message"), bytes(t, "context"));
                match g["preHash"].as_str().unwrap() {
                    "pure" => mldsa_simd::verify(ps, &pk, &msg, &sig, &ctx),
                    _ => {
                        let hash = HashAlg::from_acvp_name(t["hashAlg"].as_str().unwrap()).unwrap();
                        mldsa_simd::verify_prehash(ps, &pk, hash, &msg, &sig, &ctx)
                    }
                }
            }
        };
        let want = e["testPassed"].as_bool().unwrap();
        assert_eq!(ok, want, "tcId {}", t["tcId"]);
        passed_true += want as usize;
    }
    let count = expected_count("ML-DSA-sigVer-FIPS204");
    // NIST's files have one valid case in five; the subset has one per group.
    assert_eq!((cases.len(), passed_true), (count, if vectors().1 { 36 } else { 12 }));
    println!(
        "ACVP sigVer: {} vectors passed ({} valid, {} invalid; {})",
        cases.len(),
        passed_true,
        cases.len() - passed_true,
        which()
    );
}
