//! Writes the seed corpus: `cargo run --release --example seeds` (from fuzz/)
//! fills `corpus/<target>/` with inputs in each target's layout, built from
//! real keys and signatures (KeyGen_internal from fixed seeds, deterministic
//! and hedged-with-fixed-rnd signing) and real LZMA streams, so that the
//! fuzzer starts from valid structure rather than having to find it.
//! Names say what a seed is; existing files of the same name are replaced.
use mldsa_simd::{keygen_internal, sign};
use mldsa_simd_fuzz::{header_byte, SETS};
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
        put("sign", &format!("{n}-keygen-ctx"), &cat(&[&[derived_more], &[i as u8 + 1; 32], &[0x5a; 32], &[9, 40], &[3], ctx, msg]));
        // pk_decode: header ‖ pk
        put("pk_decode", &format!("{n}-pk"), &cat(&[&[plain], &pk]));
    }
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
    let phrases_len: usize = (0..2500).map(|i| format!("{} {} {}\n", words[i % 7], sets[i % 11], (i * 7919) % 1009).len()).sum();
    put("unpack", "lzma-js-phrases", &cat(&[&[0, 93], &(phrases_len as u16).to_le_bytes(), &phrases]));
    // unpack, mode 1: 1 ‖ props ‖ preset ‖ data.
    put("unpack", "roundtrip-text", &cat(&[&[1, 93, 6], text]));
    put("unpack", "roundtrip-binary", &cat(&[&[1, 0, 9], &(0..=255u8).chain((0..=255u8).rev()).collect::<Vec<_>>()]));
}
