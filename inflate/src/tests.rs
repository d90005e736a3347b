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

/// A deterministic xorshift64 generator.
fn xorshift(mut s: u64) -> impl FnMut() -> u64 {
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
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
    let mut next = xorshift(0x1234_5678_9abc_def1u64);
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
fn stored_block_after_a_huffman_block_at_every_bit_offset() {
    // A fixed block of n literals (8- and 9-bit codes, so it ends at every
    // bit offset), a stored block, and a final fixed block.
    let mut offsets = [false; 8];
    for n in 0..24u32 {
        for stored in [0usize, 1, 5, 300] {
            let (mut w, mut want) = (BitWriter::default(), Vec::new());
            w.put(0, 1);
            w.put(1, 2);
            for i in 0..n {
                // Literals 0–143 have 8-bit codes 0x30 + v, 144–255 9-bit codes 0x190 + v − 144.
                let v = if i < n % 8 { 144 + i * 5 } else { i * 37 % 144 };
                if v < 144 { w.put_code(0x30 + v, 8) } else { w.put_code(0x190 + v - 144, 9) }
                want.push(v as u8);
            }
            w.put_code(0, 7); // end of block
            offsets[(w.n + 3) % 8] = true; // where the stored block's header ends
            w.put(0, 1);
            w.put(0, 2);
            let mut bytes = w.bytes;
            bytes.extend((stored as u16).to_le_bytes());
            bytes.extend((!(stored as u16)).to_le_bytes());
            bytes.extend((0..stored).map(|i| (i * 7) as u8));
            want.extend((0..stored).map(|i| (i * 7) as u8));
            let mut w = BitWriter::default();
            w.put(1, 1);
            w.put(1, 2);
            for v in [1, 2, 3] {
                w.put_code(0x30 + v, 8);
                want.push(v as u8);
            }
            w.put_code(0, 7);
            bytes.extend(w.bytes);
            assert_eq!(inflated(&bytes, want.len()), Ok(want), "{n} literals, {stored} stored bytes");
        }
    }
    assert!(offsets.iter().all(|&o| o), "not every bit offset was reached: {offsets:?}");
}

/// A dynamic block coding "A": literal 'A' and end-of-block both with code
/// length `len` (1: a complete code; 2: half the code space unused), and a
/// single one-bit distance code (incomplete, which is allowed).
fn dynamic_block_for_a(len: u32) -> Vec<u8> {
    let mut w = BitWriter::default();
    w.put(1, 1);
    w.put(2, 2);
    w.put(0, 5); // HLIT: 257 literal/length codes
    w.put(0, 5); // HDIST: 1 distance code
    w.put(14, 4); // HCLEN: 18 code-length code lengths, in CL_ORDER
    // Code lengths 0, 1, 2 and 18 get 2-bit codes 00, 01, 10, 11.
    let cl_len = |sym: u8| if [0, 1, 2, 18].contains(&sym) { 2 } else { 0 };
    for &sym in &CL_ORDER[..18] {
        w.put(cl_len(sym), 3);
    }
    let code_of = |sym: u32| match sym { 0 => 0b00, 1 => 0b01, 2 => 0b10, _ => 0b11 };
    let zeros = |w: &mut BitWriter, n: u32| {
        w.put_code(code_of(18), 2); // 11 + 7 extra bits zeros
        w.put(n - 11, 7);
    };
    zeros(&mut w, 65); // literals 0–64
    w.put_code(code_of(len), 2); // 'A'
    zeros(&mut w, 138);
    zeros(&mut w, 52); // literals 66–255
    w.put_code(code_of(len), 2); // end of block
    w.put_code(code_of(1), 2); // distance code 0: one bit
    // Canonical codes: 'A' then end-of-block, each `len` bits.
    w.put_code(0, len);
    w.put_code(1, len);
    w.bytes
}

#[test]
fn incomplete_codes_are_refused_as_zlib_refuses_them() {
    use miniz_oxide::inflate::decompress_to_vec;
    let complete = dynamic_block_for_a(1);
    assert_eq!(decompress_to_vec(&complete).ok().as_deref(), Some(&b"A"[..]));
    assert_eq!(inflated(&complete, 1), Ok(b"A".to_vec()));
    let incomplete = dynamic_block_for_a(2);
    assert!(decompress_to_vec(&incomplete).is_err());
    assert_eq!(inflated(&incomplete, 1), Err(Error::BadLengths));
}

/// Damaged and random streams get what miniz_oxide's decoder (zlib's rules)
/// gives them: the same bytes, or a refusal. So the decoder is no more
/// lenient than zlib, e.g. about incomplete codes.
#[test]
fn damaged_streams_are_decoded_as_miniz_decodes_them() {
    use miniz_oxide::inflate::decompress_to_vec_with_limit;
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
    // Skewed bytes give long codes; noise, stored and fixed blocks the rest.
    let skew: Vec<u8> = (0..6000u32).map(|i| (next().leading_zeros().min(40) as u8).wrapping_mul(3) + (i % 2) as u8 * 100).collect();
    let base = [deflate(&skew, 9, 0), deflate(&noise(2000, 5), 6, CompressionStrategy::Fixed as i32), deflate(&skew[..2000], 0, 0)];
    let (mut same, mut refused) = (0, 0);
    for round in 0..12_000u64 {
        let d = if round % 4 == 3 {
            (0..next() % 64).map(|_| next() as u8).collect()
        } else {
            let mut d = base[(round % 3) as usize].clone();
            for _ in 0..1 + next() % 3 {
                // Mostly in the block headers, where the code lengths are.
                let bit = (next() % (d.len() as u64 * 8).min(800)) as usize;
                d[bit >> 3] ^= 1 << (bit & 7);
            }
            if round % 5 == 0 {
                d.truncate(next() as usize % d.len());
            }
            d
        };
        match decompress_to_vec_with_limit(&d, 1 << 20) {
            Ok(v) => {
                assert_eq!(inflated(&d, v.len()), Ok(v), "round {round}: miniz accepts, we differ");
                same += 1;
            }
            Err(_) => {
                for size in [0, 1, 100, 6000] {
                    assert!(inflated(&d, size).is_err(), "round {round}: miniz refuses, we accept {size} bytes");
                }
                refused += 1;
            }
        }
    }
    assert!(same > 100 && refused > 5000, "{same} accepted, {refused} refused");
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

