//! The part of DER (ITU-T X.690 §10) that the ML-DSA key structures use:
//! definite lengths in their shortest form, single-byte tags, no constructed
//! strings. A reader that refuses everything else (BER, long-form lengths
//! that fit the short form, lengths past the end) and a writer.

use alloc::vec::Vec;

pub const SEQUENCE: u8 = 0x30;
pub const INTEGER: u8 = 0x02;
pub const BIT_STRING: u8 = 0x03;
pub const OCTET_STRING: u8 = 0x04;
pub const OID: u8 = 0x06;
/// [0] IMPLICIT on a primitive type (RFC 9881's `seed [0] OCTET STRING`).
pub const CONTEXT_0: u8 = 0x80;

/// Why a DER reading failed; the caller says which structure it was reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DerError {
    /// The input ended inside a tag, a length or a value.
    Truncated,
    /// A tag other than the one the structure has at this place.
    UnexpectedTag,
    /// An indefinite length, a long form where the short one fits, leading zero
    /// length bytes, or a length of more than 2^24 − 1 (nothing here is that large).
    BadLength,
    /// Bytes left over after the structure.
    TrailingBytes,
}

/// Reads one TLV after another from a byte string.
pub struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader(bytes)
    }

    /// The value of the next TLV, which must have tag `tag`.
    pub fn read(&mut self, tag: u8) -> Result<&'a [u8], DerError> {
        let (&t, rest) = self.0.split_first().ok_or(DerError::Truncated)?;
        if t != tag {
            return Err(DerError::UnexpectedTag);
        }
        let (&first, mut rest) = rest.split_first().ok_or(DerError::Truncated)?;
        let len = if first < 0x80 {
            usize::from(first)
        } else {
            // Long form: 0x80 | n, then n big-endian bytes (0x80 alone is BER's indefinite length).
            let n = usize::from(first & 0x7f);
            if n == 0 || n > 3 || rest.len() < n {
                return Err(if rest.len() < n { DerError::Truncated } else { DerError::BadLength });
            }
            let (bytes, after) = rest.split_at(n);
            rest = after;
            if bytes[0] == 0 {
                return Err(DerError::BadLength);
            }
            let len = bytes.iter().fold(0usize, |acc, &b| acc << 8 | usize::from(b));
            if len < 0x80 {
                return Err(DerError::BadLength);
            }
            len
        };
        if rest.len() < len {
            return Err(DerError::Truncated);
        }
        let (value, after) = rest.split_at(len);
        self.0 = after;
        Ok(value)
    }

    /// Succeeds when nothing is left.
    pub fn finish(self) -> Result<(), DerError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(DerError::TrailingBytes)
        }
    }
}

/// Reads exactly one TLV with tag `tag` that spans all of `bytes`.
pub fn read_whole(bytes: &[u8], tag: u8) -> Result<&[u8], DerError> {
    let mut r = Reader::new(bytes);
    let v = r.read(tag)?;
    r.finish()?;
    Ok(v)
}

/// The number of bytes of the TLV header for a value of `len` bytes.
pub fn header_len(len: usize) -> usize {
    match len {
        0..=0x7f => 2,
        0x80..=0xff => 3,
        0x100..=0xffff => 4,
        _ => 5,
    }
}

/// Appends tag ‖ length for a value of `len` bytes (at most 2^24 − 1).
pub fn write_header(out: &mut Vec<u8>, tag: u8, len: usize) {
    debug_assert!(len < 1 << 24);
    out.push(tag);
    match header_len(len) {
        2 => out.push(len as u8),
        3 => out.extend_from_slice(&[0x81, len as u8]),
        4 => out.extend_from_slice(&[0x82, (len >> 8) as u8, len as u8]),
        _ => out.extend_from_slice(&[0x83, (len >> 16) as u8, (len >> 8) as u8, len as u8]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_round_trip_in_shortest_form() {
        for len in [0usize, 1, 0x7f, 0x80, 0xff, 0x100, 0x1234, 0xffff, 0x10000, 0xabcdef] {
            let mut out = Vec::new();
            write_header(&mut out, OCTET_STRING, len);
            assert_eq!(out.len(), header_len(len));
            out.resize(out.len() + len, 0xa5);
            assert_eq!(read_whole(&out, OCTET_STRING).unwrap().len(), len);
        }
    }

    #[test]
    fn refuses_what_is_not_der() {
        let cases: [(&[u8], DerError); 11] = [
            (&[], DerError::Truncated),
            (&[0x04], DerError::Truncated),
            (&[0x04, 0x02, 0x00], DerError::Truncated),
            (&[0x05, 0x00], DerError::UnexpectedTag),
            (&[0x04, 0x80, 0x00, 0x00], DerError::BadLength), // indefinite (BER)
            (&[0x04, 0x81, 0x05, 0, 0, 0, 0, 0], DerError::BadLength), // long form for a short length
            (&[0x04, 0x82, 0x00, 0x80], DerError::BadLength), // leading zero length byte
            (&[0x04, 0x84, 0x01, 0, 0, 0], DerError::BadLength), // four length bytes
            (&[0x04, 0x82, 0x01], DerError::Truncated),
            (&[0x04, 0x01, 0x00, 0x00], DerError::TrailingBytes),
            (&[0x04, 0x81, 0x80], DerError::Truncated),
        ];
        for (bytes, want) in cases {
            assert_eq!(read_whole(bytes, OCTET_STRING).err(), Some(want), "{bytes:02x?}");
        }
    }
}
