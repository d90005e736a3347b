//! An LZMA decoder for one job: the npm package embeds the mldsa-simd .wasm
//! LZMA-compressed and base64-encoded (base64 of the raw module gzips 70%
//! larger than base64 of the compressed bytes, and LZMA packs this module 17%
//! tighter than the best DEFLATE), and this crate, built to a small .wasm of
//! its own, gives the module back at import. The main module cannot unpack
//! itself, and a decoder in plain JS would run in V8's interpreter.
//!
//! The format is the raw LZMA stream of the LZMA SDK's `lzma-specification`
//! (range coder, literal/match/rep state machine, length and distance
//! coders); the properties (lc, lp, pb) are given by the caller and the
//! output length is known, so no header is read. The whole output buffer is
//! the dictionary.
//!
//! Everything read is checked: the range coder's first byte and first code,
//! reads past the input, distances before the start of the output, lengths
//! past its end, and the end: the output complete with the range coder's code
//! at zero, with or without an end marker (LZMA-JS writes one). Bad input
//! gives an [`Error`], never a panic or an out-of-bounds access.
#![cfg_attr(all(target_arch = "wasm32", not(test)), no_std)]

/// Why a stream was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Error {
    /// lc + lp > 4, or pb > 4.
    BadProperties = 1,
    /// The input ended before the output was complete.
    InputEnds = 2,
    /// A range coder that starts wrongly or does not end with a zero code.
    Corrupt = 3,
    /// A distance that reaches before the start of the output.
    BadDistance = 4,
    /// A match running past the end of the output, or an end marker early.
    WrongSize = 5,
}

/// Probabilities are 11-bit; each starts at one half.
const PROB_INIT: u16 = 1 << 10;
const STATES: usize = 12;
const POS_STATES_MAX: usize = 1 << 4;
/// lc + lp ≤ 4, as LZMA2 requires: at most 16 literal coders of 0x300 each.
const LITERAL_CODERS_MAX: usize = 1 << 4;
const END_POS_MODEL: usize = 14;
const FULL_DISTANCES: usize = 1 << (END_POS_MODEL >> 1);
const ALIGN_BITS: u32 = 4;

/// `s[i]`, or Corrupt when `i` lies outside `s`. The decoder indexes only
/// through this and `byte` (every index is also checked by the logic around
/// it), so the .wasm has no panicking bounds check, and none of the message
/// and location data that a panic carries.
fn at<T>(s: &mut [T], i: usize) -> Result<&mut T, Error> {
    s.get_mut(i).ok_or(Error::Corrupt)
}

/// A byte already written to the output: a distance that reaches before its
/// start is refused (BadDistance).
fn byte(out: &[u8], i: usize) -> Result<u8, Error> {
    out.get(i).copied().ok_or(Error::BadDistance)
}

/// The range decoder (lzma-specification: "The range decoder").
struct Range<'a> {
    input: &'a [u8],
    at: usize,
    range: u32,
    code: u32,
}

impl<'a> Range<'a> {
    fn new(input: &'a [u8]) -> Result<Range<'a>, Error> {
        if input.len() < 5 {
            return Err(Error::InputEnds);
        }
        let code = u32::from_be_bytes([input[1], input[2], input[3], input[4]]);
        // The first byte is always 0, and the code starts below the range.
        if input[0] != 0 || code == u32::MAX {
            return Err(Error::Corrupt);
        }
        Ok(Range { input, at: 5, range: u32::MAX, code })
    }

    fn normalize(&mut self) -> Result<(), Error> {
        if self.range < 1 << 24 {
            let byte = *self.input.get(self.at).ok_or(Error::InputEnds)?;
            self.at += 1;
            self.range <<= 8;
            self.code = (self.code << 8) | u32::from(byte);
        }
        Ok(())
    }

    /// One bit with an adaptive probability (of a 0, in 1/2048ths).
    fn bit(&mut self, prob: &mut u16) -> Result<u32, Error> {
        let bound = (self.range >> 11) * u32::from(*prob);
        let bit = if self.code < bound {
            self.range = bound;
            *prob += ((1 << 11) - *prob) >> 5;
            0
        } else {
            self.range -= bound;
            self.code -= bound;
            *prob -= *prob >> 5;
            1
        };
        self.normalize()?;
        Ok(bit)
    }

    /// `n` bits with probability one half each, most significant first.
    fn direct(&mut self, n: u32) -> Result<u32, Error> {
        let mut v = 0;
        for _ in 0..n {
            self.range >>= 1;
            let bit = u32::from(self.code >= self.range);
            self.code -= self.range & 0u32.wrapping_sub(bit);
            v = (v << 1) | bit;
            self.normalize()?;
        }
        Ok(v)
    }

    /// A bit tree of `n` levels (probs[1..2^n]), most significant bit first.
    fn tree(&mut self, probs: &mut [u16], n: u32) -> Result<u32, Error> {
        let mut m = 1;
        for _ in 0..n {
            m = (m << 1) | self.bit(at(probs, m as usize)?)?;
        }
        Ok(m - (1 << n))
    }

    /// The same, least significant bit first.
    fn reverse_tree(&mut self, probs: &mut [u16], n: u32) -> Result<u32, Error> {
        let (mut m, mut v) = (1, 0);
        for i in 0..n {
            let bit = self.bit(at(probs, m as usize)?)?;
            m = (m << 1) | bit;
            v |= bit << i;
        }
        Ok(v)
    }
}

/// A length coder (lzma-specification: "The length decoder"): 0..=271, to
/// which the caller adds the minimum match length 2.
#[repr(C)]
struct Lengths {
    choice: u16,
    choice2: u16,
    low: [[u16; 1 << 3]; POS_STATES_MAX],
    mid: [[u16; 1 << 3]; POS_STATES_MAX],
    high: [u16; 1 << 8],
}

impl Lengths {
    fn decode(&mut self, rc: &mut Range, pos_state: usize) -> Result<u32, Error> {
        if rc.bit(&mut self.choice)? == 0 {
            return rc.tree(at(&mut self.low, pos_state)?, 3);
        }
        if rc.bit(&mut self.choice2)? == 0 {
            return Ok(8 + rc.tree(at(&mut self.mid, pos_state)?, 3)?);
        }
        Ok(16 + rc.tree(&mut self.high, 8)?)
    }
}

/// Every adaptive probability of the decoder: only u16 fields, so that
/// `reset` can fill it as one array.
#[repr(C)]
struct Model {
    literal: [[u16; 0x300]; LITERAL_CODERS_MAX],
    is_match: [[u16; POS_STATES_MAX]; STATES],
    is_rep: [u16; STATES],
    is_rep_g0: [u16; STATES],
    is_rep_g1: [u16; STATES],
    is_rep_g2: [u16; STATES],
    is_rep0_long: [[u16; POS_STATES_MAX]; STATES],
    pos_slot: [[u16; 1 << 6]; 4],
    pos: [u16; 1 + FULL_DISTANCES - END_POS_MODEL],
    align: [u16; 1 << ALIGN_BITS],
    len: Lengths,
    rep_len: Lengths,
}

/// Decodes a raw LZMA stream with properties `lc`, `lp`, `pb` into exactly
/// `out` (whose length is the uncompressed size).
pub fn decode(input: &[u8], lc: u32, lp: u32, pb: u32, out: &mut [u8]) -> Result<(), Error> {
    if lc > 4 || lp > 4 || lc + lp > 4 || pb > 4 {
        return Err(Error::BadProperties);
    }
    // About 30 KB: boxed natively, in a static in the wasm build (see below).
    #[allow(unused_mut)] // a Box natively, a &mut in wasm
    let mut model = model();
    let m = &mut *model;
    m.reset();
    let mut rc = Range::new(input)?;
    let (lp_mask, pb_mask) = ((1usize << lp) - 1, (1usize << pb) - 1);
    let (mut state, mut reps) = (0usize, [0usize; 4]);
    let mut pos = 0usize;
    loop {
        // With the output complete, the stream ends there (the range coder's
        // code is then zero) or with an end marker.
        let done = pos == out.len();
        if done && rc.code == 0 {
            return Ok(());
        }
        let pos_state = pos & pb_mask;
        if rc.bit(at(at(&mut m.is_match, state)?, pos_state)?)? == 0 {
            if done {
                return Err(Error::WrongSize);
            }
            // A literal, coded with the previous byte's top lc bits and the
            // position's low lp bits; after a match, against the byte at rep0.
            let prev = if pos > 0 { byte(out, pos - 1)? } else { 0 };
            let coder = ((pos & lp_mask) << lc) + (usize::from(prev) >> (8 - lc));
            let probs = at(&mut m.literal, coder)?;
            let mut symbol = 1usize;
            if state >= 7 {
                let mut match_byte = usize::from(byte(out, pos.wrapping_sub(reps[0] + 1))?);
                while symbol < 0x100 {
                    let match_bit = (match_byte >> 7) & 1;
                    match_byte <<= 1;
                    let bit = rc.bit(at(probs, ((1 + match_bit) << 8) + symbol)?)? as usize;
                    symbol = (symbol << 1) | bit;
                    if bit != match_bit {
                        break;
                    }
                }
            }
            while symbol < 0x100 {
                symbol = (symbol << 1) | rc.bit(at(probs, symbol)?)? as usize;
            }
            *at(out, pos)? = symbol as u8;
            pos += 1;
            state = if state < 4 {
                0
            } else if state < 10 {
                state - 3
            } else {
                state - 6
            };
            continue;
        }
        let len;
        if rc.bit(at(&mut m.is_rep, state)?)? == 0 {
            // A match with a new distance.
            len = m.len.decode(&mut rc, pos_state)? as usize;
            state = if state < 7 { 7 } else { 10 };
            let dist = distance(m, &mut rc, len)?;
            if dist == u32::MAX as usize {
                // The end marker, allowed only where the output is complete.
                return match (done, rc.code) {
                    (true, 0) => Ok(()),
                    (true, _) => Err(Error::Corrupt),
                    _ => Err(Error::WrongSize),
                };
            }
            if done {
                return Err(Error::WrongSize);
            }
            reps = [dist, reps[0], reps[1], reps[2]];
        } else {
            if done {
                return Err(Error::WrongSize);
            }
            if rc.bit(at(&mut m.is_rep_g0, state)?)? == 0 {
                if rc.bit(at(at(&mut m.is_rep0_long, state)?, pos_state)?)? == 0 {
                    // One byte from rep0.
                    if reps[0] >= pos {
                        return Err(Error::BadDistance);
                    }
                    *at(out, pos)? = byte(out, pos - reps[0] - 1)?;
                    pos += 1;
                    state = if state < 7 { 9 } else { 11 };
                    continue;
                }
            } else {
                let dist;
                if rc.bit(at(&mut m.is_rep_g1, state)?)? == 0 {
                    dist = reps[1];
                } else {
                    if rc.bit(at(&mut m.is_rep_g2, state)?)? == 0 {
                        dist = reps[2];
                    } else {
                        dist = reps[3];
                        reps[3] = reps[2];
                    }
                    reps[2] = reps[1];
                }
                reps[1] = reps[0];
                reps[0] = dist;
            }
            len = m.rep_len.decode(&mut rc, pos_state)? as usize;
            state = if state < 7 { 8 } else { 11 };
        }
        let (len, back) = (len + 2, reps[0] + 1);
        if back > pos {
            return Err(Error::BadDistance);
        }
        if len > out.len() - pos {
            return Err(Error::WrongSize);
        }
        // Byte by byte: the copy may overlap what it writes (back < len).
        for _ in 0..len {
            *at(out, pos)? = byte(out, pos - back)?;
            pos += 1;
        }
    }
}

/// A match distance minus one (lzma-specification: "The distance decoder").
fn distance(m: &mut Model, rc: &mut Range, len: usize) -> Result<usize, Error> {
    let slot = rc.tree(at(&mut m.pos_slot, len.min(3))?, 6)?;
    if slot < 4 {
        return Ok(slot as usize);
    }
    let bits = (slot >> 1) - 1;
    let mut dist = (2 | (slot & 1)) << bits;
    if (slot as usize) < END_POS_MODEL {
        let base = (dist - slot) as usize;
        dist += rc.reverse_tree(m.pos.get_mut(base..).ok_or(Error::Corrupt)?, bits)?;
    } else {
        dist = dist.wrapping_add(rc.direct(bits - ALIGN_BITS)? << ALIGN_BITS);
        dist = dist.wrapping_add(rc.reverse_tree(&mut m.align, ALIGN_BITS)?);
    }
    Ok(dist as usize)
}

// `reset` fills the model as u16s: it must be nothing else, with no padding
// (14,135 probabilities).
const _: () = assert!(core::mem::size_of::<Model>() == 2 * 14_135 && core::mem::align_of::<Model>() == 2);

impl Model {
    /// Every probability to one half.
    fn reset(&mut self) {
        // SAFETY: Model is repr(C) and made of u16 arrays only (Lengths too),
        // so it is exactly size_of::<Model>() / 2 initialised u16s.
        let all = unsafe {
            core::slice::from_raw_parts_mut(self as *mut Model as *mut u16, core::mem::size_of::<Model>() / 2)
        };
        all.fill(PROB_INIT);
    }
}

/// Room for a model, boxed natively (tests run in parallel threads).
#[cfg(not(target_arch = "wasm32"))]
fn model() -> Box<Model> {
    // SAFETY: all-zero u16 arrays are a valid Model; `decode` resets it.
    unsafe { Box::new(core::mem::zeroed()) }
}

/// Room for a model in the wasm build: one zero-initialised static (not
/// carried in the .wasm), so the stack stays small and nothing needs an
/// allocator. The module is single-threaded and `decode` is not reentrant.
#[cfg(target_arch = "wasm32")]
fn model() -> &'static mut Model {
    struct Slot(core::cell::UnsafeCell<Model>);
    unsafe impl Sync for Slot {}
    // SAFETY: all-zero u16 arrays are a valid Model.
    static SLOT: Slot = Slot(core::cell::UnsafeCell::new(unsafe { core::mem::zeroed() }));
    // SAFETY: single-threaded (see the guard below), and `decode`, the only
    // caller, holds the reference for one call and never calls itself.
    unsafe { &mut *SLOT.0.get() }
}

#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
compile_error!("the model is a plain static: single-threaded wasm only");

/// The wasm export: decodes `in_len` bytes at `input` (a raw LZMA stream with
/// properties byte `props` = (pb·5 + lp)·9 + lc) into exactly `out_len` bytes
/// at `out`, both in this module's memory (the caller grows the memory and
/// places them in the new pages). Returns 0, or an [`Error`] code.
///
/// # Safety
/// Both ranges must lie in linear memory and not overlap.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub unsafe extern "C" fn unlzma(props: u32, input: *const u8, in_len: usize, out: *mut u8, out_len: usize) -> i32 {
    let input = core::slice::from_raw_parts(input, in_len);
    let out = core::slice::from_raw_parts_mut(out, out_len);
    if props >= 9 * 5 * 5 {
        return Error::BadProperties as i32;
    }
    match decode(input, props % 9, props / 9 % 5, props / 45, out) {
        Ok(()) => 0,
        Err(e) => e as i32,
    }
}

/// A panic can only come from a bug here (every read is checked first); it traps.
#[cfg(all(target_arch = "wasm32", not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

#[cfg(test)]
mod tests;
