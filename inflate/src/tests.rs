//! The decoder against miniz_oxide's compressor: every block type, sizes from
//! empty to several blocks, long overlapping matches; and refusals of broken
//! streams, which must be errors, not panics.
use super::*;
use miniz_oxide::deflate::core::{compress_to_output, create_comp_flags_from_zip_params, CompressionStrategy, CompressorOxide, TDEFLFlush};

/// Raw DEFLATE of `data` at `level` with `strategy` (0 = default, 4 = fixed codes only).
fn deflate(data: &[u8], level: i32, strategy: i32) -> Vec<u8> {
    let mut c = CompressorOxide::new(create_comp_flags_from_zip_params(level, -15, strategy));
    let mut out = Vec::new();
    let (status, _) = compress_to_output(&mut c, data, TDEFLFlush::Finish, |b| {
        out.extend_from_slice(b);
        true
    });
    assert_eq!(status as i32, 1, "compressor status"); // TDEFLStatus::Done
    out
}

/// Deterministic pseudo-random bytes (xorshift64*).
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            (s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
        })
        .collect()
}

/// Inputs with literals, short and long matches, runs (matches overlapping
/// themselves), and incompressible stretches.
fn samples() -> Vec<Vec<u8>> {
    let text: Vec<u8> = (0..4000).flat_map(|i| format!("coefficient {} of poly {}; ", i % 97, i % 13).into_bytes()).collect();
    let mut mixed = noise(20_000, 7);
    mixed.extend(vec![0u8; 70_000]);
    mixed.extend(&text[..30_000]);
    mixed.extend(noise(5_000, 8));
    mixed.extend(&text[..30_000]);
    vec![
        vec![],
        vec![42],
        b"abcabcabcabcabcabcabcabcabcabcab".to_vec(),
        noise(1000, 1),
        noise(100_000, 2),
        vec![0u8; 300_000],
        text,
        mixed,
    ]
}

fn inflated(stream: &[u8], size: usize) -> Result<Vec<u8>, Error> {
    let mut out = vec![0xa5; size];
    inflate(stream, &mut out).map(|()| out)
}

/// The type of the first block: bits 1..2 of the first byte.
fn first_block_type(stream: &[u8]) -> u8 {
    (stream[0] >> 1) & 3
}

#[test]
fn round_trips_every_level() {
    for data in samples() {
        for level in 0..=10 {
            let stream = deflate(&data, level, 0);
            assert_eq!(inflated(&stream, data.len()).as_deref(), Ok(&data[..]), "level {level}, {} bytes", data.len());
        }
    }
}

#[test]
fn each_block_type_is_covered() {
    let data = samples().pop().unwrap();
    for (level, strategy, want) in [(0, 0, 0), (6, CompressionStrategy::Fixed as i32, 1), (9, 0, 2)] {
        let stream = deflate(&data, level, strategy);
        assert_eq!(first_block_type(&stream), want, "level {level} strategy {strategy}");
        assert_eq!(inflated(&stream, data.len()).as_deref(), Ok(&data[..]));
    }
}

#[test]
fn wrong_sizes_are_refused() {
    let data = samples().pop().unwrap();
    for level in [0, 9] {
        let stream = deflate(&data, level, 0);
        assert_eq!(inflated(&stream, data.len() - 1), Err(Error::WrongSize));
        assert_eq!(inflated(&stream, data.len() + 1), Err(Error::WrongSize));
    }
}

#[test]
fn truncated_streams_are_refused() {
    let data = noise(3000, 3).into_iter().chain(vec![9u8; 3000]).collect::<Vec<_>>();
    for (level, strategy) in [(0, 0), (6, CompressionStrategy::Fixed as i32), (9, 0)] {
        let stream = deflate(&data, level, strategy);
        for cut in 0..stream.len() {
            assert!(inflated(&stream[..cut], data.len()).is_err(), "level {level}: {cut} of {} bytes", stream.len());
        }
    }
}

#[test]
fn malformed_blocks_are_refused() {
    // Block type 3 (final bit set): 0b111.
    assert_eq!(inflated(&[0x07], 0), Err(Error::BadBlock));
    // Stored, final, LEN = 1, NLEN not its complement.
    assert_eq!(inflated(&[0x01, 0x01, 0x00, 0x00, 0x00, 0x41], 1), Err(Error::BadBlock));
    // The same with NLEN = !LEN is one byte 'A'.
    assert_eq!(inflated(&[0x01, 0x01, 0x00, 0xfe, 0xff, 0x41], 1), Ok(vec![0x41]));
    // Fixed block whose first symbol is a match (length 3, distance 1) with
    // no output before it: 1, 01 (fixed), then code 257 = 0000001 (7 bits,
    // sent msb first) and distance code 0 = 00000.
    let mut w = BitWriter::default();
    w.put(1, 1);
    w.put(1, 2);
    w.put_code(0b000_0001, 7);
    w.put_code(0, 5);
    assert_eq!(inflated(&w.bytes, 3), Err(Error::BadDistance));
    // Fixed block with literal-length symbol 286 (8-bit code 11000110), which
    // fixed codes define but the format forbids.
    let mut w = BitWriter::default();
    w.put(1, 1);
    w.put(1, 2);
    w.put_code(0b1100_0110, 8);
    assert_eq!(inflated(&w.bytes, 0), Err(Error::BadCode));
    // Dynamic block whose code-length code lengths are over-subscribed:
    // HLIT = HDIST = 0, HCLEN = 4 (4 + 4 = 8 lengths), each 1 bit long.
    let mut w = BitWriter::default();
    w.put(1, 1);
    w.put(2, 2);
    w.put(0, 5);
    w.put(0, 5);
    w.put(4, 4);
    for _ in 0..8 {
        w.put(1, 3);
    }
    assert_eq!(inflated(&w.bytes, 0), Err(Error::BadLengths));
}

#[test]
fn random_and_damaged_streams_never_panic() {
    let data = samples().pop().unwrap();
    let stream = deflate(&data, 9, 0);
    let mut s = 0x1234_5678_9abc_def1u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut refused = 0;
    for round in 0..3000 {
        // Random bytes, or the real stream with a few bits flipped.
        let damaged = if round % 2 == 0 {
            noise((next() % 2000) as usize, next())
        } else {
            let mut d = stream.clone();
            for _ in 0..1 + next() % 4 {
                let bit = (next() % (d.len() as u64 * 8)) as usize;
                d[bit >> 3] ^= 1 << (bit & 7);
            }
            d
        };
        let size = if round % 2 == 0 { (next() % 5000) as usize } else { data.len() };
        if inflated(&damaged, size).is_err() {
            refused += 1;
        }
    }
    // A flipped bit can survive (e.g. in a literal), but most streams must be refused.
    assert!(refused > 2000, "only {refused} of 3000 damaged streams refused");
}

#[test]
fn length_and_distance_tables_match_rfc_1951() {
    // Spot values from the tables of RFC 1951 §3.2.5.
    assert_eq!(LENGTHS[0], (3, 0));
    assert_eq!(LENGTHS[8], (11, 1));
    assert_eq!(LENGTHS[27], (227, 5));
    assert_eq!(LENGTHS[28], (258, 0));
    assert_eq!(DISTANCES[0], (1, 0));
    assert_eq!(DISTANCES[4], (5, 1));
    assert_eq!(DISTANCES[29], (24577, 13));
}

/// Bits least significant first; Huffman codes most significant bit first.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    n: usize,
}

impl BitWriter {
    fn put(&mut self, v: u32, bits: u32) {
        for i in 0..bits {
            if self.n % 8 == 0 {
                self.bytes.push(0);
            }
            *self.bytes.last_mut().unwrap() |= (((v >> i) & 1) as u8) << (self.n % 8);
            self.n += 1;
        }
    }
    fn put_code(&mut self, code: u32, bits: u32) {
        for i in (0..bits).rev() {
            self.put((code >> i) & 1, 1);
        }
    }
}

