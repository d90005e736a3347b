/**
 * mldsa-simd/keys: the key formats, in plain JavaScript: raw, SPKI and
 * PKCS#8 DER (RFC 9881, the three private-key forms), PEM (RFC 7468) and JWK
 * (RFC 9964). The DER of an ML-DSA key has one fixed layout per set and form,
 * generated from the Rust crate's encoder (build/tables.js, KEY_DER): a key
 * is read by comparing its fixed bytes and copying the key parts out, and
 * written by putting them together. What needs the algorithm (the key pair
 * of a seed, the check of an expanded key) is asked of the parameter-set
 * object given as `alg`, so this module carries no WebAssembly of its own.
 * @module
 */
import { ml_dsa44, ml_dsa65, ml_dsa87 } from './index.js';
import {
  apply,
  U8,
  taTag,
  isArray,
  len,
  u8Fill,
  u8Set,
  PARAMS,
  SEED_BYTES,
  describe,
  readBytes,
  readLength,
  readSeedOrSecretKey,
  readOptions,
} from './args.js';
import { KEY_DER } from '../build/tables.js';

const ALGS = [
  [ml_dsa44, 44],
  [ml_dsa65, 65],
  [ml_dsa87, 87],
];
const SETS = ALGS.map((a) => a[1]);
const NAME_LIST = SETS.map((s) => `"${PARAMS[s].name}"`).join(', ');
const FORMS = Object.keys(KEY_DER[SETS[0]].pkcs8); // seed, expandedKey, both (RFC 9881 §6)
const PUBLIC_FORMATS = ['raw', 'spki', 'pem', 'jwk'];
const SECRET_FORMATS = ['raw-seed', 'raw', 'pkcs8', 'pem', 'jwk'];
const EXPORT_KEYS = ['form'];
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode;
const decoder = new TextDecoder();
const decode = TextDecoder.prototype.decode;
const hasOwn = Object.prototype.hasOwnProperty;
const ascii = (text) => apply(encode, encoder, [text]);
const wipe = (bytes) => apply(u8Fill, bytes, [0]);
const quoted = (list) => list.map((x) => `"${x}"`).join(', ');

// ---------------------------------------------------------------- DER layouts
//
// Every layout of build/tables.js as [set, 'spki' or a PKCS#8 form, layout,
// its length]; a layout is [fixed bytes, length of the key part after them] pairs.
function size(layout) {
  let n = 0;
  for (let i = 0; i < layout.length; i++) n += layout[i][0].length + layout[i][1];
  return n;
}
const LAYOUTS = SETS.flatMap((s) => [['spki', KEY_DER[s].spki], ...FORMS.map((f) => [f, KEY_DER[s].pkcs8[f]])].map((e) => [s, e[0], e[1], size(e[1])]));

// No input longer than any key of any set can be is read: the DER by a little
// more than the longest layout (a key of another set, or one a few bytes
// off, is then still refused for what it is), PEM by that DER in base64
// lines of 64 characters with CRLF and its armour, with 64 KiB to spare for
// the text that RFC 7468 lets stand around the armour (`openssl pkey -text`
// puts a hex dump of the whole key there) and the whitespace it lets stand in
// the base64.
const SLACK = 256;
const longest = (spki) => Math.max(...LAYOUTS.filter((e) => (e[1] === 'spki') === spki).map((e) => e[3])) + SLACK;
const spkiMax = longest(true);
const pkcs8Max = longest(false);
const pemMax = Math.ceil(pkcs8Max / 3) * 4 + Math.ceil(pkcs8Max / 48) * 2 + 64 * 1024;

/**
 * Offsets of the key parts of `der` if it is exactly `layout` (its length,
 * and its fixed bytes, the same for every key), else undefined.
 */
function partsOf(der, layout, length) {
  if (len(der) !== length) return undefined;
  const at = [];
  let differ = 0;
  for (let i = 0, o = 0; i < layout.length; i++) {
    const fixed = layout[i][0];
    for (let j = 0; j < fixed.length; j++) differ |= der[o + j] ^ fixed[j];
    at[i] = o += fixed.length;
    o += layout[i][1];
  }
  return differ === 0 ? at : undefined;
}

/** `layout` filled with `parts`, as new bytes. */
function derOf(layout, parts) {
  const out = new U8(size(layout));
  for (let i = 0, o = 0; i < layout.length; i++) {
    apply(u8Set, out, [layout[i][0], o]);
    apply(u8Set, out, [parts[i], (o += layout[i][0].length)]);
    o += layout[i][1];
  }
  return out;
}

const sameSet = (found, ps, what) => {
  if (found !== ps) throw new Error(`${what}: the key is for ${PARAMS[found].name}, but ml_dsa${ps} (${PARAMS[ps].name}) was asked for`);
};

/**
 * A key's DER read as exactly one layout (an SPKI, or PKCS#8 in one of its
 * forms) of the set `ps`: { form, at } with the offsets of its key parts.
 * For a layout of another set the error names that set; for anything else it
 * says what is wrong, as src/keyformat.rs's reader did.
 */
function readDer(der, ps, spki, what) {
  for (let i = 0; i < LAYOUTS.length; i++) {
    const e = LAYOUTS[i];
    if ((e[1] === 'spki') !== spki) continue;
    const at = partsOf(der, e[2], e[3]);
    if (at) {
      sameSet(e[0], ps, what);
      return { form: e[1], at };
    }
  }
  throw new Error(`${spki ? 'spki' : 'pkcs8'}: ${why(der, spki)}`);
}

// What is wrong with a DER that no layout took, found by reading it as strict
// DER (ITU-T X.690 §10: definite lengths in the shortest form, at most three
// length bytes). These say why a key is refused; they never accept one. (They
// read only tags and lengths, but of a DER that is not as it should be: only
// on the way to refusing it.)

/** [start, end) of the value of the TLV at `at` with `tag`, if it is strict DER and ends by `limit`. */
function tlv(d, at, limit, tag) {
  if (d[at] !== tag || at + 2 > limit) return undefined;
  let n = d[at + 1];
  let i = at + 2;
  if (n > 0x80 && n < 0x84 && d[i] !== 0) {
    const end = i + n - 0x80;
    for (n = 0; i < end; i++) n = n * 256 + d[i]; // NaN past the end of d: refused below
    if (!(n >= 0x80)) return undefined;
  } else if (n >= 0x80) return undefined;
  return i + n <= limit ? [i, i + n] : undefined;
}

/** The end of an AlgorithmIdentifier of ML-DSA at `at` (parameters absent), or what is wrong with it. */
function algorithm(d, at, limit) {
  const seq = tlv(d, at, limit, 0x30);
  const oid = seq && tlv(d, seq[0], seq[1], 0x06);
  if (!oid) return 'the AlgorithmIdentifier is not a DER SEQUENCE holding an OID';
  if (oid[1] < seq[1]) return 'the AlgorithmIdentifier has parameters; for ML-DSA they must be absent';
  for (let s = 0; s < SETS.length; s++) {
    const want = KEY_DER[SETS[s]].algorithm;
    let differ = want.length ^ (seq[1] - at);
    for (let j = 0; j < want.length; j++) differ |= d[at + j] ^ want[j];
    if (differ === 0) return seq[1];
  }
  return `the algorithm is not ${PARAMS[44].name}, ${PARAMS[65].name} or ${PARAMS[87].name} (OID 2.16.840.1.101.3.4.3.17, .18 or .19)`;
}

/** Why `d` is no SPKI (`spki`) or PKCS#8 of ML-DSA, in the order src/keyformat.rs's reader checks. */
function why(d, spki) {
  const n = len(d);
  const name = spki ? 'SubjectPublicKeyInfo' : 'OneAsymmetricKey';
  const top = tlv(d, 0, n, 0x30);
  if (!top) return `not a DER ${name} (SEQUENCE)`;
  if (top[1] < n) return `bytes after the ${name}`;
  let at = top[0];
  if (!spki) {
    const version = tlv(d, at, top[1], 0x02);
    if (!version) return 'the version is not a DER INTEGER';
    if (version[1] - version[0] !== 1 || d[version[0]] !== 0)
      return 'the version must be 0 (v1); the optional attributes and publicKey of v2 are not supported';
    at = version[1];
  }
  at = algorithm(d, at, top[1]);
  if (typeof at === 'string') return at;
  const key = tlv(d, at, top[1], spki ? 0x03 : 0x04);
  if (!key) return spki ? 'the subjectPublicKey is not a DER BIT STRING' : 'the privateKey is not a DER OCTET STRING';
  if (key[1] < top[1]) return spki ? 'fields after the subjectPublicKey' : 'fields after privateKey (attributes and publicKey are not supported)';
  const start = key[0];
  const end = key[1];
  // (All else is as a layout has it: what is left is the key part's length, or its tag.)
  const wrongLength = `the ${spki ? 'public key' : 'expandedKey'} has the wrong length for its parameter set`;
  if (spki) return d[start] === 0 && start < end ? wrongLength : 'the BIT STRING has unused bits';
  const whole = (tag) => {
    const v = tlv(d, start, end, tag);
    return v && v[1] === end ? v : undefined;
  };
  switch (d[start]) {
    case 0x80:
      return whole(0x80) ? 'the seed must be 32 bytes' : 'the seed [0] is not DER';
    case 0x04:
      return whole(0x04) ? wrongLength : 'the expandedKey is not a DER OCTET STRING';
    case 0x30: {
      const both = whole(0x30);
      const seed = both && tlv(d, both[0], end, 0x04);
      const sk = seed && tlv(d, seed[1], end, 0x04);
      if (!sk || sk[1] !== end) return 'the `both` SEQUENCE is not DER (seed OCTET STRING, expandedKey OCTET STRING)';
      return seed[1] - seed[0] !== SEED_BYTES ? 'the seed must be 32 bytes' : wrongLength;
    }
    default:
      return 'the privateKey is none of seed [0], expandedKey or both';
  }
}

// ---------------------------------------------------------------- base64 (RFC 4648)
//
// The text can hold a private key (the PEM of PKCS#8, a JWK's "priv"), so, as
// src/algorithms/pem.rs does, a character becomes its 6-bit value and back by
// arithmetic on masks: no table lookup (whose cache line would follow the
// character) and no branch on it. Validity and the canonical check gather in
// masks, and only their verdict, at the end, is branched on. What is branched
// on besides is public: lengths, where the padding is (which the data's length
// fixes), and a PEM text's layout (see pemDecode). (This is what the source can
// do; what a JIT makes of it is not in its hands.)
const BAD_CHARACTER = 'base64: a character outside the alphabet, or padding before the end';
const BAD_LENGTH = 'base64: a length no encoding has (padding missing or extra)';

/** −1 when lo ≤ c ≤ hi, else 0, for small integers: the sign bits of two differences, no comparison. */
const inRange = (c, lo, hi) => ((lo - 1 - c) & (c - hi - 1)) >> 31;

/**
 * The bytes of the first `n` characters of `chars` (ASCII bytes) as base64
 * without padding (n % 4 is 0, 2 or 3), in the standard alphabet or, with
 * `url`, RFC 4648 §5's. `what` begins the messages.
 */
function decode64(chars, n, url, what) {
  if (n % 4 === 1) throw new Error(what + BAD_LENGTH);
  const c62 = url ? 45 : 43; // '-' or '+'
  const c63 = url ? 95 : 47; // '_' or '/'
  const out = new U8((n * 3) >> 2);
  let valid = -1;
  let extra = 0;
  for (let i = 0, o = 0; i < n; i += 4) {
    const k = n - i < 4 ? n - i : 4;
    let acc = 0;
    for (let j = 0; j < k; j++) {
      const c = chars[i + j];
      const upper = inRange(c, 65, 90);
      const lower = inRange(c, 97, 122);
      const digit = inRange(c, 48, 57);
      const s62 = inRange(c, c62, c62);
      const s63 = inRange(c, c63, c63);
      valid &= upper | lower | digit | s62 | s63;
      acc |= ((upper & (c - 65)) | (lower & (c - 71)) | (digit & (c + 4)) | (s62 & 62) | (s63 & 63)) << (18 - 6 * j);
    }
    out[o++] = acc >> 16;
    if (k > 2) out[o++] = acc >> 8;
    if (k > 3) out[o++] = acc;
    // The bits below the last whole byte must be zero (canonical, RFC 4648 §3.5).
    extra |= acc & (k === 2 ? 0xffff : k === 3 ? 0xff : 0);
  }
  if (valid !== -1 || extra !== 0) {
    wipe(out);
    throw new Error(what + (valid !== -1 ? BAD_CHARACTER : 'base64: the last character has bits set beyond the data (not canonical)'));
  }
  return out;
}

/** The base64 character of a 6-bit value, by masks. */
const character = (v, url) =>
  (inRange(v, 0, 25) & (v + 65)) |
  (inRange(v, 26, 51) & (v + 71)) |
  (inRange(v, 52, 61) & (v - 4)) |
  (inRange(v, 62, 62) & (url ? 45 : 43)) |
  (inRange(v, 63, 63) & (url ? 95 : 47));

/** The base64 of `bytes` as ASCII bytes: padded, or base64url without padding. */
function encode64(bytes, url) {
  const n = len(bytes);
  const out = new U8(url ? ((n * 4 + 2) / 3) | 0 : (((n + 2) / 3) | 0) * 4);
  apply(u8Fill, out, [61]); // '=', where no character is written
  for (let i = 0, o = 0; i < n; i += 3) {
    // (Past the end a typed array reads undefined, which shifts as 0.)
    const acc = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    for (let j = 0; j <= n - i && j < 4; j++) out[o++] = character((acc >> (18 - 6 * j)) & 63, url);
  }
  return out;
}

/** ASCII bytes as a string; the bytes are wiped (they may be a key's). */
function text(bytes) {
  const s = apply(decode, decoder, [bytes]);
  wipe(bytes);
  return s;
}

// ---------------------------------------------------------------- PEM (RFC 7468)

const armour = (label) => ({ label, begin: ascii(`-----BEGIN ${label}-----`), end: ascii(`-----END ${label}-----`) });
const PUBLIC = armour('PUBLIC KEY');
const PRIVATE = armour('PRIVATE KEY');
const SPACE = 1;
const DASH = 2;

/**
 * Whitespace (RFC 7468's W: HT, LF, VT, FF, CR, SP), a dash, or neither (0),
 * computed by masks. Branching on it is safe: it is the same (0) for every
 * base64 character and `=`, so it gives where the characters are in the text
 * (its layout: line length, line ends, the text around the armour), never
 * what they are.
 */
const layoutOf = (c) => ((inRange(c, 9, 13) | inRange(c, 32, 32)) & SPACE) | (inRange(c, 45, 45) & DASH);

/** Whether `line` stands in `text` at `at`, compared by masks; only the verdict is branched on. */
function lineAt(text, at, line) {
  if (at + len(line) > len(text)) return false;
  let differ = 0;
  for (let j = 0; j < len(line); j++) differ |= text[at + j] ^ line[j];
  return differ === 0;
}

/**
 * The DER inside PEM armour, read as RFC 7468 §3's lax grammar allows (and
 * src/algorithms/pem.rs reads it): the first BEGIN line in the text (looked for at the
 * dashes), then base64 with whitespace anywhere in it, up to the first dash,
 * where the END line must stand; text before and after is ignored (§2). The
 * base64 without its whitespace is read strictly: canonical, padded.
 */
function pemDecode(text, { label, begin, end }) {
  const n = len(text);
  let start = -1;
  for (let i = 0; i < n && start < 0; i++) if (layoutOf(text[i]) === DASH && lineAt(text, i, begin)) start = i + len(begin);
  if (start < 0) throw new Error(`pem: expected -----BEGIN ${label}----- (the armour of this kind of key)`);
  const body = new U8(n - start);
  let m = 0;
  let stop = -1;
  for (let i = start; i < n && stop < 0; i++) {
    const c = layoutOf(text[i]);
    if (c === DASH) stop = i;
    else if (c === 0) body[m++] = text[i];
  }
  try {
    if (stop < 0 || !lineAt(text, stop, end))
      throw new Error(`pem: expected -----END ${label}----- after the base64, and only base64 and whitespace between the armour lines`);
    if (m === 0) throw new Error('pem: no base64 between the BEGIN and END lines');
    if (m % 4 !== 0) throw new Error(BAD_LENGTH);
    // Whether the last characters are '=': the padding, which the DER's length fixes (public).
    return decode64(body, m - (body[m - 1] !== 61 ? 0 : body[m - 2] !== 61 ? 1 : 2), false, '');
  } finally {
    wipe(body);
  }
}

/** PEM armour around `der` (RFC 7468 §3's strict form: lines of 64 characters, LF). */
function pemEncode(der, { begin, end }) {
  const b64 = encode64(der, false);
  const n = len(b64);
  const out = new U8(len(begin) + len(end) + n + ((n + 63) >> 6) + 2);
  apply(u8Set, out, [begin, 0]);
  let o = len(begin);
  out[o++] = 10;
  for (let i = 0; i < n; i++) {
    out[o++] = b64[i];
    if (i % 64 === 63 || i === n - 1) out[o++] = 10;
  }
  apply(u8Set, out, [end, o]);
  out[o + len(end)] = 10;
  wipe(b64);
  return text(out);
}

// ---------------------------------------------------------------- reading arguments

function readAlg(alg) {
  for (let i = 0; i < ALGS.length; i++) if (ALGS[i][0] === alg) return ALGS[i][1];
  throw new TypeError(`alg: expected ml_dsa44, ml_dsa65 or ml_dsa87 of mldsa-simd, got ${describe(alg)}`);
}

/** Whether `value` is in `list` (compared here, not by a method a script could replace: it may be a secret given in the wrong place). */
function oneOf(value, list) {
  for (let i = 0; i < list.length; i++) if (list[i] === value) return true;
  return false;
}

function readFormat(format, allowed, what) {
  if (!oneOf(format, allowed)) throw new TypeError(`format: expected one of ${quoted(allowed)} for ${what}, got ${describe(format)}`);
  return format;
}

/** The bytes of a string of ASCII text (PEM, base64url) of at most `max` characters, a new copy; non-ASCII text is refused by the decoders. */
function readText(value, name, max) {
  if (typeof value !== 'string') throw new TypeError(`${name}: expected a string, got ${describe(value)}`);
  if (value.length > max) throw new RangeError(`${name}: expected at most ${max} characters, got ${value.length}`);
  return ascii(value);
}

/** The bytes of a Uint8Array (DER, or PEM given as bytes) of at most `max` bytes. */
function readBytesUpTo(value, name, max) {
  const bytes = readBytes(value, name);
  if (len(bytes) > max) throw new RangeError(`${name}: expected at most ${max} bytes, got ${len(bytes)}`);
  return bytes;
}

/** The DER inside PEM text given as a string or as the bytes of the text (read in place); a string's bytes are wiped. */
function readPem(value, kind) {
  if (typeof value === 'string') {
    const bytes = readText(value, 'pem', pemMax);
    try {
      return pemDecode(bytes, kind);
    } finally {
      wipe(bytes);
    }
  }
  if (apply(taTag, value, []) !== 'Uint8Array') throw new TypeError(`pem: expected a string or a Uint8Array of text, got ${describe(value)}`);
  return pemDecode(readBytesUpTo(value, 'pem', pemMax), kind);
}

/**
 * A JWK as RFC 9964 writes an ML-DSA key, read once into plain values: kty
 * "AKP", alg the name of the set `ps`, pub, and priv for a private key.
 * Other members (kid, use, key_ops, ext, …) are allowed and ignored.
 */
function readJwk(jwk, ps, wantPriv) {
  if (jwk === null || typeof jwk !== 'object' || isArray(jwk)) throw new TypeError(`jwk: expected a JWK object, got ${describe(jwk)}`);
  const member = (key) => (apply(hasOwn, jwk, [key]) ? jwk[key] : undefined);
  const out = { kty: member('kty'), alg: member('alg'), pub: member('pub'), priv: member('priv') };
  if (out.kty !== 'AKP') throw new Error(`jwk: expected kty "AKP" (RFC 9964), got ${describe(out.kty)}`);
  if (typeof out.alg !== 'string') throw new Error(`jwk: expected alg to be one of ${NAME_LIST}`);
  if (typeof out.pub !== 'string') throw new Error('jwk: the "pub" member is missing or not a string');
  if (wantPriv && typeof out.priv !== 'string') throw new Error('jwk: the "priv" member is missing or not a string');
  if (!wantPriv && out.priv !== undefined) throw new Error('jwk: this JWK has a "priv" member: it is a private key; import it with importSecretKey');
  for (let i = 0; i < SETS.length; i++) {
    if (PARAMS[SETS[i]].name === out.alg) {
      sameSet(SETS[i], ps, 'jwk');
      return out;
    }
  }
  throw new Error(`jwk: expected alg to be one of ${NAME_LIST}, got ${describe(out.alg)}`);
}

/** base64url without padding (RFC 7515 §2): `length` bytes are exactly this many characters. */
function base64url(value, what, length) {
  const chars = ((length * 4 + 2) / 3) | 0;
  if (typeof value === 'string' && value.length !== chars)
    throw new Error(`${what}: expected ${chars} base64url characters (${length} bytes), got ${value.length} characters`);
  const bytes = readText(value, what, chars);
  try {
    return decode64(bytes, len(bytes), true, `${what}: `);
  } finally {
    wipe(bytes);
  }
}

// ---------------------------------------------------------------- keys

/** The key pair of a seed, in the order importSecretKey returns it; the seed is keygen's copy. */
function keyPair(alg, seed) {
  const k = alg.keygen(seed);
  return { seed: k.seed, publicKey: k.publicKey, secretKey: k.secretKey };
}

const wipeKey = (key) => {
  wipe(key.seed);
  wipe(key.secretKey);
};

/**
 * An expanded key (bytes of ours, the caller's if it passes) checked as RFC
 * 9881 §6 asks: getPublicKey refuses it unless its tr and t0 are what its ρ,
 * s1 and s2 give. `malformed`, if given, replaces the message of that refusal
 * (an instance failure passes unchanged).
 */
function expanded(alg, sk, malformed) {
  try {
    return { seed: undefined, publicKey: alg.getPublicKey(sk), secretKey: sk };
  } catch (e) {
    wipe(sk);
    throw malformed && /^secretKey: malformed/.test(e?.message) ? new Error(malformed) : e;
  }
}

/** `length` bytes of `bytes` from `at`, copied by hand (no method of the array is called on a key). */
function part(bytes, at, length) {
  const out = new U8(length);
  for (let i = 0; i < length; i++) out[i] = bytes[at + i];
  return out;
}

/**
 * Reads a public key of the set `alg` (ml_dsa44, ml_dsa65 or ml_dsa87):
 * raw, spki (DER), pem (a string or its bytes) or jwk. Returns the raw key.
 */
export function importPublicKey(alg, data, format) {
  const ps = readAlg(alg);
  const f = readFormat(format, PUBLIC_FORMATS, 'a public key');
  const pkLen = PARAMS[ps].publicKey;
  if (f === 'raw') return new U8(readLength(data, pkLen, 'publicKey'));
  if (f === 'jwk') return base64url(readJwk(data, ps, false).pub, 'jwk.pub', pkLen);
  const der = f === 'pem' ? readPem(data, PUBLIC) : readBytesUpTo(data, 'spki', spkiMax);
  return part(der, readDer(der, ps, true, f).at[0], pkLen);
}

/** Writes a raw public key of the set `alg` as raw, spki, pem or jwk. */
export function exportPublicKey(alg, publicKey, format) {
  const ps = readAlg(alg);
  const f = readFormat(format, PUBLIC_FORMATS, 'a public key');
  const pk = readLength(publicKey, PARAMS[ps].publicKey, 'publicKey');
  if (f === 'raw') return new U8(pk);
  if (f === 'jwk') return { kty: 'AKP', alg: PARAMS[ps].name, pub: text(encode64(pk, true)) };
  const der = derOf(KEY_DER[ps].spki, [pk]);
  return f === 'pem' ? pemEncode(der, PUBLIC) : der;
}

/**
 * Reads a private key of the set `alg`, checked as RFC 9881 §6 asks:
 * raw-seed, raw (expanded), pkcs8 (any form), pem or jwk. Returns { seed
 * (when the format has it), publicKey, secretKey }, new arrays of the caller's.
 */
export function importSecretKey(alg, data, format) {
  const ps = readAlg(alg);
  const f = readFormat(format, SECRET_FORMATS, 'a secret key');
  const { publicKey: pkLen, secretKey: skLen } = PARAMS[ps];
  if (f === 'raw-seed') return keyPair(alg, readLength(data, SEED_BYTES, 'seed'));
  if (f === 'raw') return expanded(alg, new U8(readLength(data, skLen, 'secretKey')));
  if (f === 'jwk') {
    const jwk = readJwk(data, ps, true);
    const pub = base64url(jwk.pub, 'jwk.pub', pkLen);
    const seed = base64url(jwk.priv, 'jwk.priv', SEED_BYTES);
    let key;
    try {
      key = keyPair(alg, seed);
    } finally {
      wipe(seed);
    }
    let differ = 0;
    for (let i = 0; i < pkLen; i++) differ |= pub[i] ^ key.publicKey[i];
    if (differ !== 0) {
      wipeKey(key);
      throw new Error('jwk: "pub" is not the public key of the seed in "priv"');
    }
    return key;
  }
  const der = f === 'pem' ? readPem(data, PRIVATE) : readBytesUpTo(data, 'pkcs8', pkcs8Max);
  try {
    const { form, at } = readDer(der, ps, false, f);
    if (form === 'expandedKey') return expanded(alg, part(der, at[0], skLen), 'pkcs8: the expandedKey is malformed (its parts do not belong together)');
    const seed = part(der, at[0], SEED_BYTES);
    let key;
    try {
      key = keyPair(alg, seed);
    } finally {
      wipe(seed);
    }
    if (form === 'both') {
      // The expanded key must be the seed's; compared in constant time (OR of XORs), only the verdict branched on.
      let differ = 0;
      for (let i = 0; i < skLen; i++) differ |= key.secretKey[i] ^ der[at[1] + i];
      if (differ !== 0) {
        wipeKey(key);
        throw new Error('privateKey: the seed and the expanded key do not belong together');
      }
    }
    return key;
  } finally {
    if (f === 'pem') wipe(der); // (pkcs8: the caller's bytes, read in place)
  }
}

/**
 * Writes a private key of the set `alg`, given as its 32-byte seed or its
 * expanded secret key (told apart by length): raw-seed, raw, pkcs8 or pem
 * (in the RFC 9881 form `opts.form`, 'seed' by default) or jwk.
 */
export function exportSecretKey(alg, key, format, opts) {
  const ps = readAlg(alg);
  const f = readFormat(format, SECRET_FORMATS, 'a secret key');
  const options = readOptions(opts, EXPORT_KEYS);
  const form = options.form ?? 'seed';
  if (f !== 'pkcs8' && f !== 'pem' && options.form !== undefined) throw new TypeError(`options: "form" applies to the pkcs8 and pem formats, not to ${f}`);
  if (!oneOf(form, FORMS)) throw new TypeError(`form: expected one of ${quoted(FORMS)}, got ${describe(form)}`);
  const { secretKey: skLen, name } = PARAMS[ps];
  const bytes = readSeedOrSecretKey(key, skLen);
  const seed = len(bytes) === SEED_BYTES ? bytes : undefined;
  const needSeed = (what) => {
    if (!seed)
      throw new Error(
        `${what}: needs the ${SEED_BYTES}-byte seed, and a ${skLen}-byte expanded secret key does not contain it. ` +
          'keygen() returns the seed as .seed (and importSecretKey as .seed, when the key it reads has one); ' +
          "an expanded key alone can be exported as 'raw', or as 'pkcs8' or 'pem' with { form: 'expandedKey' }",
      );
  };
  if (f === 'raw-seed') {
    needSeed('raw-seed');
    return new U8(seed);
  }
  if (f === 'raw' && !seed) return new U8(bytes);
  if (f === 'jwk') needSeed('jwk (RFC 9964 keeps the private key as its seed)');
  if (f !== 'raw' && f !== 'jwk' && form !== 'expandedKey') needSeed(`the ${form} form`);
  // An expanded key alone (PKCS#8 expandedKey) is checked: getPublicKey refuses a malformed one.
  if (!seed) alg.getPublicKey(bytes);
  // The key pair of the seed, where the format holds more than the seed.
  const k = seed && (f === 'raw' || f === 'jwk' || form !== 'seed') ? keyPair(alg, seed) : undefined;
  if (k) wipe(k.seed);
  if (f === 'raw') return k.secretKey;
  if (f === 'jwk') {
    wipe(k.secretKey);
    return { kty: 'AKP', alg: name, pub: text(encode64(k.publicKey, true)), priv: text(encode64(seed, true)) };
  }
  const sk = k ? k.secretKey : bytes;
  const der = derOf(KEY_DER[ps].pkcs8[form], form === 'seed' ? [seed] : form === 'expandedKey' ? [sk] : [seed, sk]);
  if (k) wipe(k.secretKey);
  if (f === 'pkcs8') return der;
  try {
    return pemEncode(der, PRIVATE);
  } finally {
    wipe(der);
  }
}
