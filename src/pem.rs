//! Base64 (RFC 4648 §4, and §5's URL-safe alphabet for JWK) and PEM armour
//! (RFC 7468), both strict: canonical padding and trailing bits, PEM's
//! labelled BEGIN/END lines and 64-character lines, nothing else.
//!
//! The text can hold a private key, so characters are mapped to values and
//! back by arithmetic on masks, never by a table lookup or a branch on the
//! character's value (the cache-timing attacks on PEM decoding read keys
//! through such lookups). What is branched on is public: the lengths, where
//! the line breaks are, whether a line starts with the dashes of an armour
//! line (no base64 character is a dash), the armour lines themselves, and the
//! final verdict "valid or not".

use alloc::string::String;
use alloc::vec::Vec;
use zeroize::Zeroizing;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base64Error {
    /// A character outside the alphabet (or `=` anywhere but at the end).
    BadCharacter,
    /// A length that no encoding has (one character too many, or padding missing or extra).
    BadLength,
    /// The last character carries bits beyond the data (a non-canonical encoding).
    NonCanonical,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PemError {
    /// The text does not start with `-----BEGIN <label>-----` and a line break.
    BadBegin,
    /// The text does not end with `-----END <label>-----` (and at most one line break).
    BadEnd,
    /// A base64 line other than the last is not 64 characters, or the last is empty or longer.
    BadLine,
    Base64(Base64Error),
}

impl Base64Error {
    pub fn message(self) -> &'static str {
        match self {
            Base64Error::BadCharacter => "base64: a character outside the alphabet, or padding before the end",
            Base64Error::BadLength => "base64: a length no encoding has (padding missing or extra)",
            Base64Error::NonCanonical => "base64: the last character has bits set beyond the data (not canonical)",
        }
    }
}

impl PemError {
    pub fn message(self) -> &'static str {
        match self {
            PemError::BadBegin => "pem: expected the text to start with the line -----BEGIN <label>----- for this kind of key",
            PemError::BadEnd => "pem: expected the text to end with the line -----END <label>----- for this kind of key",
            PemError::BadLine => "pem: base64 lines must be 64 characters long, except the last (1 to 64), with no blank lines",
            PemError::Base64(e) => e.message(),
        }
    }
}

impl core::fmt::Display for PemError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.message())
    }
}

impl core::fmt::Display for Base64Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.message())
    }
}

/// −1 (all ones) when lo ≤ c ≤ hi, else 0, without a branch.
#[inline(always)]
fn in_range(c: i32, lo: i32, hi: i32) -> i32 {
    ((lo - 1 - c) & (c - hi - 1)) >> 31
}

/// −1 when c == v, else 0.
#[inline(always)]
fn equal(c: i32, v: i32) -> i32 {
    in_range(c, v, v)
}

/// The 6-bit value of a base64 character and −1 if it is one, or 0 as the mask if not.
#[inline(always)]
fn value(c: u8, url: bool) -> (i32, i32) {
    let c = i32::from(c);
    let (c62, c63) = if url { (b'-', b'_') } else { (b'+', b'/') };
    let upper = in_range(c, 65, 90);
    let lower = in_range(c, 97, 122);
    let digit = in_range(c, 48, 57);
    let s62 = equal(c, i32::from(c62));
    let s63 = equal(c, i32::from(c63));
    let v = (upper & (c - 65)) | (lower & (c - 71)) | (digit & (c + 4)) | (s62 & 62) | (s63 & 63);
    (v, upper | lower | digit | s62 | s63)
}

/// The base64 character of a 6-bit value.
#[inline(always)]
fn character(v: u8, url: bool) -> u8 {
    let v = i32::from(v & 63);
    let (c62, c63) = if url { (b'-', b'_') } else { (b'+', b'/') };
    let c = (in_range(v, 0, 25) & (v + 65))
        | (in_range(v, 26, 51) & (v + 71))
        | (in_range(v, 52, 61) & (v - 4))
        | (equal(v, 62) & i32::from(c62))
        | (equal(v, 63) & i32::from(c63));
    c as u8
}

/// Decodes base64 characters without padding: `chars.len() % 4` is 0, 2 or 3.
fn decode_unpadded(chars: &[u8], url: bool, out: &mut Vec<u8>) -> Result<(), Base64Error> {
    if chars.len() % 4 == 1 {
        return Err(Base64Error::BadLength);
    }
    let mut valid = -1i32;
    let mut canonical = 0i32;
    for group in chars.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in group.iter().enumerate() {
            let (v, ok) = value(c, url);
            valid &= ok;
            acc |= (v as u32 & 63) << (18 - 6 * i);
        }
        let bytes = [(acc >> 16) as u8, (acc >> 8) as u8, acc as u8];
        let n = group.len() - 1; // 4 chars → 3 bytes, 3 → 2, 2 → 1
        out.extend_from_slice(&bytes[..n]);
        // The bits below the last whole byte must be zero.
        canonical |= match n {
            1 => (acc & 0xffff) as i32,
            2 => (acc & 0xff) as i32,
            _ => 0,
        };
    }
    // Declassified: the verdict only (and an invalid text is refused whole).
    if valid != -1 {
        return Err(Base64Error::BadCharacter);
    }
    if canonical != 0 {
        return Err(Base64Error::NonCanonical);
    }
    Ok(())
}

/// Strict base64url without padding (RFC 4648 §5, as JWK uses it, RFC 7515 §2).
pub fn base64url_decode(text: &[u8]) -> Result<Zeroizing<Vec<u8>>, Base64Error> {
    let mut out = Zeroizing::new(Vec::with_capacity(text.len() / 4 * 3 + 2));
    decode_unpadded(text, true, &mut out)?;
    Ok(out)
}

fn encode_into(bytes: &[u8], url: bool, pad: bool, out: &mut Vec<u8>) {
    for group in bytes.chunks(3) {
        let mut b = [0u8; 3];
        b[..group.len()].copy_from_slice(group);
        let acc = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        let n = group.len() + 1;
        for i in 0..4 {
            if i < n {
                out.push(character((acc >> (18 - 6 * i)) as u8, url));
            } else if pad {
                out.push(b'=');
            }
        }
    }
}

/// Room for the base64 of `n` bytes (4·⌈n/3⌉ ≤ 2n + 4), without a division:
/// a division by 3 would be the only one in the .wasm reachable from the
/// key-format exports (scripts/wasm-div-scan.mjs), and an over-allocation
/// keeps the buffer from being moved (and a copy left behind) while it fills.
fn encoded_capacity(n: usize) -> usize {
    2 * n + 4
}

/// base64url without padding.
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(encoded_capacity(bytes.len()));
    encode_into(bytes, true, false, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Strict padded base64 (RFC 4648 §4) with no whitespace.
pub fn base64_decode(text: &[u8]) -> Result<Zeroizing<Vec<u8>>, Base64Error> {
    if text.len() % 4 != 0 {
        return Err(Base64Error::BadLength);
    }
    let pad = text.iter().rev().take(2).take_while(|&&c| c == b'=').count();
    let body = &text[..text.len() - pad];
    if body.contains(&b'=') {
        return Err(Base64Error::BadCharacter);
    }
    if body.len() % 4 == 1 {
        return Err(Base64Error::BadLength);
    }
    let mut out = Zeroizing::new(Vec::with_capacity(text.len() / 4 * 3));
    decode_unpadded(body, false, &mut out)?;
    Ok(out)
}

const DASHES: &[u8] = b"-----";
const LINE: usize = 64;

/// The DER inside PEM armour with this label (RFC 7468 §3's strict form):
/// `-----BEGIN <label>-----`, base64 in lines of 64 characters (the last
/// 1–64), `-----END <label>-----`, lines ended by LF or CR LF, and at most
/// one line break after the END line. No text before or after, no headers.
pub fn pem_decode(text: &[u8], label: &str) -> Result<Zeroizing<Vec<u8>>, PemError> {
    let mut lines = Lines(text);
    let begin = lines.next().ok_or(PemError::BadBegin)?;
    if !armour(begin.0, b"BEGIN ", label) || !begin.1 {
        return Err(PemError::BadBegin);
    }
    let mut body = Zeroizing::new(Vec::with_capacity(text.len()));
    let mut last_short = false;
    loop {
        let (line, ended) = lines.next().ok_or(PemError::BadEnd)?;
        if line.starts_with(DASHES) {
            if !armour(line, b"END ", label) || !lines.0.is_empty() {
                return Err(PemError::BadEnd);
            }
            let _ = ended;
            break;
        }
        if last_short || line.is_empty() || line.len() > LINE || !ended {
            return Err(if ended { PemError::BadLine } else { PemError::BadEnd });
        }
        last_short = line.len() < LINE;
        body.extend_from_slice(line);
    }
    if body.is_empty() {
        return Err(PemError::BadLine);
    }
    base64_decode(&body).map_err(PemError::Base64)
}

/// PEM armour around `der`: LF line ends, 64-character lines, a final LF.
pub fn pem_encode(der: &[u8], label: &str) -> Zeroizing<String> {
    let mut b64 = Zeroizing::new(Vec::with_capacity(encoded_capacity(der.len())));
    encode_into(der, false, true, &mut b64);
    let mut out = Vec::with_capacity(b64.len() + b64.len() / LINE + 2 * label.len() + 40);
    out.extend_from_slice(b"-----BEGIN ");
    out.extend_from_slice(label.as_bytes());
    out.extend_from_slice(b"-----\n");
    for line in b64.chunks(LINE) {
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out.extend_from_slice(b"-----END ");
    out.extend_from_slice(label.as_bytes());
    out.extend_from_slice(b"-----\n");
    Zeroizing::new(String::from_utf8(out).unwrap_or_default())
}

fn armour(line: &[u8], word: &[u8], label: &str) -> bool {
    let label = label.as_bytes();
    line.len() == 2 * DASHES.len() + word.len() + label.len()
        && line.starts_with(DASHES)
        && line[5..].starts_with(word)
        && line[5 + word.len()..].starts_with(label)
        && line.ends_with(DASHES)
}

/// Lines ended by LF or CR LF: (line, whether a line break ended it).
struct Lines<'a>(&'a [u8]);

impl<'a> Iterator for Lines<'a> {
    type Item = (&'a [u8], bool);
    fn next(&mut self) -> Option<(&'a [u8], bool)> {
        if self.0.is_empty() {
            return None;
        }
        match self.0.iter().position(|&c| c == b'\n') {
            Some(i) => {
                let line = &self.0[..i];
                self.0 = &self.0[i + 1..];
                Some((line.strip_suffix(b"\r").unwrap_or(line), true))
            }
            None => {
                let line = self.0;
                self.0 = &[];
                Some((line, false))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    #[test]
    fn every_character_maps_as_rfc_4648_says() {
        let std_alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let url_alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        for (alphabet, url) in [(std_alphabet, false), (url_alphabet, true)] {
            for c in 0..=255u8 {
                let (v, ok) = value(c, url);
                match alphabet.iter().position(|&a| a == c) {
                    Some(i) => assert_eq!((v, ok), (i as i32, -1), "{c}"),
                    None => assert_eq!(ok, 0, "{c}"),
                }
            }
            for v in 0..64u8 {
                assert_eq!(character(v, url), alphabet[usize::from(v)]);
            }
        }
    }

    #[test]
    fn round_trips_every_length() {
        let mut rng = Rng(9);
        for len in 0..200 {
            let mut data = alloc::vec![0u8; len];
            rng.fill(&mut data);
            let url = base64url_encode(&data);
            assert_eq!(&base64url_decode(url.as_bytes()).unwrap()[..], &data[..]);
            let mut padded = Vec::new();
            encode_into(&data, false, true, &mut padded);
            assert_eq!(&base64_decode(&padded).unwrap()[..], &data[..]);
            if len > 0 {
                let pem = pem_encode(&data, "PUBLIC KEY");
                assert_eq!(&pem_decode(pem.as_bytes(), "PUBLIC KEY").unwrap()[..], &data[..]);
                let crlf = pem.replace('\n', "\r\n");
                assert_eq!(&pem_decode(crlf.as_bytes(), "PUBLIC KEY").unwrap()[..], &data[..]);
            }
        }
    }

    #[test]
    fn refuses_loose_base64() {
        use Base64Error::*;
        for (text, want) in [
            (&b"Zg"[..], BadLength), // padding missing
            (b"Zg=", BadLength),
            (b"Zh==", NonCanonical),
            (b"Zm9=", NonCanonical),
            (b"Zm 9v", BadLength),
            (b"Zm9v Zg==", BadLength),
            (b"Zm\n9", BadCharacter),
            (b"Z=9v", BadCharacter),
            (b"Zm9-", BadCharacter),
            (b"Zg===", BadLength),
            (b"=Zg=", BadCharacter),
        ] {
            assert_eq!(base64_decode(text).err(), Some(want), "{}", String::from_utf8_lossy(text));
        }
        for (text, want) in [(&b"Zg="[..], BadCharacter), (b"Zh", NonCanonical), (b"Z", BadLength), (b"Zm9+", BadCharacter)] {
            assert_eq!(base64url_decode(text).err(), Some(want), "{}", String::from_utf8_lossy(text));
        }
    }

    #[test]
    fn refuses_loose_armour() {
        let der = [0x30u8; 100];
        let good = pem_encode(&der, "PRIVATE KEY");
        let g = good.as_str();
        let b64: String = g.lines().nth(1).unwrap().into();
        let cases = [
            (g.replace("PRIVATE KEY", "PUBLIC KEY"), PemError::BadBegin),
            (alloc::format!(" {g}"), PemError::BadBegin),
            (alloc::format!("text before\n{g}"), PemError::BadBegin),
            (g.replacen("-----BEGIN PRIVATE KEY-----\n", "-----BEGIN PRIVATE KEY-----", 1), PemError::BadBegin),
            (g.replace("-----END PRIVATE KEY-----", "-----END PUBLIC KEY-----"), PemError::BadEnd),
            (alloc::format!("{g}\n"), PemError::BadEnd),
            (alloc::format!("{g}more"), PemError::BadEnd),
            (g.replacen(&b64, &b64[..60], 1), PemError::BadLine),
            (g.replacen(&b64, &alloc::format!("{b64}\n"), 1), PemError::BadLine),
            (g.replacen(&b64, &alloc::format!("{}\n{}", &b64[..32], &b64[32..]), 1), PemError::BadLine),
            (g.replacen("MDAw", "MD*w", 1), PemError::Base64(Base64Error::BadCharacter)),
            (String::from("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n"), PemError::BadLine),
        ];
        // Without the final line break is allowed.
        assert_eq!(&pem_decode(g.trim_end().as_bytes(), "PRIVATE KEY").unwrap()[..], &der[..]);
        for (text, want) in cases {
            assert_eq!(pem_decode(text.as_bytes(), "PRIVATE KEY").err(), Some(want), "{text:?}");
        }
    }
}
