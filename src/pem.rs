//! Base64 (RFC 4648 §4, and §5's URL-safe alphabet for JWK) and PEM armour
//! (RFC 7468), both strict: canonical padding and trailing bits, PEM's
//! labelled BEGIN/END lines and 64-character lines, nothing else.
//!
//! The text can hold a private key, so the decoders are constant time in its
//! base64 characters: characters are mapped to values and back by arithmetic
//! on masks, never by a table lookup or a branch on the character's value
//! (the cache-timing attacks on PEM decoding read keys through such
//! lookups); validity and the canonical check gather in masks, and only the
//! verdict is declassified. What is branched on is public: the lengths, the
//! armour lines, the line breaks of PEM (read only where a well-formed text
//! has one, see `pem_decode`), and whether the last two characters are `=`
//! (the padding, which the data's length fixes). `scripts/ct.sh` checks this
//! under valgrind with the characters of a private key marked secret.

use crate::ct;
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

/// −1 when the byte c is v, else 0.
#[inline(always)]
fn is_byte(c: u8, v: u8) -> i32 {
    equal(i32::from(c), i32::from(v))
}

/// −1 when `line` holds an LF, else 0.
fn has_lf(line: &[u8]) -> i32 {
    line.iter().fold(0, |m, &c| m | is_byte(c, b'\n'))
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
    // Declassified: the verdicts only; an error says that the text is not
    // base64, or not canonical, and the text is refused whole.
    if ct::declassified(valid) != -1 {
        return Err(Base64Error::BadCharacter);
    }
    if ct::declassified(canonical) != 0 {
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

/// The encoders' output as a String, without the UTF-8 validation of
/// `String::from_utf8`, which branches on every (secret) character.
fn utf8(bytes: Vec<u8>) -> String {
    debug_assert!(core::str::from_utf8(&bytes).is_ok());
    // SAFETY: the encoders write base64 characters from `character`, `=`
    // and LF (ASCII), and the armour lines around a label that is a &str.
    unsafe { String::from_utf8_unchecked(bytes) }
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
    utf8(out)
}

/// Strict padded base64 (RFC 4648 §4) with no whitespace.
pub fn base64_decode(text: &[u8]) -> Result<Zeroizing<Vec<u8>>, Base64Error> {
    let n = text.len();
    if n % 4 != 0 {
        return Err(Base64Error::BadLength);
    }
    // Declassified: whether the last character, and then the one before it,
    // is `=`. No base64 character is, so this is the padding, which the
    // length of the data fixes (3·n/4 − pad bytes): public, as a key's DER
    // has a length fixed by its set and form. A `=` anywhere else is outside
    // the alphabet for `value`.
    let is_pad = |i: usize| ct::declassified(is_byte(text[i], b'=')) != 0;
    let pad = if n == 0 || !is_pad(n - 1) {
        0
    } else if !is_pad(n - 2) {
        1
    } else {
        2
    };
    let mut out = Zeroizing::new(Vec::with_capacity(n / 4 * 3));
    decode_unpadded(&text[..n - pad], false, &mut out)?;
    Ok(out)
}

const DASHES: &[u8] = b"-----";
const LINE: usize = 64;

/// The DER inside PEM armour with this label (RFC 7468 §3's strict form):
/// `-----BEGIN <label>-----`, base64 in lines of 64 characters (the last
/// 1–64), `-----END <label>-----`, lines ended by LF or CR LF, and at most
/// one line break after the END line. No text before or after, no headers.
///
/// Constant time in the base64 characters: the layout is read only from
/// bytes that a well-formed text has at places fixed by its length and its
/// earlier line breaks, never by searching the characters. The BEGIN line
/// is read from the start and the END line from the end. A line that starts
/// at least 64 + 3 bytes before the END line has another line after it (its
/// own break, a character and a break), so it is a full line and its break
/// is the byte after its 64 characters. The last line is the r bytes before
/// the END line: r − 1 characters and LF, or r − 2 and CR LF; the body is a
/// multiple of 4 characters, so at most one of the two fits, and the byte
/// before the LF is compared with CR only when the length says it must be
/// one. No base64 character is a CR, an LF or a dash, so on a well-formed
/// text no branch reads a character; a malformed one is refused at the
/// first fault in its layout, or by masks gathered over the characters.
pub fn pem_decode(text: &[u8], label: &str) -> Result<Zeroizing<Vec<u8>>, PemError> {
    let label = label.as_bytes();
    let begin = armour_len(b"BEGIN ", label);
    if !armour_at(text, 0, b"BEGIN ", label) {
        return Err(PemError::BadBegin);
    }
    let mut p = begin + line_break(text, begin).ok_or(PemError::BadBegin)?;
    let t = text.len() - line_break_before(text, text.len());
    let e = t
        .checked_sub(armour_len(b"END ", label))
        .filter(|&e| e >= p && armour_at(text, e, b"END ", label))
        .ok_or(PemError::BadEnd)?;
    if e == p {
        return Err(PemError::BadLine);
    }
    if text[e - 1] != b'\n' {
        return Err(PemError::BadEnd);
    }
    let mut body = Zeroizing::new(Vec::with_capacity(e - p));
    // A line shorter than 64 characters puts its line break among the
    // characters: an LF, or a CR just before the LF found after 64. Masks
    // find both, and they are the line error that they are.
    let mut short_line = 0;
    while e - p >= LINE + 3 {
        let eol = line_break(text, p + LINE).ok_or(PemError::BadLine)?;
        let line = &text[p..p + LINE];
        short_line |= has_lf(line) | if eol == 1 { is_byte(line[LINE - 1], b'\r') } else { 0 };
        body.extend_from_slice(line);
        p += LINE + eol;
    }
    let r = e - p;
    let lf_fits = (body.len() + r - 1) % 4 == 0;
    let crlf = !lf_fits && r >= 2 && text[e - 2] == b'\r';
    let n = r - 1 - usize::from(crlf);
    if n == 0 || n > LINE {
        return Err(PemError::BadLine);
    }
    let line = &text[p..p + n];
    short_line |= has_lf(line);
    // Where LF fits, a CR before it leaves the body a character short of
    // whole groups of 4: the length error.
    let lone_cr = if crlf { 0 } else { is_byte(line[n - 1], b'\r') };
    body.extend_from_slice(line);
    let der = base64_decode(&body);
    // Declassified: errors only (the text is refused whole).
    if ct::declassified(short_line) != 0 {
        return Err(PemError::BadLine);
    }
    if ct::declassified(lone_cr) != 0 {
        return Err(PemError::Base64(Base64Error::BadLength));
    }
    der.map_err(PemError::Base64)
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
    Zeroizing::new(utf8(out))
}

fn armour_len(word: &[u8], label: &[u8]) -> usize {
    2 * DASHES.len() + word.len() + label.len()
}

/// Whether `text` holds `-----<word><label>-----` at `at`.
fn armour_at(text: &[u8], at: usize, word: &[u8], label: &[u8]) -> bool {
    let Some(line) = text.get(at..at + armour_len(word, label)) else {
        return false;
    };
    line.starts_with(DASHES)
        && line[DASHES.len()..].starts_with(word)
        && line[DASHES.len() + word.len()..].starts_with(label)
        && line.ends_with(DASHES)
}

/// The length of the line break at `at`: 1 for LF, 2 for CR LF.
fn line_break(text: &[u8], at: usize) -> Option<usize> {
    match text.get(at..)? {
        [b'\n', ..] => Some(1),
        [b'\r', b'\n', ..] => Some(2),
        _ => None,
    }
}

/// The length of the line break that ends at `end`: 0, 1 for LF, 2 for CR LF.
fn line_break_before(text: &[u8], end: usize) -> usize {
    match &text[..end] {
        [.., b'\r', b'\n'] => 2,
        [.., b'\n'] => 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    const STD_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const URL_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    /// The plain decoder, with a 256-entry table and a branch on every
    /// character, that the constant-time one must agree with: the same
    /// bytes, and the same error, checked in the same order (length,
    /// padding, characters, canonical).
    fn table_decode(text: &[u8], url: bool, padded: bool) -> Result<Vec<u8>, Base64Error> {
        let mut table = [None; 256];
        for (v, &c) in (if url { URL_ALPHABET } else { STD_ALPHABET }).iter().enumerate() {
            table[usize::from(c)] = Some(v as u32);
        }
        let mut chars = text;
        if padded {
            if text.len() % 4 != 0 {
                return Err(Base64Error::BadLength);
            }
            while chars.len() + 2 > text.len() && chars.last() == Some(&b'=') {
                chars = &chars[..chars.len() - 1];
            }
        }
        if chars.len() % 4 == 1 {
            return Err(Base64Error::BadLength);
        }
        let mut out = Vec::new();
        for group in chars.chunks(4) {
            let mut acc = 0;
            for (i, &c) in group.iter().enumerate() {
                acc |= table[usize::from(c)].ok_or(Base64Error::BadCharacter)? << (18 - 6 * i);
            }
            out.extend_from_slice(&acc.to_be_bytes()[1..group.len()]);
            if acc & (0xffffff >> (8 * (group.len() - 1))) != 0 {
                return Err(Base64Error::NonCanonical);
            }
        }
        Ok(out)
    }

    #[test]
    fn every_character_maps_as_rfc_4648_says() {
        for (alphabet, url) in [(STD_ALPHABET, false), (URL_ALPHABET, true)] {
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

    /// Every string of up to 4 characters from a set that holds each range's
    /// ends and the bytes around them, padding, line breaks and the other
    /// alphabet's two symbols; and every byte value in every place of a
    /// group, after whole groups and before padding.
    #[test]
    fn decodes_as_a_table_does() {
        let set = b"AZaz09+/-_=@[`{:\r\n\x00\x80\xff";
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for len in 0..=4 {
            for i in 0..set.len().pow(len) {
                let mut text = Vec::new();
                let mut n = i;
                for _ in 0..len {
                    text.push(set[n % set.len()]);
                    n /= set.len();
                }
                texts.push(text);
            }
        }
        for base in [&b"QUJD"[..], b"QUJDRA==", b"QUJDREU=", b"QUJDREVG"] {
            for at in 0..base.len() {
                for c in 0..=255u8 {
                    let mut t = base.to_vec();
                    t[at] = c;
                    texts.push(t);
                }
            }
        }
        for text in &texts {
            let t = String::from_utf8_lossy(text);
            assert_eq!(base64_decode(text).map(|b| b.to_vec()), table_decode(text, false, true), "{t:?}");
            assert_eq!(base64url_decode(text).map(|b| b.to_vec()), table_decode(text, true, false), "{t:?}");
        }
    }

    /// The last character of a text whose data ends in 1 or 2 bytes carries 4
    /// or 2 bits beyond the data; each of its 64 values is refused exactly
    /// when one of those bits is set.
    #[test]
    fn refuses_every_non_canonical_last_character() {
        for (alphabet, url) in [(STD_ALPHABET, false), (URL_ALPHABET, true)] {
            for (head, unused) in [(&b"QUJDR"[..], 15), (b"QUJDRE", 3)] {
                for (v, &c) in alphabet.iter().enumerate() {
                    let mut text = head.to_vec();
                    text.push(c);
                    let got = if url {
                        base64url_decode(&text)
                    } else {
                        text.resize(8, b'=');
                        base64_decode(&text)
                    };
                    match got {
                        Ok(_) => assert_eq!(v & unused, 0, "{text:?}"),
                        Err(e) => assert!(v & unused != 0 && e == Base64Error::NonCanonical, "{text:?}: {e:?}"),
                    }
                }
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
                // LF and CR LF mixed, line by line, and no line break after END.
                let mixed: String =
                    pem.split_inclusive('\n').enumerate().map(|(i, l)| l.replace('\n', ["\n", "\r\n"][i % 2])).collect();
                for text in [&mixed[..], mixed.trim_end(), crlf.trim_end()] {
                    assert_eq!(&pem_decode(text.as_bytes(), "PUBLIC KEY").unwrap()[..], &data[..], "{text:?}");
                }
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
            // A line of 63 characters, or of 63 and a CR, before a full one.
            (g.replacen(&b64, &b64[1..], 1), PemError::BadLine),
            (g.replacen(&b64, &alloc::format!("{}\r", &b64[1..]), 1), PemError::BadLine),
            // A CR before the last LF where the length says LF alone: the line is a character short.
            (g.replacen("==\n-----END", "=\r\n-----END", 1), PemError::Base64(Base64Error::BadLength)),
            (g.replacen("\n-----END", "\n\n-----END", 1), PemError::BadLine),
            (g.replacen("-----END", "----END", 1), PemError::BadEnd),
            (g.replacen("\n-----END", "-----END", 1), PemError::BadEnd),
        ];
        // Without the final line break is allowed.
        assert_eq!(&pem_decode(g.trim_end().as_bytes(), "PRIVATE KEY").unwrap()[..], &der[..]);
        for (text, want) in cases {
            assert_eq!(pem_decode(text.as_bytes(), "PRIVATE KEY").err(), Some(want), "{text:?}");
        }
    }
}

