//! Writes the seed corpus: `cargo run --release --example seeds` (from fuzz/)
//! fills `corpus/<target>/` with inputs in each target's layout, built from
//! real keys and signatures (KeyGen_internal from fixed seeds, deterministic
//! and hedged-with-fixed-rnd signing) and real LZMA streams, so that the
//! fuzzer starts from valid structure rather than having to find it.
//! Names say what a seed is; existing files of the same name are replaced.
use mldsa_simd::{base64url_encode, keygen_internal, pem_encode, public_key_to_spki, sign, PrivateKey, PrivateKeyForm};
use mldsa_simd_fuzz::{header_byte, pkcs8_match, sampled, FORMS, SETS};
use std::fs;
use std::path::Path;
use xz2::stream::{Action, LzmaOptions, Status, Stream};

fn put(target: &str, name: &str, bytes: &[u8]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(target);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(name), bytes).unwrap();
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn lzma(data: &[u8], lc: u32, lp: u32, pb: u32, preset: u32) -> Vec<u8> {
    let mut opts = LzmaOptions::new_preset(preset).unwrap();
    opts.dict_size(1 << 16).literal_context_bits(lc).literal_position_bits(lp).position_bits(pb);
    let mut s = Stream::new_lzma_encoder(&opts).unwrap();
    let mut out = Vec::with_capacity(2 * data.len() + 64);
    assert!(matches!(s.process_vec(data, &mut out, Action::Finish).unwrap(), Status::StreamEnd));
    out
}

fn main() {
    let msg: &[u8] = b"seed message for the fuzzer";
    let ctx: &[u8] = b"ctx";
    for (i, ps) in SETS.iter().copied().enumerate() {
        let n = &ps.name()[7..];
        let (pk, sk) = keygen_internal(ps, &[i as u8 + 1; 32]).unwrap();
        let det = sign(ps, &sk, msg, b"", Some(&[0; 32])).unwrap();
        let with_ctx = sign(ps, &sk, msg, ctx, Some(&[0x5a; 32])).unwrap();
        let plain = header_byte(i, false, false);
        let cross_check = header_byte(i, true, false);
        let derived = header_byte(i, true, false);
        let derived_more = header_byte(i, true, true);
        // verify: header ‖ |ctx| ‖ ctx ‖ pk ‖ sig ‖ msg
        put("verify", &format!("{n}-valid"), &cat(&[&[plain, 0], &pk, &det, msg]));
        put("verify", &format!("{n}-valid-ctx"), &cat(&[&[cross_check, 3], ctx, &pk, &with_ctx, msg]));
        // sign: header ‖ rnd ‖ |ctx| ‖ ctx ‖ sk ‖ msg, or header ‖ ξ ‖ rnd ‖ bit ‖ |ctx| ‖ ctx ‖ msg
        put("sign", &format!("{n}-sk"), &cat(&[&[plain], &[0; 32], &[0], &sk, msg]));
        put("sign", &format!("{n}-sk-ctx"), &cat(&[&[plain], &[0x5a; 32], &[3], ctx, &sk, msg]));
        put("sign", &format!("{n}-keygen"), &cat(&[&[derived], &[i as u8 + 1; 32], &[0; 32], &[7, 1], &[0], msg]));
        put(
            "sign",
            &format!("{n}-keygen-ctx"),
            &cat(&[&[derived_more], &[i as u8 + 1; 32], &[0x5a; 32], &[9, 40], &[3], ctx, msg]),
        );
        // pk_decode: header ‖ pk
        put("pk_decode", &format!("{n}-pk"), &cat(&[&[plain], &pk]));
    }
    key_formats();
    // unpack, mode 0: 0 ‖ props ‖ size ‖ stream (the stream without its .lzma header).
    let text = b"ML-DSA-44 ML-DSA-65 ML-DSA-87 keygen sign verify keygen sign verify aaaaaaaaaaaaaaaaaaaaaaaaab";
    for (lc, lp, pb, preset) in [(3, 0, 2, 6), (0, 2, 0, 9), (4, 0, 4, 1), (1, 3, 1, 0)] {
        let file = lzma(text, lc, lp, pb, preset);
        let props = ((pb * 5 + lp) * 9 + lc) as u8;
        let size = (text.len() as u16).to_le_bytes();
        put("unpack", &format!("stream-{lc}{lp}{pb}-p{preset}"), &cat(&[&[0, props], &size, &file[13..]]));
    }
    // The LZMA-JS stream of unpack/'s tests (rep0–rep3, short reps, long distances).
    let phrases = fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../unpack/tests/phrases.lzma")).unwrap();
    let words = ["keygen", "sign", "verify", "ExpandA", "ExpandS", "ExpandMask", "SampleInBall"];
    let sets = ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "rho", "tr", "mu", "c~", "z", "h", "w1", "t0"];
    let phrases_len: usize =
        (0..2500).map(|i| format!("{} {} {}\n", words[i % 7], sets[i % 11], (i * 7919) % 1009).len()).sum();
    put("unpack", "lzma-js-phrases", &cat(&[&[0, 93], &(phrases_len as u16).to_le_bytes(), &phrases]));
    // unpack, mode 1: 1 ‖ props ‖ preset ‖ data.
    put("unpack", "roundtrip-text", &cat(&[&[1, 93, 6], text]));
    put("unpack", "roundtrip-binary", &cat(&[&[1, 0, 9], &(0..=255u8).chain((0..=255u8).rev()).collect::<Vec<_>>()]));
}

/// pkcs8 and spki_pem, from keys of fixed seeds.
/// A pkcs8 seed whose costly checks run (`sampled`): the header of set `i`
/// with these flags, varied in the bits that `header` ignores (bits 4 and 5,
/// and the low nibble's multiple of 3) until the input's hash picks it.
fn costly(i: usize, top: bool, second: bool, body: &[u8]) -> Vec<u8> {
    let base = header_byte(i, top, second);
    (0..4u8)
        .flat_map(|hi| (0..6u8).map(move |k| (base & 0xc0) | hi << 4 | (i as u8 + 3 * k)))
        .filter(|&h| (h & 0x0f) <= 15)
        .map(|h| cat(&[&[h], body]))
        .find(|input| sampled(input, 8))
        .expect("no header variant is sampled; change the seed's bytes")
}

fn key_formats() {
    for (i, ps) in SETS.iter().copied().enumerate() {
        let n = &ps.name()[7..];
        let key = PrivateKey::from_seed(ps, &[0x10 + i as u8; 32]).unwrap();
        // pkcs8, mode 0: header ‖ DER, each form, with and without the second bit (the key checks).
        for (form, name) in FORMS.into_iter().zip(["seed", "expanded", "both"]) {
            let der = key.to_pkcs8(form).unwrap();
            put("pkcs8", &format!("{n}-{name}"), &cat(&[&[header_byte(i, false, false)], &der]));
            put("pkcs8", &format!("{n}-{name}-checked"), &costly(i, false, true, &der));
        }
        // pkcs8, mode 1: header ‖ ξ ‖ (position ‖ mask) for the seed, expandedKey and both forms:
        // a byte of the seed (which starts at 22), of K (the expanded key starts at 28), and of both's seed (at 30).
        let flips: [(u16, u8); 3] = [(22 + i as u16, 0x01), (28 + 32 + 5 * i as u16, 0x80), (30 + i as u16, 0x40)];
        let flips: Vec<u8> = flips.iter().flat_map(|&(at, m)| [at as u8, (at >> 8) as u8, m]).collect();
        put("pkcs8", &format!("{n}-from-seed"), &costly(i, true, false, &cat(&[&[0x20 + i as u8; 32], &flips])));
        // spki_pem: the SPKI DER.
        put("spki_pem", &format!("{n}-spki"), &public_key_to_spki(ps, &key.public_key).unwrap());
    }
    // pkcs8, mode 1: the seed form's OID arc 17 changed to 18 (another set, accepted).
    put("pkcs8", "44-from-seed-arc", &costly(0, true, false, &cat(&[&[0x33; 32], &[17, 0, 0x03], &[0; 6]])));
    // pkcs8, malformed (mode 0): ML-DSA-44 keys with one thing wrong.
    let ps = SETS[0];
    let key = PrivateKey::from_seed(ps, &[0x10; 32]).unwrap();
    let seed = key.to_pkcs8(PrivateKeyForm::Seed).unwrap().to_vec();
    let expanded = key.to_pkcs8(PrivateKeyForm::ExpandedKey).unwrap().to_vec();
    let edit = |der: &[u8], at: usize, b: u8| {
        let mut d = der.to_vec();
        d[at] = b;
        d
    };
    let sk_at = pkcs8_match(&expanded).unwrap().sk_at;
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        ("44-seed-version-1", edit(&seed, 4, 1)),
        ("44-seed-arc-20", edit(&seed, 17, 20)),
        ("44-seed-long-length", [&[0x30, 0x81], &seed[1..]].concat()),
        ("44-seed-trailing", [&seed[..], &[0]].concat()),
        ("44-expanded-tr-changed", edit(&expanded, sk_at + 64, expanded[sk_at + 64] ^ 1)),
        ("44-expanded-k-changed", edit(&expanded, sk_at + 40, expanded[sk_at + 40] ^ 1)),
    ];
    // The seed 31 bytes long (every length fixed up).
    let mut short = seed.clone();
    short.pop();
    short[1] -= 1;
    short[19] -= 1;
    short[21] -= 1;
    cases.push(("44-seed-31-bytes", short));
    // AlgorithmIdentifier with NULL parameters.
    let mut null = seed.clone();
    null.splice(5..7, [0x30, 0x0d]);
    null.splice(18..18, [0x05, 0x00]);
    null[1] += 2;
    cases.push(("44-seed-null-parameters", null));
    // both, with the seed of another key.
    let other = PrivateKey::from_seed(ps, &[0x11; 32]).unwrap();
    let mixed = PrivateKey { seed: other.seed.clone(), ..PrivateKey::from_seed(ps, &[0x10; 32]).unwrap() };
    cases.push(("44-both-mismatched", mixed.to_pkcs8(PrivateKeyForm::Both).unwrap().to_vec()));
    for (name, der) in cases {
        put("pkcs8", name, &costly(0, false, true, &der));
    }
    // spki_pem: PEM of a public and of a private key, LF and CR LF; the private key's also
    // without its final line break. Then base64url strings (32 and 31 bytes: no padding either way).
    let spki = public_key_to_spki(ps, &key.public_key).unwrap();
    for (name, pem) in [("public", pem_encode(&spki, "PUBLIC KEY")), ("private", pem_encode(&seed, "PRIVATE KEY"))] {
        put("spki_pem", &format!("44-pem-{name}"), pem.as_bytes());
        put("spki_pem", &format!("44-pem-{name}-crlf"), pem.replace('\n', "\r\n").as_bytes());
    }
    let pem = pem_encode(&seed, "PRIVATE KEY");
    put("spki_pem", "44-pem-private-crlf-no-final-break", pem.trim_end().replace('\n', "\r\n").as_bytes());
    // RFC 7468's lax layouts: the END line ended by a CR alone, a short line
    // before the last, a blank line; the base64 in 76 columns with text
    // around the armour, on one line, indented by tabs and spaces.
    put("spki_pem", "44-pem-private-cr-end", format!("{}\r", pem.trim_end()).as_bytes());
    let b64 = pem.lines().nth(1).unwrap();
    put(
        "spki_pem",
        "44-pem-private-short-line",
        pem.replacen(b64, &format!("{}\n{}", &b64[..40], &b64[40..]), 1).as_bytes(),
    );
    put("spki_pem", "44-pem-private-blank-line", pem.replacen(b64, &format!("{b64}\n"), 1).as_bytes());
    let spki_pem = pem_encode(&spki, "PUBLIC KEY");
    let body: String = spki_pem.lines().filter(|l| !l.starts_with('-')).collect();
    let lines76: Vec<&str> = body.as_bytes().chunks(76).map(|l| std::str::from_utf8(l).unwrap()).collect();
    let (begin, end) = ("-----BEGIN PUBLIC KEY-----", "-----END PUBLIC KEY-----");
    let col76 =
        format!("Test key\r\n-- not a secret --\r\n{begin}\r\n{}\r\n{end}\r\nmore text\r\n", lines76.join("\r\n"));
    put("spki_pem", "44-pem-public-76-columns-text-around", col76.as_bytes());
    put("spki_pem", "44-pem-public-one-line", format!("{begin}{body}{end}").as_bytes());
    put("spki_pem", "44-pem-public-indented", spki_pem.replace('\n', "\n\t ").as_bytes());
    // Refused: the padding missing, a dash in the base64.
    put("spki_pem", "44-pem-public-no-padding", spki_pem.replace('=', "").as_bytes());
    put("spki_pem", "44-pem-public-dash", spki_pem.replacen("\nMI", "\nM-", 1).as_bytes());
    put("spki_pem", "base64url-32", base64url_encode(&seed[22..]).as_bytes());
    put("spki_pem", "base64url-31", base64url_encode(&seed[23..]).as_bytes());
}
