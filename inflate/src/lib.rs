//! A raw DEFLATE decoder (RFC 1951) for one job: the npm package embeds the
//! mldsa-simd .wasm deflated and base64-encoded (base64 of the raw module
//! gzips about 30% worse than base64 of deflated bytes), and this crate,
//! built to a .wasm of about 5 KB (3 KB gzip), gives the module back at
//! import. It is its own module because the main one cannot unpack itself,
//! and the same decoder in plain JS took ~20 ms at start-up: it runs once, in
//! V8's interpreter.
//!
//! It decodes stored, fixed-Huffman and dynamic-Huffman blocks and checks
//! everything it reads: block types, code lengths (codes must be complete, by
//! zlib's rules), codes, distances, and the input and output ends. Bad input
//! gives an [`Error`], never a panic or an out-of-bounds access. The output
//! length is known in advance and must match.
//!
//! Huffman codes (canonical, RFC 1951 §3.2.2) up to 10 bits long are decoded
//! with one lookup in a 1024-entry table, longer ones bit by bit from the
//! number of codes of each length. The code runs once, in V8's baseline
//! compiler, so it does few operations per symbol: the ~83 KB module inflates
//! in about 4–5 ms at import.
#![cfg_attr(all(target_arch = "wasm32", not(test)), no_std)]

/// Why a stream was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Error {
    /// The input ended inside a block.
    InputEnds = 1,
    /// Block type 3, or a stored block whose NLEN is not the complement of LEN.
    BadBlock = 2,
    /// Code lengths that are over-subscribed or incomplete, repeat nothing,
    /// run past the table, or lack the end-of-block code.
    BadLengths = 3,
    /// A bit pattern that is no code, or a length/distance symbol out of range.
    BadCode = 4,
    /// A distance that reaches before the start of the output.
    BadDistance = 5,
    /// More or fewer bytes than the caller said.
    WrongSize = 6,
}

const MAX_BITS: usize = 15;
const MAX_LIT: usize = 288;
/// The order in which the code-length code lengths are sent (§3.2.7).
const CL_ORDER: [u8; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// Base and extra bits of length codes 257..=285 (§3.2.5): four codes per
/// extra bit after the first eight, each base following the last range; 285
/// is 258 with no extra bits.
const LENGTHS: [(u16, u8); 29] = {
    let mut t = [(258, 0); 29];
    let (mut i, mut base) = (0, 3);
    while i < 28 {
        let extra = if i < 8 { 0 } else { (i >> 2) - 1 };
        t[i] = (base, extra as u8);
        base += 1 << extra;
        i += 1;
    }
    t
};

/// Base and extra bits of distance codes 0..=29 (§3.2.5): two codes per extra
/// bit after the first four.
const DISTANCES: [(u16, u8); 30] = {
    let mut t = [(0, 0); 30];
    let (mut i, mut base) = (0, 1u32);
    while i < 30 {
        let extra = if i < 4 { 0 } else { (i >> 1) - 1 };
        t[i] = (base as u16, extra as u8);
        base += 1 << extra;
        i += 1;
    }
    t
};

/// Input bits, least significant bit of each byte first (§3.1.1), through a
/// 64-bit buffer. Past the end of the input it reads zeros, so that a table
/// lookup may peek beyond the last code; taking bits that are not there is
/// an error.
struct Bits<'a> {
    input: &'a [u8],
    /// The next input byte to load.
    at: usize,
    buf: u64,
    have: u32,
}

impl Bits<'_> {
    /// Loads bytes until at least 56 bits are buffered.
    fn refill(&mut self) {
        // Eight bytes in one load where the input has them: only the whole
        // bytes that fit are counted, and the next load re-reads the rest.
        if let Some(word) = self.input.get(self.at..self.at + 8) {
            let word = u64::from_le_bytes([word[0], word[1], word[2], word[3], word[4], word[5], word[6], word[7]]);
            self.buf |= word << self.have;
            self.at += (63 - self.have as usize) >> 3;
            self.have |= 56;
            return;
        }
        while self.have <= 56 {
            let byte = self.input.get(self.at).copied().unwrap_or(0);
            self.buf |= u64::from(byte) << self.have;
            self.at += 1;
            self.have += 8;
        }
    }

    /// Drops `n` ≤ 56 bits, which must have been refilled.
    fn consume(&mut self, n: u32) -> Result<(), Error> {
        self.buf >>= n;
        self.have -= n;
        // Zeros loaded past the end must still be in the buffer.
        if (self.at - self.input.len().min(self.at)) * 8 > self.have as usize {
            return Err(Error::InputEnds);
        }
        Ok(())
    }

    fn bits(&mut self, n: u32) -> Result<u32, Error> {
        self.refill();
        let v = (self.buf & ((1 << n) - 1)) as u32;
        self.consume(n)?;
        Ok(v)
    }

    /// Drops the bits up to the next byte boundary and returns the position of
    /// that byte; the buffer is emptied (for a stored block).
    fn align(&mut self) -> usize {
        let at = self.at - (self.have / 8) as usize;
        self.buf = 0;
        self.have = 0;
        self.at = at;
        at
    }
}

/// Codes up to this long are found with one table lookup; longer ones (rare by
/// construction: each occurs at most once in 2^10 symbols) bit by bit.
const FAST_BITS: usize = 10;

/// A canonical Huffman code (§3.2.2): the number of codes of each length and
/// the symbols in code order, plus a lookup table indexed by the next
/// FAST_BITS input bits for the short codes (codes arrive most significant
/// bit first, so each is stored bit-reversed, repeated for every value of
/// the bits after it): entry = symbol << 4 | code length, 0 where no short
/// code matches.
struct Huffman {
    count: [u16; MAX_BITS + 1],
    symbol: [u16; MAX_LIT],
    table: [u16; 1 << FAST_BITS],
}

impl Huffman {
    /// `lone_ok`: the code may also be empty or a single one-bit code (which
    /// is incomplete); RFC 1951 §3.2.7 allows that for distance codes, and
    /// zlib for literal/length codes too, but not for the code-length code.
    fn new(lengths: &[u8], lone_ok: bool) -> Result<Huffman, Error> {
        let mut h = Huffman { count: [0; MAX_BITS + 1], symbol: [0; MAX_LIT], table: [0; 1 << FAST_BITS] };
        for &len in lengths {
            h.count[len as usize] += 1;
        }
        h.count[0] = 0;
        // Over-subscribed lengths are no prefix code, and incomplete ones are
        // refused as zlib refuses them, except as `lone_ok` says (a missing
        // code then fails in `decode`).
        let mut left = 1i32;
        for len in 1..=MAX_BITS {
            left = (left << 1) - i32::from(h.count[len]);
            if left < 0 {
                return Err(Error::BadLengths);
            }
        }
        let codes: u16 = h.count.iter().sum();
        if left > 0 && !(lone_ok && (codes == 0 || (codes == 1 && h.count[1] == 1))) {
            return Err(Error::BadLengths);
        }
        // offs[len]: where the symbols of that length start in `symbol`;
        // next[len]: the next code of that length (§3.2.2, step 2).
        let mut offs = [0u16; MAX_BITS + 1];
        let mut next = [0u16; MAX_BITS + 1];
        for len in 1..MAX_BITS {
            offs[len + 1] = offs[len] + h.count[len];
            next[len + 1] = (next[len] + h.count[len]) << 1;
        }
        for (s, &len) in lengths.iter().enumerate() {
            let len = len as usize;
            if len == 0 {
                continue;
            }
            h.symbol[offs[len] as usize] = s as u16;
            offs[len] += 1;
            let code = next[len];
            next[len] += 1;
            if len <= FAST_BITS {
                let mut i = (code.reverse_bits() >> (16 - len)) as usize;
                while i < 1 << FAST_BITS {
                    h.table[i] = (s as u16) << 4 | len as u16;
                    i += 1 << len;
                }
            }
        }
        Ok(h)
    }

    fn decode(&self, bits: &mut Bits) -> Result<usize, Error> {
        bits.refill();
        let e = self.table[(bits.buf as usize) & ((1 << FAST_BITS) - 1)];
        if e != 0 {
            bits.consume(u32::from(e & 15))?;
            return Ok(usize::from(e >> 4));
        }
        // A long code: walk the lengths, one more buffered bit each time.
        let (mut code, mut first, mut index) = (0i32, 0i32, 0usize);
        for len in 1..=MAX_BITS {
            code |= ((bits.buf >> (len - 1)) & 1) as i32;
            let count = i32::from(self.count[len]);
            if code < first + count {
                bits.consume(len as u32)?;
                return Ok(usize::from(self.symbol[index + (code - first) as usize]));
            }
            index += count as usize;
            first = (first + count) << 1;
            code <<= 1;
        }
        Err(Error::BadCode)
    }
}

/// Inflates raw DEFLATE data (no zlib or gzip wrapper) into exactly `out`.
pub fn inflate(input: &[u8], out: &mut [u8]) -> Result<(), Error> {
    let mut bits = Bits { input, at: 0, buf: 0, have: 0 };
    let mut o = 0;
    loop {
        let last = bits.bits(1)?;
        match bits.bits(2)? {
            0 => {
                // Stored: byte-aligned LEN, NLEN = !LEN, then LEN bytes.
                let at = bits.align();
                let head = input.get(at..at + 4).ok_or(Error::InputEnds)?;
                let len = usize::from(u16::from_le_bytes([head[0], head[1]]));
                if u16::from_le_bytes([head[2], head[3]]) != !(len as u16) {
                    return Err(Error::BadBlock);
                }
                let src = input.get(at + 4..at + 4 + len).ok_or(Error::InputEnds)?;
                out.get_mut(o..o + len).ok_or(Error::WrongSize)?.copy_from_slice(src);
                o += len;
                bits.at = at + 4 + len;
            }
            1 => {
                // Fixed codes (§3.2.6): all 32 five-bit distance codes, so
                // that the code is complete; 30 and 31 are refused when read.
                let mut lengths = [8u8; MAX_LIT + 32];
                lengths[144..256].fill(9);
                lengths[256..280].fill(7);
                lengths[MAX_LIT..].fill(5);
                let lit = Huffman::new(&lengths[..MAX_LIT], false)?;
                let dist = Huffman::new(&lengths[MAX_LIT..], false)?;
                o = codes(&mut bits, &lit, &dist, out, o)?;
            }
            2 => {
                // Dynamic codes (§3.2.7): literal/length and distance code
                // lengths, Huffman coded with a code-length code.
                let nlen = bits.bits(5)? as usize + 257;
                let ndist = bits.bits(5)? as usize + 1;
                let ncode = bits.bits(4)? as usize + 4;
                if nlen > 286 || ndist > 30 {
                    return Err(Error::BadLengths);
                }
                let mut cl_lengths = [0u8; 19];
                for &i in &CL_ORDER[..ncode] {
                    cl_lengths[i as usize] = bits.bits(3)? as u8;
                }
                let mut lengths = [0u8; 286 + 30];
                let total = nlen + ndist;
                {
                    let cl = Huffman::new(&cl_lengths, false)?;
                    let mut i = 0;
                    while i < total {
                        let sym = cl.decode(&mut bits)?;
                        if sym < 16 {
                            lengths[i] = sym as u8;
                            i += 1;
                            continue;
                        }
                        let (value, repeat) = match sym {
                            16 if i > 0 => (lengths[i - 1], 3 + bits.bits(2)? as usize),
                            16 => return Err(Error::BadLengths),
                            17 => (0, 3 + bits.bits(3)? as usize),
                            _ => (0, 11 + bits.bits(7)? as usize),
                        };
                        if i + repeat > total {
                            return Err(Error::BadLengths);
                        }
                        lengths[i..i + repeat].fill(value);
                        i += repeat;
                    }
                }
                if lengths[256] == 0 {
                    return Err(Error::BadLengths);
                }
                let lit = Huffman::new(&lengths[..nlen], true)?;
                let dist = Huffman::new(&lengths[nlen..total], true)?;
                o = codes(&mut bits, &lit, &dist, out, o)?;
            }
            _ => return Err(Error::BadBlock),
        }
        if last == 1 {
            break;
        }
    }
    if o == out.len() {
        Ok(())
    } else {
        Err(Error::WrongSize)
    }
}

/// The literals and matches of one Huffman block, written from `out[o]` on;
/// returns the new end of the output.
fn codes(bits: &mut Bits, lit: &Huffman, dist: &Huffman, out: &mut [u8], mut o: usize) -> Result<usize, Error> {
    loop {
        let sym = lit.decode(bits)?;
        if sym < 256 {
            *out.get_mut(o).ok_or(Error::WrongSize)? = sym as u8;
            o += 1;
            continue;
        }
        if sym == 256 {
            return Ok(o);
        }
        if sym > 285 {
            return Err(Error::BadCode);
        }
        let (base, extra) = LENGTHS[sym - 257];
        let len = usize::from(base) + bits.bits(u32::from(extra))? as usize;
        let d = dist.decode(bits)?;
        if d >= 30 {
            return Err(Error::BadCode);
        }
        let (base, extra) = DISTANCES[d];
        let back = usize::from(base) + bits.bits(u32::from(extra))? as usize;
        if back > o {
            return Err(Error::BadDistance);
        }
        if o + len > out.len() {
            return Err(Error::WrongSize);
        }
        if back >= len {
            out.copy_within(o - back..o - back + len, o);
            o += len;
        } else {
            // Byte by byte: the copy overlaps what it writes.
            for _ in 0..len {
                out[o] = out[o - back];
                o += 1;
            }
        }
    }
}

/// The wasm export: inflates `in_len` bytes at `input` into exactly `out_len`
/// bytes at `out`, both in this module's memory (the caller grows the memory
/// and places them in the new pages, past the module's data and stack).
/// Returns 0, or an [`Error`] code.
///
/// # Safety
/// Both ranges must lie in linear memory and not overlap.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub unsafe extern "C" fn inflate_raw(input: *const u8, in_len: usize, out: *mut u8, out_len: usize) -> i32 {
    let input = core::slice::from_raw_parts(input, in_len);
    let out = core::slice::from_raw_parts_mut(out, out_len);
    match inflate(input, out) {
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
