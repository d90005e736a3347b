/**
 * Key formats for each parameter set: raw, SPKI/PKCS#8 DER (RFC 9881), PEM
 * (RFC 7468) and JWK (RFC 9964). The DER, PEM and base64url are read and
 * written by the Rust crate (src/keyformat.rs, src/pem.rs); this file reads
 * arguments, checks the parameter set, and assembles JWK objects.
 * @module
 */
import { apply, U8, taTag, isArray, len, u8Fill, wasm, fromRust, PARAMS, SEED_BYTES, EMPTY, describe, readBytes, readLength, readSeedOrSecretKey, readOptions } from './boundary.js';

// The sets' names (build/tables.js, from the crate): { 44: 'ML-DSA-44', … }, and as a message lists them.
const NAMES = Object.fromEntries(Object.entries(PARAMS).map(([set, p]) => [set, p.name]));
const NAME_LIST = Object.values(NAMES).map((n) => `"${n}"`).join(', ');
const PUBLIC_FORMATS = Object.freeze(['raw', 'spki', 'pem', 'jwk']);
const SECRET_FORMATS = Object.freeze(['raw-seed', 'raw', 'pkcs8', 'pem', 'jwk']);
const FORMS = Object.freeze(['seed', 'expandedKey', 'both']);
const EXPORT_KEYS = Object.freeze(['form']);
const PUBLIC_LABEL = 'PUBLIC KEY';
const PRIVATE_LABEL = 'PRIVATE KEY';
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode;
const hasOwn = Object.prototype.hasOwnProperty;
const wipe = (bytes) => apply(u8Fill, bytes, [0]);

// Key inputs are bounded before anything is copied into wasm memory (a key
// input of any size would otherwise grow it for the life of the process): no
// SPKI or PKCS#8 of any set is longer than the longest the Rust crate writes
// (build/tables.js: PARAMS[set].spki, .pkcs8Max, the "both" form), and no PEM
// longer than that DER in base64 lines of 64 characters with CRLF and its
// armour, with 64 KiB to spare for the text that RFC 7468 lets stand around
// the armour (`openssl pkey -text` puts a hex dump of the whole key there)
// and the whitespace it lets stand in the base64. The bounds are
// those of the largest set with room to spare, so that a key of another set,
// or one a few bytes off, is still refused for what it is by the DER reader.
const SLACK = 256;
const largest = (field) => Math.max(...Object.values(PARAMS).map((p) => p[field])) + SLACK;
const spkiMax = largest('spki');
const pkcs8Max = largest('pkcs8Max');
const pemMax = Math.ceil(pkcs8Max / 3) * 4 + Math.ceil(pkcs8Max / 48) * 2 + 64 * 1024;

function readFormat(format, allowed, what) {
  if (typeof format !== 'string' || !allowed.includes(format))
    throw new TypeError(`format: expected one of ${allowed.map((f) => `"${f}"`).join(', ')} for ${what}, got ${describe(format)}`);
  return format;
}

/**
 * The bytes of a string of ASCII text (PEM, base64url) of at most `max`
 * characters; non-ASCII text is refused by the decoders.
 */
function readText(value, name, max) {
  if (typeof value !== 'string') throw new TypeError(`${name}: expected a string, got ${describe(value)}`);
  if (value.length > max) throw new RangeError(`${name}: expected at most ${max} characters, got ${value.length}`);
  return apply(encode, encoder, [value]);
}

/** The bytes of a Uint8Array (DER, or PEM given as bytes) of at most `max` bytes. */
function readBytesUpTo(value, name, max) {
  const bytes = readBytes(value, name);
  if (len(bytes) > max) throw new RangeError(`${name}: expected at most ${max} bytes, got ${len(bytes)}`);
  return bytes;
}

/**
 * PEM text as bytes: a string, as a new copy of its UTF-8 (`own`: to be
 * wiped after use), or a Uint8Array of the text, read in place (the glue
 * copies it into wasm memory).
 */
function readPem(value) {
  if (typeof value === 'string') return { bytes: readText(value, 'pem', pemMax), own: true };
  if (apply(taTag, value, []) !== 'Uint8Array')
    throw new TypeError(`pem: expected a string or a Uint8Array of text, got ${describe(value)}`);
  return { bytes: readBytesUpTo(value, 'pem', pemMax), own: false };
}

/**
 * A JWK as RFC 9964 writes an ML-DSA key, read once into plain values:
 * kty "AKP", alg the set's name, pub, and priv for a private key. Other
 * members (kid, use, key_ops, ext, …) are allowed and ignored.
 */
function readJwk(jwk, name, wantPriv) {
  if (jwk === null || typeof jwk !== 'object' || isArray(jwk))
    throw new TypeError(`${name}: expected a JWK object, got ${describe(jwk)}`);
  const member = (key) => (apply(hasOwn, jwk, [key]) ? jwk[key] : undefined);
  const out = { kty: member('kty'), alg: member('alg'), pub: member('pub'), priv: member('priv') };
  if (out.kty !== 'AKP') throw new Error(`${name}: expected kty "AKP" (RFC 9964), got ${describe(out.kty)}`);
  if (typeof out.alg !== 'string') throw new Error(`${name}: expected alg to be one of ${NAME_LIST}`);
  if (typeof out.pub !== 'string') throw new Error(`${name}: the "pub" member is missing or not a string`);
  if (wantPriv && typeof out.priv !== 'string') throw new Error(`${name}: the "priv" member is missing or not a string`);
  if (!wantPriv && out.priv !== undefined)
    throw new Error(`${name}: this JWK has a "priv" member: it is a private key; import it with importSecretKey`);
  return out;
}

export function keyFormats(ps) {
  const { publicKey: pkLen, secretKey: skLen } = PARAMS[ps];
  const name = NAMES[ps];
  const setName = `ml_dsa${ps}`;

  const sameSet = (found, what) => {
    if (found !== ps)
      throw new Error(`${what}: the key is for ${NAMES[found] ?? 'another algorithm'}, but ${setName} (${name}) was asked for`);
  };
  const jwkAlg = (alg, what) => {
    const found = Object.keys(NAMES).find((k) => NAMES[k] === alg);
    if (found === undefined) throw new Error(`${what}: expected alg to be one of ${NAME_LIST}, got ${describe(alg)}`);
    sameSet(Number(found), what);
  };
  // The DER inside PEM armour; the decoder's message names the label it wanted.
  const pemDecode = (text, label) => {
    const { bytes, own } = readPem(text);
    try {
      return wasm.pem_decode(bytes, label);
    } catch (e) {
      if (!fromRust(e)) throw e;
      throw new Error(e.message.replace('<label>', label), { cause: e });
    } finally {
      if (own) wipe(bytes);
    }
  };
  // base64url without padding (RFC 7515): `length` bytes are exactly this many characters.
  const base64url = (text, what, length) => {
    const chars = Math.ceil((length * 4) / 3);
    if (typeof text === 'string' && text.length !== chars)
      throw new Error(`${what}: expected ${chars} base64url characters (${length} bytes), got ${text.length} characters`);
    const ascii = readText(text, what, chars);
    try {
      return wasm.base64url_decode(ascii);
    } catch (e) {
      if (!fromRust(e)) throw e;
      throw new Error(`${what}: ${e.message}`, { cause: e });
    } finally {
      wipe(ascii);
    }
  };

  // Runs an export that writes a checked private key of this set into three
  // new arrays (src/wasm/keys.rs's write_key), which are then the caller's:
  // it returns the key's set number times 2, plus 1 with a seed.
  const privateKey = (write) => {
    const seed = new U8(SEED_BYTES);
    const publicKey = new U8(pkLen);
    const secretKey = new U8(skLen);
    const found = write(seed, publicKey, secretKey);
    sameSet(found >> 1, 'secretKey');
    return { seed: found & 1 ? seed : undefined, publicKey, secretKey };
  };

  // A seed (32 bytes) or an expanded secret key, told apart by length.
  const readSecret = (key) => {
    const bytes = readSeedOrSecretKey(key, skLen);
    return len(bytes) === SEED_BYTES ? { seed: bytes, sk: new U8(0) } : { seed: new U8(0), sk: bytes };
  };

  function importPublicKey(data, format) {
    const f = readFormat(format, PUBLIC_FORMATS, 'a public key');
    if (f === 'raw') return new U8(readLength(data, pkLen, 'publicKey'));
    if (f === 'jwk') {
      const jwk = readJwk(data, 'jwk', false);
      jwkAlg(jwk.alg, 'jwk');
      return base64url(jwk.pub, 'jwk.pub', pkLen);
    }
    const der = f === 'pem' ? pemDecode(data, PUBLIC_LABEL) : readBytesUpTo(data, 'spki', spkiMax);
    const publicKey = new U8(pkLen);
    sameSet(wasm.spki_decode(ps, der, publicKey), f);
    return publicKey;
  }

  function exportPublicKey(publicKey, format) {
    const f = readFormat(format, PUBLIC_FORMATS, 'a public key');
    const pk = readLength(publicKey, pkLen, 'publicKey');
    if (f === 'raw') return new U8(pk);
    if (f === 'jwk') return { kty: 'AKP', alg: name, pub: wasm.base64url_encode(pk) };
    const der = wasm.spki_encode(ps, pk);
    return f === 'pem' ? wasm.pem_encode(der, PUBLIC_LABEL) : der;
  }

  function importSecretKey(data, format) {
    const f = readFormat(format, SECRET_FORMATS, 'a secret key');
    if (f === 'raw-seed') return privateKey((outSeed, outPk, outSk) => wasm.private_key(ps, readLength(data, SEED_BYTES, 'seed'), EMPTY, outSeed, outPk, outSk));
    if (f === 'raw') return privateKey((outSeed, outPk, outSk) => wasm.private_key(ps, EMPTY, readLength(data, skLen, 'secretKey'), outSeed, outPk, outSk));
    if (f === 'jwk') {
      const jwk = readJwk(data, 'jwk', true);
      jwkAlg(jwk.alg, 'jwk');
      const pub = base64url(jwk.pub, 'jwk.pub', pkLen);
      const seed = base64url(jwk.priv, 'jwk.priv', SEED_BYTES);
      let key;
      try {
        key = privateKey((outSeed, outPk, outSk) => wasm.private_key(ps, seed, EMPTY, outSeed, outPk, outSk));
      } finally {
        wipe(seed);
      }
      let differ = 0;
      for (let i = 0; i < pkLen; i++) differ |= pub[i] ^ key.publicKey[i];
      if (differ !== 0) {
        wipe(key.seed);
        wipe(key.secretKey);
        throw new Error('jwk: "pub" is not the public key of the seed in "priv"');
      }
      return key;
    }
    let der;
    if (f === 'pem') der = pemDecode(data, PRIVATE_LABEL);
    try {
      return privateKey((outSeed, outPk, outSk) => wasm.pkcs8_decode(ps, der ?? readBytesUpTo(data, 'pkcs8', pkcs8Max), outSeed, outPk, outSk));
    } finally {
      if (der) wipe(der);
    }
  }

  function exportSecretKey(key, format, opts) {
    const f = readFormat(format, SECRET_FORMATS, 'a secret key');
    const options = readOptions(opts, EXPORT_KEYS);
    const formName = options.form ?? 'seed';
    if ((f !== 'pkcs8' && f !== 'pem') && options.form !== undefined)
      throw new TypeError(`options: "form" applies to the pkcs8 and pem formats, not to ${f}`);
    const form = FORMS.indexOf(formName);
    if (form < 0) throw new TypeError(`form: expected one of ${FORMS.map((x) => `"${x}"`).join(', ')}, got ${describe(formName)}`);
    const { seed, sk } = readSecret(key);
    const noSeed = (what) =>
      new Error(
        `${what}: needs the ${SEED_BYTES}-byte seed, and a ${skLen}-byte expanded secret key does not contain it. ` +
          'keygen() returns the seed as .seed (and importSecretKey as .seed, when the key it reads has one); ' +
          "an expanded key alone can be exported as 'raw', or as 'pkcs8' or 'pem' with { form: 'expandedKey' }",
      );
    switch (f) {
      case 'raw-seed':
        if (!len(seed)) throw noSeed('raw-seed');
        return new U8(seed);
      case 'raw': {
        if (len(sk)) return new U8(sk);
        const k = privateKey((outSeed, outPk, outSk) => wasm.private_key(ps, seed, sk, outSeed, outPk, outSk));
        wipe(k.seed);
        return k.secretKey;
      }
      case 'jwk': {
        if (!len(seed)) throw noSeed('jwk (RFC 9964 keeps the private key as its seed)');
        const k = privateKey((outSeed, outPk, outSk) => wasm.private_key(ps, seed, sk, outSeed, outPk, outSk));
        wipe(k.secretKey);
        wipe(k.seed);
        return { kty: 'AKP', alg: name, pub: wasm.base64url_encode(k.publicKey), priv: wasm.base64url_encode(seed) };
      }
      default: {
        if (!len(seed) && form !== 1) throw noSeed(`the ${FORMS[form]} form`);
        const der = wasm.pkcs8_encode(ps, seed, sk, form);
        if (f === 'pkcs8') return der;
        try {
          return wasm.pem_encode(der, PRIVATE_LABEL);
        } finally {
          wipe(der);
        }
      }
    }
  }

  return { importPublicKey, exportPublicKey, importSecretKey, exportSecretKey };
}
