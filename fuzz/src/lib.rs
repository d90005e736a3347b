//! Input layouts shared by the fuzz targets (`fuzz_targets/`) and the seed
//! generator (`examples/seeds.rs`), so that seeds start from valid structure.
//!
//! Every target reads its input front to back with [`Input`]; a short input
//! gives short (or zero) fields, never a panic in the harness itself.

use mldsa_simd::{ParamSet, PrivateKeyForm};
use std::sync::OnceLock;

pub const SETS: [ParamSet; 3] = [ParamSet::MlDsa44, ParamSet::MlDsa65, ParamSet::MlDsa87];

/// The first byte of the ML-DSA targets: the parameter set in its low bits
/// (value mod 3 of the low nibble), and two flags that each target gives its
/// own meaning: the top bit (a mode) and the bit below it (costlier checks).
pub fn header(b: u8) -> (ParamSet, bool, bool) {
    (SETS[usize::from(b & 0x0f) % 3], b & 0x80 != 0, b & 0x40 != 0)
}

/// The header byte for a set index (0, 1, 2) and the two flags.
pub fn header_byte(set: usize, top: bool, second: bool) -> u8 {
    set as u8 | if top { 0x80 } else { 0 } | if second { 0x40 } else { 0 }
}

/// Whether this input is one of the `one_in` that run a target's costly
/// checks: a hash of the whole input, so the choice is the same every time an
/// input runs (a crash reproduces) but does not follow the corpus: however
/// many of its inputs ask for the costly checks, about 1 in `one_in` runs them.
pub fn sampled(data: &[u8], one_in: u32) -> bool {
    // FNV-1a; its top byte depends on every bit of the input (the low bits only on the low bits).
    let h = data.iter().fold(0x811c_9dc5u32, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    (h >> 24) % one_in == 0
}

pub struct Input<'a>(pub &'a [u8]);

impl<'a> Input<'a> {
    /// The next byte, 0 past the end.
    pub fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }
    /// Two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from(self.byte()) | u16::from(self.byte()) << 8
    }
    /// Up to `n` bytes (fewer at the end).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (a, b) = self.0.split_at(n.min(self.0.len()));
        self.0 = b;
        a
    }
    /// Exactly `n` bytes, zero-padded at the end.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let t = self.take(N);
        out[..t.len()].copy_from_slice(t);
        out
    }
    pub fn rest(self) -> &'a [u8] {
        self.0
    }
}

/// A context string: a length byte, then that many bytes.
pub fn context<'a>(inp: &mut Input<'a>) -> &'a [u8] {
    let n = inp.byte();
    inp.take(usize::from(n))
}

/// `sig` with bit `bit` (mod its length in bits) flipped.
pub fn flip_bit(sig: &[u8], bit: usize) -> Vec<u8> {
    let mut s = sig.to_vec();
    let bit = bit % (8 * s.len());
    s[bit / 8] ^= 1 << (bit % 8);
    s
}

/// LZMA properties from one byte as the .lzma header writes them:
/// (pb·5 + lp)·9 + lc; bytes ≥ 225 give pb ≥ 5 (refused by the decoder).
pub fn lzma_props(b: u8) -> (u32, u32, u32) {
    let b = u32::from(b);
    (b % 9, b / 9 % 5, b / 45)
}

/// The numbers of FIPS 204 Table 1 that the harness's own checks need, written
/// out here again (not taken from the crate) so that they are independent of it.
pub struct Table {
    pub k: usize,
    pub l: usize,
    pub eta: u32,
    pub omega: usize,
    pub c_tilde_bytes: usize,
    pub z_bits: usize,
    /// The lengths of pk and sk (FIPS 204 Table 2).
    pub pk_bytes: usize,
    pub sk_bytes: usize,
}

pub fn table(ps: ParamSet) -> Table {
    match ps {
        ParamSet::MlDsa44 => {
            Table { k: 4, l: 4, eta: 2, omega: 80, c_tilde_bytes: 32, z_bits: 18, pk_bytes: 1312, sk_bytes: 2560 }
        }
        ParamSet::MlDsa65 => {
            Table { k: 6, l: 5, eta: 4, omega: 55, c_tilde_bytes: 48, z_bits: 20, pk_bytes: 1952, sk_bytes: 4032 }
        }
        ParamSet::MlDsa87 => {
            Table { k: 8, l: 7, eta: 2, omega: 75, c_tilde_bytes: 64, z_bits: 20, pk_bytes: 2592, sk_bytes: 4896 }
        }
    }
}

/// Bits [bit, bit + width) of `bytes`, least significant first (FIPS 204's bit order).
fn bits_at(bytes: &[u8], bit: usize, width: usize) -> u32 {
    (0..width).map(|i| u32::from(bytes[(bit + i) / 8] >> ((bit + i) % 8) & 1) << i).sum()
}

/// Whether every s1 and s2 coefficient of an encoded secret key lies in
/// [−η, η]: skDecode's BitUnpack (FIPS 204 Algorithms 19, 25) stores η − s in
/// bitlen(2η) bits, so each stored value must be at most 2η. `sk` must have
/// its set's length.
pub fn sk_in_range(ps: ParamSet, sk: &[u8]) -> bool {
    let t = table(ps);
    let width = if t.eta == 2 { 3 } else { 4 };
    let s = &sk[128..128 + 32 * width * (t.k + t.l)];
    (0..256 * (t.k + t.l)).all(|i| bits_at(s, i * width, width) <= 2 * t.eta)
}

/// Whether the hint of an encoded signature is well formed (HintBitUnpack,
/// FIPS 204 Algorithm 21): the k counts at the end never decrease and stay at
/// most ω, the indices of each polynomial strictly increase, and the unused
/// index bytes are zero. `sig` must have its set's length.
pub fn hint_well_formed(ps: ParamSet, sig: &[u8]) -> bool {
    let t = table(ps);
    let y = &sig[sig.len() - t.omega - t.k..];
    let mut index = 0;
    for i in 0..t.k {
        let end = usize::from(y[t.omega + i]);
        if end < index || end > t.omega {
            return false;
        }
        if (index + 1..end).any(|j| y[j - 1] >= y[j]) {
            return false;
        }
        index = end;
    }
    y[index..t.omega].iter().all(|&b| b == 0)
}

/// Whether every coefficient of z is below γ1 − β in size, z = γ1 − (stored
/// value) (FIPS 204 Algorithm 27 and the norm check of Algorithm 8 step 13).
pub fn z_in_range(ps: ParamSet, sig: &[u8]) -> bool {
    let t = table(ps);
    let (gamma1, beta): (i64, i64) = match ps {
        ParamSet::MlDsa44 => (1 << 17, 78),
        ParamSet::MlDsa65 => (1 << 19, 196),
        ParamSet::MlDsa87 => (1 << 19, 120),
    };
    let z = &sig[t.c_tilde_bytes..];
    (0..256 * t.l).all(|i| (gamma1 - i64::from(bits_at(z, i * t.z_bits, t.z_bits))).abs() < gamma1 - beta)
}

// ---- Key formats: the harness's own reading of RFC 9881's DER, and of base64
// and PEM (RFC 4648, RFC 7468), written apart from the crate's der.rs, pem.rs
// and keyformat.rs so that the targets `pkcs8` and `spki_pem` compare the two.

pub const FORMS: [PrivateKeyForm; 3] = [PrivateKeyForm::Seed, PrivateKeyForm::ExpandedKey, PrivateKeyForm::Both];

/// A DER tag and definite length in the shortest form (X.690 §10.1).
pub fn tl(tag: u8, len: usize) -> Vec<u8> {
    if len < 0x80 {
        return vec![tag, len as u8];
    }
    let n = (usize::BITS - len.leading_zeros()).div_ceil(8) as usize;
    let mut v = vec![tag, 0x80 | n as u8];
    v.extend((0..n).rev().map(|i| (len >> (8 * i)) as u8));
    v
}

fn tlv_len(len: usize) -> usize {
    tl(0, len).len() + len
}

/// The last arc of id-ml-dsa-44/65/87 = 2.16.840.1.101.3.4.3.17/18/19.
pub fn oid_arc(ps: ParamSet) -> u8 {
    match ps {
        ParamSet::MlDsa44 => 17,
        ParamSet::MlDsa65 => 18,
        ParamSet::MlDsa87 => 19,
    }
}

/// AlgorithmIdentifier ::= SEQUENCE { OID id-ml-dsa-* } (parameters absent, RFC 9881 §2).
pub fn algorithm_id(ps: ParamSet) -> Vec<u8> {
    vec![0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, oid_arc(ps)]
}

/// A piece of a key structure: fixed bytes, or the place of the seed ξ or of the expanded key.
pub enum Part {
    Bytes(Vec<u8>),
    Seed,
    ExpandedKey,
}

/// The one DER encoding of a OneAsymmetricKey (v1, no attributes) of `ps` in
/// `form`, as the fixed bytes around the seed and the expanded key.
pub fn pkcs8_parts(ps: ParamSet, form: PrivateKeyForm) -> Vec<Part> {
    let s = table(ps).sk_bytes;
    let (inner, inner_len) = match form {
        // seed [0] IMPLICIT OCTET STRING (SIZE (32))
        PrivateKeyForm::Seed => (vec![Part::Bytes(vec![0x80, 32]), Part::Seed], 34),
        PrivateKeyForm::ExpandedKey => (vec![Part::Bytes(tl(0x04, s)), Part::ExpandedKey], tlv_len(s)),
        // both SEQUENCE { seed OCTET STRING (SIZE (32)), expandedKey OCTET STRING }
        PrivateKeyForm::Both => {
            let c = 34 + tlv_len(s);
            let head = [tl(0x30, c), vec![0x04, 32]].concat();
            (vec![Part::Bytes(head), Part::Seed, Part::Bytes(tl(0x04, s)), Part::ExpandedKey], tlv_len(c))
        }
    };
    // SEQUENCE { INTEGER 0, AlgorithmIdentifier, privateKey OCTET STRING { inner } }
    let body = 3 + 13 + tlv_len(inner_len);
    let head = [tl(0x30, body), vec![0x02, 0x01, 0x00], algorithm_id(ps), tl(0x04, inner_len)].concat();
    let mut parts = inner;
    match &mut parts[0] {
        Part::Bytes(b) => b.splice(0..0, head),
        _ => unreachable!(),
    };
    parts
}

/// The number of length bytes after 0x8n in the DER header at the start of `b`.
fn header_extra(b: &[u8]) -> usize {
    if b[1] < 0x80 {
        0
    } else {
        usize::from(b[1] & 0x7f)
    }
}

/// The PKCS#8 DER of `ps`, `form` with this seed and expanded key (the one
/// that `form` does not hold is ignored).
pub fn pkcs8_write(ps: ParamSet, form: PrivateKeyForm, seed: &[u8], sk: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in pkcs8_parts(ps, form) {
        match p {
            Part::Bytes(b) => out.extend_from_slice(&b),
            Part::Seed => out.extend_from_slice(seed),
            Part::ExpandedKey => out.extend_from_slice(sk),
        }
    }
    out
}

/// What the harness reads from a OneAsymmetricKey: the set and form whose
/// layout it has, and where its seed and expanded key are.
pub struct Pkcs8Ref<'a> {
    pub ps: ParamSet,
    pub form: PrivateKeyForm,
    pub seed: Option<&'a [u8]>,
    pub sk: Option<&'a [u8]>,
    pub seed_at: usize,
    pub sk_at: usize,
    pub arc_at: usize,
}

/// The layout of `der` if it has one of the nine (set × form), with any seed
/// and expanded key bytes: what a strict DER reader of RFC 9881 must accept
/// before it looks at the key itself.
pub fn pkcs8_match(der: &[u8]) -> Option<Pkcs8Ref<'_>> {
    static LAYOUTS: OnceLock<Vec<(ParamSet, PrivateKeyForm, Vec<Part>)>> = OnceLock::new();
    let layouts = LAYOUTS
        .get_or_init(|| SETS.iter().flat_map(|&ps| FORMS.iter().map(move |&f| (ps, f, pkcs8_parts(ps, f)))).collect());
    'layout: for (ps, form, parts) in layouts {
        let mut r = Pkcs8Ref { ps: *ps, form: *form, seed: None, sk: None, seed_at: 0, sk_at: 0, arc_at: 0 };
        let mut at = 0;
        for p in parts {
            let n = match p {
                Part::Bytes(b) => b.len(),
                Part::Seed => 32,
                Part::ExpandedKey => table(*ps).sk_bytes,
            };
            let Some(got) = der.get(at..at + n) else { continue 'layout };
            match p {
                Part::Bytes(b) if got != &b[..] => continue 'layout,
                // The arc: after the outer header, the version (3 bytes) and 12 bytes of the AlgorithmIdentifier.
                Part::Bytes(b) if at == 0 => r.arc_at = 2 + header_extra(b) + 3 + 12,
                Part::Bytes(_) => {}
                Part::Seed => (r.seed, r.seed_at) = (Some(got), at),
                Part::ExpandedKey => (r.sk, r.sk_at) = (Some(got), at),
            }
            at += n;
        }
        if at == der.len() {
            return Some(r);
        }
    }
    None
}

/// SubjectPublicKeyInfo ::= SEQUENCE { AlgorithmIdentifier, BIT STRING (0 unused bits ‖ pk) }.
pub fn spki_write(ps: ParamSet, pk: &[u8]) -> Vec<u8> {
    let bits = 1 + pk.len();
    [tl(0x30, 13 + tlv_len(bits)), algorithm_id(ps), tl(0x03, bits), vec![0], pk.to_vec()].concat()
}

/// The set and public key of an SPKI in the one DER layout RFC 9881 allows.
pub fn spki_match(der: &[u8]) -> Option<(ParamSet, &[u8])> {
    static HEADS: OnceLock<Vec<(ParamSet, Vec<u8>)>> = OnceLock::new();
    let heads = HEADS.get_or_init(|| {
        let head = |ps| spki_write(ps, &vec![0; table(ps).pk_bytes])[..22].to_vec();
        SETS.iter().map(|&ps| (ps, head(ps))).collect()
    });
    heads.iter().find_map(|(ps, head)| {
        (der.len() == head.len() + table(*ps).pk_bytes && der.starts_with(head)).then(|| (*ps, &der[head.len()..]))
    })
}

pub const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
pub const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Strict base64 with this alphabet, by a table and a bit buffer: padded (a
/// multiple of 4 characters, at most two `=` and only at the end) or not (no
/// `=`, length ≢ 1 mod 4); the bits past the last byte must be zero.
pub fn ref_base64_decode(text: &[u8], alphabet: &[u8; 64], padded: bool) -> Option<Vec<u8>> {
    let mut table = [0xffu8; 256];
    for (v, &c) in alphabet.iter().enumerate() {
        table[usize::from(c)] = v as u8;
    }
    let body = if padded {
        if text.len() % 4 != 0 {
            return None;
        }
        let pad = text.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 {
            return None;
        }
        &text[..text.len() - pad]
    } else {
        text
    };
    if body.len() % 4 == 1 {
        return None;
    }
    let (mut acc, mut bits, mut out) = (0u32, 0, Vec::new());
    for &c in body {
        let v = table[usize::from(c)];
        if v == 0xff {
            return None;
        }
        acc = (acc << 6 | u32::from(v)) & 0xfff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    (acc & ((1 << bits) - 1) == 0).then_some(out)
}

pub fn ref_base64_encode(bytes: &[u8], alphabet: &[u8; 64], padded: bool) -> Vec<u8> {
    let (mut acc, mut bits, mut out) = (0u32, 0, Vec::new());
    for &b in bytes {
        acc = (acc << 8 | u32::from(b)) & 0xffff;
        bits += 8;
        while bits >= 6 {
            bits -= 6;
            out.push(alphabet[(acc >> bits & 63) as usize]);
        }
    }
    if bits > 0 {
        out.push(alphabet[(acc << (6 - bits) & 63) as usize]);
    }
    while padded && out.len() % 4 != 0 {
        out.push(b'=');
    }
    out
}

/// RFC 7468's strict PEM as the crate documents it, with LF line ends and a final LF.
pub fn ref_pem_encode(der: &[u8], label: &str) -> Vec<u8> {
    let mut out = format!("-----BEGIN {label}-----\n").into_bytes();
    for line in ref_base64_encode(der, BASE64, true).chunks(64) {
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out.extend_from_slice(format!("-----END {label}-----\n").as_bytes());
    out
}

/// The DER in a PEM text as the crate documents its reading (RFC 7468 §3's
/// lax grammar): the first `-----BEGIN <label>-----`, then base64 and
/// whitespace (W: SP, HT, LF, VT, FF, CR) up to the first dash, which must
/// start `-----END <label>-----`; text before and after is not read; the
/// base64 without its whitespace is strict padded base64, and not empty.
pub fn ref_pem_decode(text: &[u8], label: &str) -> Option<Vec<u8>> {
    let begin = format!("-----BEGIN {label}-----").into_bytes();
    let rest = &text[text.windows(begin.len()).position(|w| w == begin)? + begin.len()..];
    let end = rest.iter().position(|&c| c == b'-')?;
    if !rest[end..].starts_with(format!("-----END {label}-----").as_bytes()) {
        return None;
    }
    let body: Vec<u8> = rest[..end].iter().copied().filter(|c| !b" \t\n\x0b\x0c\r".contains(c)).collect();
    if body.is_empty() {
        return None;
    }
    ref_base64_decode(&body, BASE64, true)
}
