//! NIST ACVP vectors (../shared/vectors/acvp) for keyGen, sigGen,
//! sigGen-FIPS204-tr1 and sigVer, through the crate's public API. Every test
//! case in the files runs; the counts are checked against the files and printed.

#![cfg(not(target_arch = "wasm32"))]

use mldsa_simd::{HashAlg, ParamSet};
use serde_json::Value;
use std::path::PathBuf;

fn vectors_dir() -> PathBuf {
    if let Ok(d) = std::env::var("ACVP_DIR") {
        return PathBuf::from(d);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/vectors/acvp")
}

fn load(folder: &str, file: &str) -> Value {
    let path = vectors_dir().join(folder).join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
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
    assert_eq!(cases.len(), 75);
    println!("ACVP keyGen: {} vectors passed", cases.len());
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
            "internal" if g["externalMu"].as_bool().unwrap() => mldsa_simd::sign_mu(ps, &sk, &bytes(t, "mu"), Some(&rnd)),
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
    assert_eq!(n, 360);
    println!("ACVP sigGen: {n} vectors passed");
}

#[test]
fn acvp_siggen_tr1() {
    let n = run_siggen("ML-DSA-sigGen-FIPS204-tr1");
    assert_eq!(n, 720);
    println!("ACVP sigGen-FIPS204-tr1: {n} vectors passed");
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
    assert_eq!((cases.len(), passed_true), (180, 36));
    println!("ACVP sigVer: {} vectors passed ({} valid, {} invalid)", cases.len(), passed_true, cases.len() - passed_true);
}
