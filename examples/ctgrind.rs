//! Constant-time check of KeyGen and Sign under valgrind memcheck (the
//! "ctgrind" method); run by `scripts/ct.sh`, which builds this with
//! `--features ct-testing` and fails on any memcheck error.
//!
//! For each parameter set it marks ξ secret and runs KeyGen_internal (FIPS 204
//! Algorithm 6), then marks K, s1, s2, t0 of the secret key and every rnd
//! secret and signs messages (Algorithm 7, through the public API); ρ and tr
//! stay public, as they are in the public key / are H(pk). Memcheck then
//! reports any branch or memory index that depends on a secret the library
//! did not declassify (src/base/ct.rs lists the rule, each call site its reason).
//!
//! The harness also checks, through memcheck's V bits, that pk and every
//! signature come out public and that K, s1, s2 and t0 in the secret key are
//! still secret (a declassification that went too far would show there),
//! and that each of the four rejection conditions of Algorithm 7 ran at least
//! once. `--canary-branch` / `--canary-index` branch or index on a secret on
//! purpose: ct.sh expects memcheck to report those, proving the marks work.
//!
//! Then the private-key formats (`key_formats`): for each set, PKCS#8 DER in
//! the three forms of RFC 9881 with the seed, K and s1 ‖ s2 ‖ t0 marked, its
//! PEM in strict and lax layouts (`LAYOUTS`) with every base64 character that
//! carries a secret bit marked, and a JWK's `priv` (the seed in base64url),
//! each decoded and encoded again.

use mldsa_simd::{
    base64url_decode, base64url_encode, ct, keygen_internal, pem_decode, pem_encode, public_key, sign, verify,
    ParamSet, PrivateKey, PrivateKeyForm, SigningKey,
};
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

/// Marks secret the bytes of `v` where `which` is true, one run at a time.
fn mark(v: &mut [u8], which: &[bool]) {
    let mut i = 0;
    while i < v.len() {
        let j = (i..v.len()).find(|&j| which[j] != which[i]).unwrap_or(v.len());
        if which[i] {
            ct::secret(&mut v[i..j]);
        }
        i = j;
    }
}

/// Fails unless every byte of `v` marked in `secret` holds a secret bit and
/// every byte marked in `public` holds none (bytes in neither are not checked).
fn check_marks(what: &str, v: &[u8], secret: &[bool], public: &[bool]) {
    for (i, b) in bits(v).iter().enumerate() {
        if (secret[i] && *b == 0) || (public[i] && *b != 0) {
            let want = if secret[i] { "secret" } else { "public" };
            fail(&format!("{what}: byte {i} of {} is not {want}", v.len()));
        }
    }
}

/// A public copy of `v`, for the harness's own comparisons.
fn public_copy(v: &[u8]) -> Vec<u8> {
    let copy = v.to_vec();
    ct::declassify(&copy[..]);
    copy
}

/// Which bytes of the PKCS#8 DER of a key in `form` are secret: the seed,
/// and K and s1 ‖ s2 ‖ t0 of the expanded key. The tags and lengths (fixed
/// per set and form), the OID, ρ and tr are public. The expanded key is the
/// DER's last bytes; in `both` the seed comes before the expanded key's
/// 4-byte OCTET STRING header.
fn pkcs8_secret(form: PrivateKeyForm, der: &[u8], seed: &[u8], sk: &[u8]) -> Vec<bool> {
    let n = der.len();
    let at = n - sk.len();
    let (where_seed, where_sk) = match form {
        PrivateKeyForm::Seed => (Some(n - 32), None),
        PrivateKeyForm::ExpandedKey => (None, Some(at)),
        PrivateKeyForm::Both => (Some(at - 4 - 32), Some(at)),
    };
    let mut secret = vec![false; n];
    if let Some(s) = where_seed {
        if der[s..s + 32] != *seed {
            fail("the harness's layout of PKCS#8 does not find the seed");
        }
        secret[s..s + 32].fill(true);
    }
    if let Some(s) = where_sk {
        if der[s..] != *sk {
            fail("the harness's layout of PKCS#8 does not find the expanded key");
        }
        secret[s + 32..s + 64].fill(true);
        secret[s + 128..].fill(true);
    }
    secret
}

/// For each base64 character of `bytes` (unpadded), whether it carries a
/// bit of a secret byte: character j holds bits 6j to 6j + 5.
fn base64_secret(secret: &[bool]) -> Vec<bool> {
    let n = secret.len();
    (0..(8 * n).div_ceil(6)).map(|j| (6 * j / 8..=((6 * j + 5) / 8).min(n - 1)).any(|b| secret[b])).collect()
}

/// The bytes that must decode public: those of the groups of 4 characters
/// (3 bytes) without a secret character. Within a group memcheck may see a
/// secret spread to every byte (the compiler joins the four 6-bit values in
/// vector registers, with operations that memcheck approximates), so the
/// bytes that share a group with a secret are not checked.
fn public_groups(secret: &[bool], chars: &[bool]) -> Vec<bool> {
    let group = |b: usize| &chars[4 * (b / 3)..(4 * (b / 3) + 4).min(chars.len())];
    (0..secret.len()).map(|b| !group(b).contains(&true)).collect()
}

/// A layout of a PEM text: text before the BEGIN line and the break after
/// it, base64 lines of `columns` characters with `eol(i)` after line i, and
/// what follows the END line.
struct PemLayout {
    name: &'static str,
    before: &'static str,
    begin_eol: &'static str,
    columns: usize,
    eol: fn(usize) -> &'static str,
    after: &'static str,
}

/// PEM of `b64` (padded base64, no line breaks) in `layout`, and the place
/// of each character.
fn armour(b64: &[u8], layout: &PemLayout) -> (Vec<u8>, Vec<usize>) {
    let mut text = format!("{}-----BEGIN PRIVATE KEY-----{}", layout.before, layout.begin_eol).into_bytes();
    let mut at = Vec::with_capacity(b64.len());
    for (i, line) in b64.chunks(layout.columns).enumerate() {
        at.extend(text.len()..text.len() + line.len());
        text.extend_from_slice(line);
        text.extend_from_slice((layout.eol)(i).as_bytes());
    }
    text.extend_from_slice(b"-----END PRIVATE KEY-----");
    text.extend_from_slice(layout.after.as_bytes());
    (text, at)
}

/// Layouts of a PEM body that `pem_decode` reads: the strict ones (LF or CR
/// LF after each line, mixed too, and nothing, LF or CR LF after the END
/// line; the first is `pem_encode`'s) and lax ones (RFC 7468 §3: other line
/// lengths, whitespace anywhere, text around the armour).
const LAYOUTS: [PemLayout; 7] = [
    PemLayout { name: "LF", before: "", begin_eol: "\n", columns: 64, eol: |_| "\n", after: "\n" },
    PemLayout { name: "CR LF", before: "", begin_eol: "\r\n", columns: 64, eol: |_| "\r\n", after: "\r\n" },
    PemLayout { name: "LF, no final line break", before: "", begin_eol: "\n", columns: 64, eol: |_| "\n", after: "" },
    PemLayout {
        name: "CR LF and LF mixed",
        before: "",
        begin_eol: "\n",
        columns: 64,
        eol: |i| ["\n", "\r\n"][i % 2],
        after: "\r\n",
    },
    PemLayout {
        name: "76 columns, CR LF, text before and after",
        before: "Key of the test server\r\n-- keep it safe --\r\n\r\n",
        begin_eol: "\r\n",
        columns: 76,
        eol: |_| "\r\n",
        after: "\r\nSubject: test-key\r\n",
    },
    PemLayout { name: "one line", before: "", begin_eol: "", columns: usize::MAX, eol: |_| "", after: "" },
    PemLayout {
        name: "tabs and spaces, lines of 40",
        before: "\t",
        begin_eol: "\n\t",
        columns: 40,
        eol: |i| ["  \n\t", "\t\x0b\n "][i % 2],
        after: "\t\n",
    },
];

/// The private-key formats, decoded with their secret bytes marked, for
/// each set and form: PKCS#8 DER through `PrivateKey::from_pkcs8` (what the
/// pkcs8_decode export runs), its PEM in every layout through `pem_decode`,
/// and a JWK's `priv` (the seed, base64url) through `base64url_decode`; then
/// encoded back (`to_pkcs8`, `pem_encode`, `base64url_encode`) from the
/// decoded key, whose secrets stay marked. The DER that `pem_decode` gives
/// is checked, not parsed again: JavaScript hands it to pkcs8_decode as new
/// bytes, which is the DER run above with its exact marks.
fn key_formats() {
    let forms = [PrivateKeyForm::Seed, PrivateKeyForm::ExpandedKey, PrivateKeyForm::Both];
    for ps in [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87] {
        let seed = [0xc3 ^ ps.oid_arc(); 32];
        let key = PrivateKey::from_seed(ps, &seed).unwrap_or_else(|_| fail("PrivateKey::from_seed"));
        let sk = key.secret_key.to_vec();
        for form in forms {
            let what = format!("{} {form:?}", ps.name());
            let der = key.to_pkcs8(form).unwrap_or_else(|_| fail("to_pkcs8")).to_vec();
            let secret = pkcs8_secret(form, &der, &seed, &sk);
            let public: Vec<bool> = secret.iter().map(|s| !s).collect();

            // PKCS#8 DER.
            let mut marked = der.clone();
            mark(&mut marked, &secret);
            let back = PrivateKey::from_pkcs8(&marked).unwrap_or_else(|e| fail(&format!("{what}: from_pkcs8: {e:?}")));
            if !all_public(&back.public_key) || back.public_key != key.public_key {
                fail(&format!("{what}: from_pkcs8's public key is not public, or not the key's"));
            }
            let s = &back.secret_key[..];
            if !all_public(&s[..32]) || !all_public(&s[64..128]) || !all_secret(&s[32..64]) || !all_secret(&s[128..]) {
                fail(&format!("{what}: from_pkcs8's K, s1, s2, t0 are not all secret, or ρ, tr not public"));
            }
            if back.seed.as_ref().is_some_and(|xi| !all_secret(&xi[..])) || public_copy(s) != sk {
                fail(&format!("{what}: from_pkcs8's seed is not secret, or its key not the key"));
            }
            let again = back.to_pkcs8(form).unwrap_or_else(|_| fail("to_pkcs8"));
            check_marks(&format!("{what}: to_pkcs8"), &again, &secret, &public);

            // Its PEM, in each layout.
            let chars = base64_secret(&secret);
            let decoded_public = public_groups(&secret, &chars);
            let canonical = pem_encode(&again, "PRIVATE KEY");
            let lines = public_copy(canonical.as_bytes());
            let b64: Vec<u8> =
                lines.split(|&c| c == b'\n').filter(|l| !l.starts_with(b"-")).flatten().copied().collect();
            for layout in &LAYOUTS {
                let name = layout.name;
                let (mut text, at) = armour(&b64, layout);
                let mut in_text = vec![false; text.len()];
                for (j, &i) in at.iter().enumerate() {
                    in_text[i] = j < chars.len() && chars[j];
                }
                if name == "LF" {
                    let out_public: Vec<bool> = in_text.iter().map(|s| !s).collect();
                    check_marks(&format!("{what}: pem_encode"), canonical.as_bytes(), &in_text, &out_public);
                    if public_copy(canonical.as_bytes()) != text {
                        fail(&format!("{what}: the harness's PEM is not pem_encode's"));
                    }
                }
                mark(&mut text, &in_text);
                let out = pem_decode(&text, "PRIVATE KEY")
                    .unwrap_or_else(|e| fail(&format!("{what}, {name}: pem_decode: {e:?}")));
                if public_copy(&out) != der {
                    fail(&format!("{what}, {name}: pem_decode gave other bytes"));
                }
                check_marks(&format!("{what}, {name}: pem_decode"), &out, &secret, &decoded_public);
            }
        }

        // A JWK's priv: the seed in base64url, every character secret.
        let mut xi = seed;
        ct::secret(&mut xi);
        let text = base64url_encode(&xi);
        if !all_secret(text.as_bytes()) {
            fail(&format!("{}: base64url_encode of a secret seed is not all secret", ps.name()));
        }
        let mut text = public_copy(text.as_bytes());
        ct::secret(&mut text[..]);
        let out = base64url_decode(&text).unwrap_or_else(|e| fail(&format!("{}: base64url_decode: {e:?}", ps.name())));
        if !all_secret(&out) || public_copy(&out) != seed {
            fail(&format!("{}: base64url_decode of the seed is not the secret seed", ps.name()));
        }
        let n = LAYOUTS.len();
        println!("ctgrind: {}: PKCS#8 DER (3 forms), PEM ({n} layouts), JWK priv: decoded and encoded", ps.name());
    }
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
            if !all_public(&sk[..32])
                || !all_public(&sk[64..128])
                || !all_secret(&sk[32..64])
                || !all_secret(&sk[128..])
            {
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
                        let sig =
                            sign(ps, &sk, &(m as u32).to_le_bytes(), b"", Some(&rnd)).unwrap_or_else(|_| fail("sign"));
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
    key_formats();
    let r = ct::rejections();
    println!(
        "ctgrind: {signatures} signatures; rejections by z {}, r0 {}, ct0 {}, hint count {}",
        r[0], r[1], r[2], r[3]
    );
    for (i, name) in ["z", "r0", "ct0", "hint count"].iter().enumerate() {
        if r[i] == 0 {
            fail(&format!("the {name} rejection never ran under valgrind"));
        }
    }
}
