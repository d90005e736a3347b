//! Native checks of the decoder: a known stream (from LZMA-JS, which the build
//! uses), every truncation of it and wrong sizes refused, and random streams
//! with every properties byte refused without a panic. The round trips over
//! many inputs, LZMA-JS levels and damaged streams run against the built
//! .wasm in `unpack.test.mjs`.
use super::*;

const TEXT: &[u8] = b"ML-DSA (FIPS 204) in WebAssembly; ML-DSA (FIPS 204) in wasm; ML-DSA-44, ML-DSA-65, ML-DSA-87. \
aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab";

/// TEXT compressed by LZMA-JS at level 9 (lc = 3, lp = 0, pb = 2; properties
/// byte 93), without the 13-byte .lzma header; it ends with an end marker.
const STREAM: &str = "00269301a2d9d0966d57e6504b3b3c8f5b7b16c38ff4023d549656e88694a8873cd83edf8c6d1c99f4e3362a464766d3242e827435bed3bbe5a4492a3fe2634f8647fffeab1800";

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
    let stream = unhex(STREAM);
    let mut refused = 0;
    for round in 0..20_000 {
        let (input, props, size) = if round % 2 == 0 {
            let n = (next() % 200) as usize;
            ((0..n).map(|_| next() as u8).collect::<Vec<_>>(), (next() % 225) as u32, (next() % 3000) as usize)
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
    assert!(refused > 19_000, "only {refused} of 20000 refused");
}
