//! Base64 (RFC 4648 §4, and §5's URL-safe alphabet for JWK) and PEM armour
//! (RFC 7468). Base64 is read strictly: canonical padding and trailing bits.
//! PEM is read as RFC 7468 §3's lax grammar (`laxtextualmsg`) allows, which
//! covers the layouts OpenSSL and node:crypto read: any text before the
//! `-----BEGIN <label>-----` and after the `-----END <label>-----`, and
//! whitespace anywhere between them (any line length, LF, CR LF or CR, tabs
//! and spaces). The base64 left when the whitespace is taken out is read as
//! strictly as any other, canonical and padded (OpenSSL also takes a last
//! character with unused bits set). PEM is written in the strict form (§3:
//! lines of 64, LF).
//!
//! The text can hold a private key, so the decoders are constant time in its
//! base64 characters: characters are mapped to values and back by arithmetic
//! on masks, never by a table lookup or a branch on the character's value
//! (the cache-timing attacks on PEM decoding read keys through such
//! lookups); validity and the canonical check gather in masks, and only the
//! verdict is declassified. What is branched on is public: the lengths, the
//! layout of PEM (which bytes are whitespace or dashes, and where the armour
//! lines are; see `pem_decode`), and whether the last two characters are `=`
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
    /// The text has no `-----BEGIN <label>-----`.
    BadBegin,
    /// The base64 after the BEGIN line is not followed by `-----END <label>-----`
    /// (or holds a dash, which only the armour has).
    BadEnd,
    /// Nothing but whitespace between the BEGIN and END lines.
    Empty,
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
            PemError::BadBegin => "pem: expected -----BEGIN <label>----- (the armour of this kind of key)",
            PemError::BadEnd => "pem: expected -----END <label>----- after the base64, and only base64 and whitespace between the armour lines",
            PemError::Empty => "pem: no base64 between the BEGIN and END lines",
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

/// −1 when c is whitespace as RFC 7468 §3 defines it (W: SP, HT, LF, VT,
/// FF, CR), else 0.
#[inline(always)]
fn is_space(c: u8) -> i32 {
    let c = i32::from(c);
    in_range(c, 9, 13) | equal(c, 32)
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
#[allow(unsafe_code)] // a check would branch on every secret character (see above)
fn utf8(bytes: Vec<u8>) -> String {
    // Debug builds only: checking is what this function exists to avoid.
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

/// What a byte of a PEM text is to its layout.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    Space,
    Dash,
    /// Anything else: a base64 character, `=`, or a character the base64
    /// decoder refuses.
    Other,
}

/// The layout class of `c`, computed with masks and declassified.
///
/// Declassified: whether `c` is whitespace, a dash, or neither. The class is
/// the same for all 65 characters of base64 and its padding (none is
/// whitespace or a dash), so for a text whose secret bytes are base64
/// characters the classes, and every branch taken on them, are the same
/// whatever the characters are: they give the positions of the characters,
/// never their values. Those positions are the text's layout (its line
/// length, line ends, indentation and the text around the armour), which the
/// program that wrote it chose and which is the same for every key it writes
/// in one format; for a key in a given layout they follow from the length of
/// its DER, fixed by its set and form.
#[inline(always)]
fn layout(c: u8) -> Layout {
    let class = ct::declassified((is_space(c) & 1) | (is_byte(c, b'-') & 2));
    match class {
        1 => Layout::Space,
        2 => Layout::Dash,
        _ => Layout::Other,
    }
}

/// The DER inside PEM armour with this label, read as RFC 7468 §3's lax
/// grammar allows: the first `-----BEGIN <label>-----` in the text, then
/// base64 with whitespace (W: SP, HT, LF, VT, FF, CR) anywhere in it, then
/// `-----END <label>-----`; text before the BEGIN and after the END is
/// ignored (§2: explanatory text). The base64 without its whitespace must be
/// canonical, with its padding. RFC 1421 headers (`Proc-Type: ...`) are not
/// read: the dash in them ends the base64 at the wrong place, a `BadEnd`.
///
/// Constant time in the base64 characters: each byte is classed as
/// whitespace, a dash or other by masks, and only that class is declassified
/// (see `layout`: it is the same for every base64 character). The BEGIN line
/// is looked for at the dashes, and the base64 ends at the first dash after
/// it, where the END line must be; the armour lines are compared by masks
/// and only the verdict, whether the line is there, is declassified. The
/// characters between the lines are gathered without their whitespace and
/// decoded by `base64_decode`, which declassifies only its verdicts and the
/// padding.
pub fn pem_decode(text: &[u8], label: &str) -> Result<Zeroizing<Vec<u8>>, PemError> {
    let label = label.as_bytes();
    let begin = (0..text.len())
        .find(|&i| layout(text[i]) == Layout::Dash && armour_at(text, i, b"BEGIN ", label))
        .ok_or(PemError::BadBegin)?;
    let start = begin + armour_len(b"BEGIN ", label);
    // Room for every character: the body never moves (and leaves no copy
    // behind) while it fills.
    let mut body = Zeroizing::new(Vec::with_capacity(text.len() - start));
    let mut end = None;
    for (i, &c) in text.iter().enumerate().skip(start) {
        match layout(c) {
            Layout::Space => {}
            Layout::Dash => {
                end = Some(i);
                break;
            }
            Layout::Other => body.push(c),
        }
    }
    if !end.is_some_and(|e| armour_at(text, e, b"END ", label)) {
        return Err(PemError::BadEnd);
    }
    if body.is_empty() {
        return Err(PemError::Empty);
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
    Zeroizing::new(utf8(out))
}

fn armour_len(word: &[u8], label: &[u8]) -> usize {
    2 * DASHES.len() + word.len() + label.len()
}

/// Whether `text` holds `-----<word><label>-----` at `at`, compared by masks.
fn armour_at(text: &[u8], at: usize, word: &[u8], label: &[u8]) -> bool {
    let Some(line) = text.get(at..at + armour_len(word, label)) else {
        return false;
    };
    let armour = DASHES.iter().chain(word).chain(label).chain(DASHES);
    let differ = line.iter().zip(armour).fold(0, |d, (&c, &a)| d | (c ^ a));
    // Declassified: whether the armour line is at this place, a fact of the
    // layout. `pem_decode` asks only at a dash. Base64 characters have no
    // dash or space among them, so the verdict could turn on a key's
    // characters only if a run of them stood between dashes and spaces just
    // as a word of the armour does: not the layout of a key's base64, and
    // the verdict is all that is revealed.
    ct::declassified(differ) == 0
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
                let mixed: String = pem
                    .split_inclusive('\n')
                    .enumerate()
                    .map(|(i, l)| l.replace('\n', ["\n", "\r\n"][i % 2]))
                    .collect();
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
        for (text, want) in
            [(&b"Zg="[..], BadCharacter), (b"Zh", NonCanonical), (b"Z", BadLength), (b"Zm9+", BadCharacter)]
        {
            assert_eq!(base64url_decode(text).err(), Some(want), "{}", String::from_utf8_lossy(text));
        }
    }

    /// The base64 of `der` in lines of `n` characters, each followed by `eol`.
    fn wrapped(der: &[u8], n: usize, eol: &str) -> String {
        let mut b64 = Vec::new();
        encode_into(der, false, true, &mut b64);
        b64.chunks(n).map(|l| alloc::format!("{}{eol}", core::str::from_utf8(l).unwrap())).collect()
    }

    /// Every layout that RFC 7468 §3's lax grammar allows, and the text
    /// around the armour that §2 allows, reads as the strict form does.
    #[test]
    fn reads_the_lax_layouts() {
        use alloc::format;
        let mut rng = Rng(17);
        for len in [1, 2, 3, 48, 100, 1334, 1974, 2614] {
            let mut der = alloc::vec![0u8; len];
            rng.fill(&mut der);
            let (b, e) = ("-----BEGIN PUBLIC KEY-----", "-----END PUBLIC KEY-----");
            let one = wrapped(&der, usize::MAX, "");
            let lines = wrapped(&der, 64, "\n");
            let layouts = [
                format!("{b}\n{}{e}\n", wrapped(&der, 76, "\n")),
                format!("{b}\n{}{e}\n", wrapped(&der, 76, "\r\n")),
                format!("{b}\r\n{}{e}", wrapped(&der, 64, "\r\n")),
                format!("{b}\r{}{e}\r", wrapped(&der, 64, "\r")),
                format!("{b}\n{one}\n{e}\n"),
                format!("{b}{one}{e}"),
                format!("{b}\n{}{e}\n", wrapped(&der, 1, "\n")),
                format!("{b}\n{}{e}\n", wrapped(&der, 64, " \t\n\t ")),
                format!("{b}\n\n{}\n\n{e}\n", wrapped(&der, 64, "\n\x0b\x0c")),
                format!("  {b}\n    {}  {e}  \n", lines.replace('\n', "\n    ")),
                format!("{b}\n{}{e}\n", one.replace('=', "\n=")),
                format!("Key for the test server\n-- made by a script --\n\n{b}\n{lines}{e}\nSubject: example\n"),
                format!("{b}\n{lines}{e}\n{b}\n{}{e}\n", wrapped(&[0], 64, "\n")),
                format!("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n{b}\n{lines}{e}\n"),
                format!("text-----{b}{lines}{e}-----text"),
            ];
            for text in &layouts {
                assert_eq!(
                    pem_decode(text.as_bytes(), "PUBLIC KEY").as_deref().map(|d| &d[..]),
                    Ok(&der[..]),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn refuses_what_the_lax_grammar_does_not_allow() {
        use Base64Error::*;
        use PemError::*;
        let der = [0x30u8; 100];
        let good = pem_encode(&der, "PRIVATE KEY");
        let g = good.as_str();
        let cases = [
            (g.replace("PRIVATE KEY", "PUBLIC KEY"), BadBegin),
            (g.replace("BEGIN PRIVATE", "BEGIN ENCRYPTED PRIVATE"), BadBegin),
            (g.replace("-----BEGIN", "----BEGIN"), BadBegin),
            (g.replace("KEY-----\nMDAw", "KEY----\nMDAw"), BadBegin),
            (g.replace("BEGIN PRIVATE KEY", "BEGIN  PRIVATE KEY"), BadBegin),
            (g.replace("BEGIN PRIVATE KEY", "BEGIN private key"), BadBegin),
            (String::new(), BadBegin),
            (g.replace("-----END PRIVATE KEY-----", "-----END PUBLIC KEY-----"), BadEnd),
            (g.replace("-----END PRIVATE KEY-----", "-----END PRIVATE KEY----"), BadEnd),
            (g.replace("-----END PRIVATE KEY-----\n", ""), BadEnd),
            (g.replace("-----END", "----END"), BadEnd),
            (g.replacen("MDAw", "MD-w", 1), BadEnd),
            (g.replace("KEY-----\n", "KEY-----\nProc-Type: 4,ENCRYPTED\n\n"), BadEnd),
            (String::from("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n"), Empty),
            (String::from("-----BEGIN PRIVATE KEY----- \r\n\t-----END PRIVATE KEY-----"), Empty),
            (g.replacen("MDAw", "MD*w", 1), Base64(BadCharacter)),
            (g.replacen("MDAw", "MD\u{e9}", 1), Base64(BadCharacter)), // é: two bytes of UTF-8
            (g.replacen("MDAw", "MD\0w", 1), Base64(BadCharacter)),
            (g.replacen("MDAw", "MD=w", 1), Base64(BadCharacter)),
            (g.replace("==\n", "\n"), Base64(BadLength)),
            (g.replace("==\n", "=\n"), Base64(BadLength)),
            (g.replace("==\n", "===\n"), Base64(BadLength)),
            (g.replace("==\n", "==\nMDAw\n"), Base64(BadCharacter)),
            (g.replace("MA==\n", "MB==\n"), Base64(NonCanonical)),
        ];
        for (text, want) in cases {
            assert_eq!(pem_decode(text.as_bytes(), "PRIVATE KEY").err(), Some(want), "{text:?}");
        }
    }

    /// `pem_decode` reads random layouts, some damaged, as a plain reader
    /// does: the first BEGIN line found by a search, the base64 up to the
    /// first dash after it, W taken out, and the table decoder.
    #[test]
    fn reads_as_a_plain_reader_does() {
        fn find(text: &[u8], line: &[u8], from: usize) -> Option<usize> {
            (from..text.len()).find(|&i| text[i..].starts_with(line))
        }
        fn plain(text: &[u8]) -> Result<Vec<u8>, PemError> {
            let (b, e) = (b"-----BEGIN PUBLIC KEY-----", b"-----END PUBLIC KEY-----");
            let start = find(text, b, 0).ok_or(PemError::BadBegin)? + b.len();
            let end = (start..text.len()).find(|&i| text[i] == b'-');
            if end.is_none_or(|i| !text[i..].starts_with(e)) {
                return Err(PemError::BadEnd);
            }
            let body: Vec<u8> =
                text[start..end.unwrap()].iter().copied().filter(|c| !b" \t\n\x0b\x0c\r".contains(c)).collect();
            if body.is_empty() {
                return Err(PemError::Empty);
            }
            table_decode(&body, false, true).map_err(PemError::Base64)
        }
        let mut rng = Rng(23);
        // How often each outcome came: accepted, no BEGIN, no END, base64 refused.
        let mut seen = [0; 4];
        let noise = b" \t\n\r\x0b\x0c-=*A/+\x00\x80BEGIN";
        for round in 0..3000 {
            let mut der = alloc::vec![0u8; 1 + rng.next() as usize % 40];
            rng.fill(&mut der);
            let mut text = pem_encode(&der, "PUBLIC KEY").as_bytes().to_vec();
            // Insert or replace a few bytes anywhere (whitespace mostly), and
            // sometimes text before and after.
            for _ in 0..rng.next() % 8 {
                let at = rng.next() as usize % (text.len() + 1);
                let c = if rng.next() % 4 == 0 {
                    noise[rng.next() as usize % noise.len()]
                } else {
                    b" \t\n\r"[rng.next() as usize % 4]
                };
                match rng.next() % 3 {
                    0 if at < text.len() => text[at] = c,
                    _ => text.insert(at, c),
                }
            }
            if round % 5 == 0 {
                text.splice(0..0, b"intro -- text\n".iter().copied());
                text.extend_from_slice(b"\n-----END PUBLIC KEY----- and so on");
            }
            let got = pem_decode(&text, "PUBLIC KEY").map(|d| d.to_vec());
            assert_eq!(got, plain(&text), "{:?}", String::from_utf8_lossy(&text));
            seen[match got {
                Ok(_) => 0,
                Err(PemError::BadBegin) => 1,
                Err(PemError::BadEnd) => 2,
                Err(_) => 3,
            }] += 1;
        }
        assert!(seen.iter().all(|&n| n >= 100), "{seen:?}");
    }
}
