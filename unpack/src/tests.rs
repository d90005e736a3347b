//! Native checks of the decoder, with overflow checks on (test.sh runs them in
//! a debug build): known streams from LZMA-JS (which the build uses), one of
//! them long enough to use every kind of match (rep0–rep3, short reps,
//! matched literals, distances past slot 14), and one without an end marker;
//! truncations, wrong sizes and damaged endings refused; random streams with
//! every properties byte refused without a panic. Round trips over many
//! inputs and LZMA-JS levels run against the built .wasm in `unpack.test.mjs`.
use super::*;

const TEXT: &[u8] = b"ML-DSA (FIPS 204) in WebAssembly; ML-DSA (FIPS 204) in wasm; ML-DSA-44, ML-DSA-65, ML-DSA-87. \
aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab";

/// TEXT compressed by LZMA-JS at level 9 (lc = 3, lp = 0, pb = 2; properties
/// byte 93), without the 13-byte .lzma header; it ends with an end marker.
const STREAM: &str = "00269301a2d9d0966d57e6504b3b3c8f5b7b16c38ff4023d549656e88694a8873cd83edf8c6d1c99f4e3362a464766d3242e827435bed3bbe5a4492a3fe2634f8647fffeab1800";

/// A literal-only stream without an end marker (the range coder just
/// flushed), as some encoders write when the size is known; xz decodes it too.
const NO_MARKER_TEXT: &[u8] = b"Literals only, and no end marker: the stream stops when the output is complete.";
const NO_MARKER: &str = "00261a4a86678fd1895355e75f48290edf434551bcb4d9f54e7478529aafb41e11f943637f1432db1c5bdaefc0777e32140f0faafb7734a18df0d54624a6dbb8a42d22e8371d75d71e4087a278";

/// `tests/phrases.lzma`: LZMA-JS level 9 of this text (properties byte 93),
/// without the .lzma header. Its phrases repeat at many distances, so the
/// stream uses rep1–rep3 (about 100 each), short reps, matched literals and
/// distances in slot 14 and beyond.
fn phrases_text() -> Vec<u8> {
    let words = ["keygen", "sign", "verify", "ExpandA", "ExpandS", "ExpandMask", "SampleInBall"];
    let sets = ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "rho", "tr", "mu", "c~", "z", "h", "w1", "t0"];
    (0..2500).flat_map(|i| format!("{} {} {}\n", words[i % 7], sets[i % 11], (i * 7919) % 1009).into_bytes()).collect()
}
const PHRASES: &[u8] = include_bytes!("../tests/phrases.lzma");

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

fn decoded(stream: &[u8], props: u32, size: usize) -> Result<Vec<u8>, Error> {
    let mut out = vec![0xa5; size];
    decode(stream, props % 9, props / 9 % 5, props / 45, &mut out).map(|()| out)
}

#[test]
fn known_stream_decodes() {
    assert_eq!(decoded(&unhex(STREAM), 93, TEXT.len()).as_deref(), Ok(TEXT));
}

#[test]
fn every_kind_of_match_decodes() {
    let text = phrases_text();
    assert_eq!(decoded(PHRASES, 93, text.len()), Ok(text));
}

#[test]
fn a_stream_without_end_marker_decodes() {
    let stream = unhex(NO_MARKER);
    assert_eq!(decoded(&stream, 93, NO_MARKER_TEXT.len()).as_deref(), Ok(NO_MARKER_TEXT));
    // One byte short, the code is not zero yet and a literal follows.
    assert_eq!(decoded(&stream, 93, NO_MARKER_TEXT.len() - 1), Err(Error::WrongSize));
    assert!(decoded(&stream, 93, NO_MARKER_TEXT.len() + 1).is_err());
}

#[test]
fn bad_starts_and_damaged_endings_are_refused() {
    // The first byte must be 0 and the first code below the range.
    assert_eq!(decoded(&[1, 0, 0, 0, 0, 0], 93, 1), Err(Error::Corrupt));
    assert_eq!(decoded(&[0, 0xff, 0xff, 0xff, 0xff, 0], 93, 1), Err(Error::Corrupt));
    // Any bit of the last four bytes flipped: the end marker or the final
    // zero code no longer comes out.
    let stream = unhex(STREAM);
    for bit in (stream.len() - 4) * 8..stream.len() * 8 {
        let mut d = stream.clone();
        d[bit / 8] ^= 1 << (bit % 8);
        assert!(decoded(&d, 93, TEXT.len()).is_err(), "bit {bit}");
    }
}

#[test]
fn truncations_and_wrong_sizes_are_refused() {
    let stream = unhex(STREAM);
    for cut in 0..stream.len() {
        assert!(decoded(&stream[..cut], 93, TEXT.len()).is_err(), "cut at {cut}");
    }
    assert_eq!(decoded(&stream, 93, TEXT.len() + 1), Err(Error::WrongSize));
    // One byte short: the next symbol is a literal or match, not the end.
    assert!(decoded(&stream, 93, TEXT.len() - 1).is_err());
}

#[test]
fn properties_beyond_lc_plus_lp_4_are_refused() {
    let stream = unhex(STREAM);
    let mut out = vec![0; TEXT.len()];
    assert_eq!(decode(&stream, 4, 1, 2, &mut out), Err(Error::BadProperties));
    assert_eq!(decode(&stream, 3, 0, 5, &mut out), Err(Error::BadProperties));
}

#[test]
fn random_and_damaged_streams_never_panic() {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let (stream, phrases_len) = (unhex(STREAM), phrases_text().len());
    let mut refused = 0;
    for round in 0..6_000 {
        let (input, props, size) = if round % 2 == 0 {
            // A valid start (first byte 0, first code below 2^32 − 1), so
            // that the decoder gets past the range coder's checks.
            let n = 5 + (next() % 200) as usize;
            let mut d: Vec<u8> = (0..n).map(|_| next() as u8).collect();
            d[0] = 0;
            d[1] &= 0x7f;
            (d, (next() % 225) as u32, (next() % 3000) as usize)
        } else if round % 4 == 1 {
            let mut d = PHRASES.to_vec();
            for _ in 0..1 + next() % 3 {
                let bit = (next() % (d.len() as u64 * 8)) as usize;
                d[bit >> 3] ^= 1 << (bit & 7);
            }
            (d, 93, phrases_len)
        } else {
            let mut d = stream.clone();
            for _ in 0..1 + next() % 3 {
                let bit = (next() % (d.len() as u64 * 8)) as usize;
                d[bit >> 3] ^= 1 << (bit & 7);
            }
            (d, 93, TEXT.len())
        };
        if decoded(&input, props, size).is_err() {
            refused += 1;
        }
    }
    assert!(refused > 5_900, "only {refused} of 6000 refused");
}
