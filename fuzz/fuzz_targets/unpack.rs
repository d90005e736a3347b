//! The `unpack/` LZMA decoder against liblzma (xz's C library, the reference
//! implementation of the format).
//!
//! Mode 0, input: 0 ‖ props ‖ size (2, LE) ‖ stream: an arbitrary raw stream.
//! With properties the decoder allows (lc + lp ≤ 4, pb ≤ 4), it must accept
//! exactly the streams that liblzma's .lzma decoder accepts given the same
//! properties and size, and give the same bytes; other properties must be
//! refused as such. Either way no panic, no out-of-bounds access.
//!
//! Mode 1, input: 1 ‖ props ‖ preset ‖ data (≤ 1 KiB): data compressed by liblzma
//! (preset 0–9, the given properties clamped to the allowed ones, with an end
//! marker) must decode to data.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa_simd_fuzz::{lzma_props, Input};
use mldsa_simd_unpack::{decode, Error};
use xz2::stream::{Action, LzmaOptions, Status, Stream};

/// The 13-byte .lzma header: properties, dictionary size, uncompressed size.
fn lzma_header(lc: u32, lp: u32, pb: u32, size: usize) -> Vec<u8> {
    let mut h = vec![((pb * 5 + lp) * 9 + lc) as u8];
    // A dictionary as large as the output: every distance back to its start
    // allowed, as in unpack (whose dictionary is the output buffer).
    h.extend_from_slice(&(size.max(4096) as u32).to_le_bytes());
    h.extend_from_slice(&(size as u64).to_le_bytes());
    h
}

/// liblzma's decoding of a .lzma file, or None when it refuses it.
fn liblzma_decode(file: &[u8], size: usize) -> Option<Vec<u8>> {
    let mut s = Stream::new_lzma_decoder(u64::MAX).unwrap();
    let mut out = Vec::with_capacity(size + 1);
    match s.process_vec(file, &mut out, Action::Finish) {
        Ok(Status::StreamEnd) => Some(out),
        _ => None,
    }
}

fn liblzma_encode(data: &[u8], lc: u32, lp: u32, pb: u32, preset: u32) -> Vec<u8> {
    let mut opts = LzmaOptions::new_preset(preset).unwrap();
    // A dictionary no larger than needed: the encoder's set-up time grows with it.
    opts.dict_size(data.len().next_power_of_two().max(4096) as u32)
        .literal_context_bits(lc)
        .literal_position_bits(lp)
        .position_bits(pb);
    let mut s = Stream::new_lzma_encoder(&opts).unwrap();
    let mut out = Vec::with_capacity(data.len() + data.len() / 2 + 64);
    loop {
        let before = s.total_in() as usize;
        match s.process_vec(&data[before..], &mut out, Action::Finish).unwrap() {
            Status::StreamEnd => return out,
            _ => out.reserve(out.capacity()),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input(data);
    let mode = inp.byte() & 1;
    let (lc, lp, pb) = lzma_props(inp.byte());
    if mode == 1 {
        let (lc, pb) = (lc.min(4), pb.min(4));
        let lp = lp.min(4 - lc);
        let preset = u32::from(inp.byte() % 10);
        // At most 1 KiB: liblzma's higher presets take milliseconds per KiB.
        let text = inp.take(1024);
        let file = liblzma_encode(text, lc, lp, pb, preset);
        let mut out = vec![0u8; text.len()];
        assert_eq!(decode(&file[13..], lc, lp, pb, &mut out), Ok(()), "liblzma's stream refused");
        assert!(out == text, "liblzma's stream decodes to other bytes");
        return;
    }
    let size = usize::from(inp.u16());
    let stream = inp.rest();
    let mut out = vec![0xa5u8; size];
    let ours = decode(stream, lc, lp, pb, &mut out);
    if lc + lp > 4 || pb > 4 {
        assert_eq!(ours, Err(Error::BadProperties));
        return;
    }
    let mut file = lzma_header(lc, lp, pb, size);
    file.extend_from_slice(stream);
    let theirs = liblzma_decode(&file, size);
    match (ours, theirs) {
        (Ok(()), Some(t)) => assert!(out == t, "both accept, with different bytes"),
        (Err(_), None) => {}
        (ours, theirs) => panic!("unpack: {ours:?}, liblzma: {}", if theirs.is_some() { "accepts" } else { "refuses" }),
    }
});
