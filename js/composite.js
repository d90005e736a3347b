/**
 * mldsa-simd/composite: composite ML-DSA (draft-ietf-lamps-pq-composite-sigs):
 * an ML-DSA signature and a traditional one (RSASSA-PSS, RSASSA-PKCS1-v1_5,
 * ECDSA, Ed25519, Ed448) over one message representative
 *   M′ = Prefix ‖ Label ‖ len(ctx) ‖ ctx ‖ PH(M),
 * the ML-DSA half with the Label as its context. The ML-DSA half runs in the
 * package's WebAssembly (./index.js, the same instance as the main entry),
 * the traditional half in the platform's crypto.subtle; where the platform
 * lacks the traditional algorithm, a NotSupportedError says which.
 * Keys and signatures are the draft's raw encodings (concatenations of the
 * two components), with its SPKI and PKCS#8 forms.
 * @module
 */
import { ml_dsa44, ml_dsa65, ml_dsa87 } from './index.js';
import { apply, U8, u8Fill, u8Set, taBuffer, taOffset, isArray, len, freeze, describe, readBytes, readOptions, readContext } from './args.js';
import { sha3Core } from './sha3.js';

// ---------------------------------------------------------------- intrinsics
// The platform's crypto.subtle methods as they were at load, called through
// `apply`: a script that replaces one afterwards never sees key bytes.
const SubtleProto = globalThis.SubtleCrypto?.prototype;
const subtleObject = globalThis.crypto?.subtle;
const PLATFORM = { __proto__: null };
for (const name of ['digest', 'generateKey', 'importKey', 'exportKey', 'sign', 'verify']) {
  const fn = SubtleProto?.[name];
  if (typeof fn === 'function') PLATFORM[name] = fn;
}
const DOMExceptionCtor = globalThis.DOMException;
const subtle = (name, args) => {
  if (!subtleObject || !PLATFORM[name]) throw notSupported(`crypto.subtle.${name}`);
  return apply(PLATFORM[name], subtleObject, args);
};
const notSupported = (what) => new DOMExceptionCtor(`this platform's WebCrypto has no ${what}`, 'NotSupportedError');
const wipe = (bytes) => apply(u8Fill, bytes, [0]);
/** A new plain copy of a plain view (the constructor reads internal slots, nothing of the caller's). */
const copy = (view) => new U8(view);
// Parts of our arrays by the constructor, not subarray/slice: those would ask
// the array's `constructor` (replaceable) to make the result, handing it key bytes.
const view = (d, start, end = len(d)) => new U8(apply(taBuffer, d, []), apply(taOffset, d, []) + start, end - start);
const part = (d, start, end) => copy(view(d, start, end));
function concat(...parts) {
  let n = 0;
  for (const p of parts) n += len(p);
  const out = new U8(n);
  n = 0;
  for (const p of parts) {
    apply(u8Set, out, [p, n]);
    n += len(p);
  }
  return out;
}
const ascii = (text) => {
  const out = new U8(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
};

// ---------------------------------------------------------------- DER
// Only what the draft's encodings need: definite lengths, up to 3 length bytes.
// der(tag, ...parts) writes one TLV into one new array; a part is bytes or a
// nested [tag, ...parts], written in place, so that no intermediate copy of a
// part (a private key, on its way to the platform) is left behind.
const headLen = (n) => (n < 0x80 ? 2 : n < 0x100 ? 3 : n < 0x10000 ? 4 : 5);
function bodyLen(node) {
  let n = 0;
  for (let i = 1; i < node.length; i++) n += isArray(node[i]) ? tlvLen(node[i]) : len(node[i]);
  return n;
}
const tlvLen = (node) => headLen(bodyLen(node)) + bodyLen(node);
function put(node, out, at) {
  const n = bodyLen(node);
  out[at++] = node[0];
  if (n < 0x80) out[at++] = n;
  else {
    const k = headLen(n) - 2;
    out[at++] = 0x80 | k;
    for (let s = 8 * (k - 1); s >= 0; s -= 8) out[at++] = (n >> s) & 255;
  }
  for (let i = 1; i < node.length; i++) {
    const p = node[i];
    if (isArray(p)) at = put(p, out, at);
    else {
      apply(u8Set, out, [p, at]);
      at += len(p);
    }
  }
  return at;
}
function der(...node) {
  const out = new U8(tlvLen(node));
  put(node, out, 0);
  return out;
}
/** [start, end) of the value of a strict-DER TLV with `tag` at `at` that ends by `limit`, or undefined. */
function tlv(d, at, limit, tag) {
  if (at + 2 > limit || d[at] !== tag) return undefined;
  let n = d[at + 1];
  let i = at + 2;
  if (n > 0x80 && n < 0x84 && d[i] !== 0) {
    const end = i + n - 0x80;
    if (end > limit) return undefined;
    for (n = 0; i < end; i++) n = n * 256 + d[i];
    if (n < 0x80) return undefined;
  } else if (n >= 0x80) return undefined;
  return i + n <= limit ? [i, i + n] : undefined;
}
/** The value of the TLV at `at` with `tag`, if it spans exactly to `limit`. */
function whole(d, at, limit, tag) {
  const t = tlv(d, at, limit, tag);
  return t && t[1] === limit ? t : undefined;
}
const bytesOf = (hex) => new U8(hex.match(/../g).map((h) => parseInt(h, 16)));
const INT0 = bytesOf('020100');
const NULL = bytesOf('0500');
const same = (d, at, want) => {
  let differ = 0;
  for (let i = 0; i < len(want); i++) differ |= d[at + i] ^ want[i];
  return differ === 0 && at + len(want) <= len(d);
};

// ---------------------------------------------------------------- the combinations
// The draft's algorithms, in the order of their OIDs 1.3.6.1.5.5.7.6.37 to .54.
// Everything else follows from the name: the ML-DSA set, the pre-hash, and
// the traditional algorithm, whose own hash goes with its size (RSA-4096 and
// P-384: SHA-384; P-521: SHA-512; the rest SHA-256), as the draft's table says.
const NAMES = [
  'MLDSA44-RSA2048-PSS-SHA256',
  'MLDSA44-RSA2048-PKCS15-SHA256',
  'MLDSA44-Ed25519-SHA512',
  'MLDSA44-ECDSA-P256-SHA256',
  'MLDSA65-RSA3072-PSS-SHA512',
  'MLDSA65-RSA3072-PKCS15-SHA512',
  'MLDSA65-RSA4096-PSS-SHA512',
  'MLDSA65-RSA4096-PKCS15-SHA512',
  'MLDSA65-ECDSA-P256-SHA512',
  'MLDSA65-ECDSA-P384-SHA512',
  'MLDSA65-ECDSA-brainpoolP256r1-SHA512',
  'MLDSA65-Ed25519-SHA512',
  'MLDSA87-ECDSA-P384-SHA512',
  'MLDSA87-ECDSA-brainpoolP384r1-SHA512',
  'MLDSA87-Ed448-SHAKE256',
  'MLDSA87-RSA3072-PSS-SHA512',
  'MLDSA87-RSA4096-PSS-SHA512',
  'MLDSA87-ECDSA-P521-SHA512',
];
const SETS = { 44: ml_dsa44, 65: ml_dsa65, 87: ml_dsa87 };
const PREFIX = ascii('CompositeAlgorithmSignatures2025');
// Curves: WebCrypto's name, the scalar size, the DER of the curve OID.
const CURVES = {
  P256: ['P-256', 32, '06082a8648ce3d030107'],
  P384: ['P-384', 48, '06052b81040022'],
  P521: ['P-521', 66, '06052b81040023'],
  brainpoolP256r1: ['brainpoolP256r1', 32, '06092b2403030208010107'],
  brainpoolP384r1: ['brainpoolP384r1', 48, '06092b240303020801010b'],
};
const RSA_ALG = bytesOf('06092a864886f70d010101'); // rsaEncryption, with NULL parameters
const EC_ALG = bytesOf('06072a8648ce3d0201'); // id-ecPublicKey
const ED_OID = { Ed25519: bytesOf('06032b6570'), Ed448: bytesOf('06032b6571') };
const ED_LEN = { Ed25519: 32, Ed448: 57 };

/** The traditional half of a combination: how to import, sign, verify, generate and encode its keys. */
function traditional(t) {
  const rsa = /^RSA(\d+)-(PSS|PKCS15)$/.exec(t);
  if (rsa) {
    const bits = +rsa[1];
    const hash = bits === 4096 ? 'SHA-384' : 'SHA-256';
    const name = rsa[2] === 'PSS' ? 'RSA-PSS' : 'RSASSA-PKCS1-v1_5';
    const algId = [0x30, RSA_ALG, NULL];
    return {
      name: `${name} ${bits}`,
      key: { name, hash },
      params: { name, saltLength: hash === 'SHA-384' ? 48 : 32 },
      generate: { name, hash, modulusLength: bits, publicExponent: new U8([1, 0, 1]) },
      // RSAPublicKey (n, e): one SEQUENCE of two INTEGERs, nothing after it.
      checkPublic: (d) => {
        const s = whole(d, 0, len(d), 0x30);
        const n = s && tlv(d, s[0], s[1], 0x02);
        return !!(n && whole(d, n[1], s[1], 0x02));
      },
      spki: (pk) => der(0x30, algId, [0x03, new U8(1), pk]),
      pkcs8: (sk) => (whole(sk, 0, len(sk), 0x30) ? der(0x30, INT0, algId, [0x04, sk]) : undefined),
      checkKey: (key) => key.algorithm.modulusLength === bits,
      // Export: the BIT STRING of the SPKI, the OCTET STRING of the PKCS#8.
      publicOf: async (key) => {
        const d = new U8(await subtle('exportKey', ['spki', key]));
        const s = tlv(d, 0, len(d), 0x30);
        const a = tlv(d, s[0], s[1], 0x30);
        const b = tlv(d, a[1], s[1], 0x03);
        return part(d, b[0] + 1, b[1]);
      },
      privateOf: (d, o) => part(d, o[0], o[1]),
    };
  }
  const ec = /^ECDSA-(\w+)$/.exec(t);
  if (ec) {
    const [namedCurve, n, oidHex] = CURVES[ec[1]];
    const oid = bytesOf(oidHex);
    const hash = n === 66 ? 'SHA-512' : n === 48 ? 'SHA-384' : 'SHA-256';
    return {
      name: `ECDSA ${namedCurve}`,
      ecdsa: n,
      unsupported: namedCurve.startsWith('brainpool'),
      key: { name: 'ECDSA', namedCurve },
      params: { name: 'ECDSA', hash },
      generate: { name: 'ECDSA', namedCurve },
      checkPublic: (d) => len(d) === 1 + 2 * n && d[0] === 4,
      raw: true,
      // The draft's ECPrivateKey: version 1, the scalar, [0] the curve; no public key.
      pkcs8: (sk) => {
        const s = whole(sk, 0, len(sk), 0x30);
        const v = s && tlv(sk, s[0], s[1], 0x02);
        const k = v && v[1] - v[0] === 1 && sk[v[0]] === 1 && tlv(sk, v[1], s[1], 0x04);
        const p = k && k[1] - k[0] === n && whole(sk, k[1], s[1], 0xa0);
        if (!p || p[1] - p[0] !== len(oid) || !same(sk, p[0], oid)) return undefined;
        return der(0x30, INT0, [0x30, EC_ALG, oid], [0x04, sk]);
      },
      privateOf: (d, o) => {
        const s = tlv(d, o[0], o[1], 0x30);
        const v = tlv(d, s[0], s[1], 0x02);
        const k = tlv(d, v[1], s[1], 0x04);
        return der(0x30, bytesOf('020101'), [0x04, view(d, k[0], k[1])], [0xa0, oid]);
      },
    };
  }
  // Ed25519, Ed448: raw keys (the private key is the 32- or 57-byte seed of RFC 8032).
  const n = ED_LEN[t];
  return {
    name: t,
    key: { name: t },
    params: { name: t },
    generate: { name: t },
    checkPublic: (d) => len(d) === n,
    raw: true,
    pkcs8: (sk) => (len(sk) === n ? der(0x30, INT0, [0x30, ED_OID[t]], [0x04, [0x04, sk]]) : undefined),
    privateOf: (d, o) => {
      const k = tlv(d, o[0], o[1], 0x04);
      return part(d, k[0], k[1]);
    },
  };
}

// ---------------------------------------------------------------- ECDSA signatures
// WebCrypto signs and verifies r ‖ s (each n bytes); the draft carries
// Ecdsa-Sig-Value, a DER SEQUENCE of two INTEGERs.
function sigToDer(raw, n) {
  const int = (v) => {
    let i = 0;
    while (i < n - 1 && v[i] === 0) i++;
    return [0x02, new U8(v[i] >> 7), view(v, i)];
  };
  return der(0x30, int(view(raw, 0, n)), int(view(raw, n)));
}
/** r ‖ s of a strict DER Ecdsa-Sig-Value with positive integers of at most n bytes, or undefined. */
function sigFromDer(d, n) {
  const out = new U8(2 * n);
  const s = whole(d, 0, len(d), 0x30);
  let at = s ? s[0] : -1;
  for (let k = 0; k < 2; k++) {
    const t = s && tlv(d, at, s[1], 0x02);
    if (!t || t[0] === t[1] || d[t[0]] & 0x80) return undefined;
    let i = t[0];
    if (d[i] === 0 && i + 1 < t[1]) {
      if (!(d[i + 1] & 0x80)) return undefined; // not minimal
      i++;
    }
    if (t[1] - i > n) return undefined;
    apply(u8Set, out, [view(d, i, t[1]), (k + 1) * n - (t[1] - i)]);
    at = t[1];
  }
  return at === s[1] ? out : undefined;
}

// ---------------------------------------------------------------- PEM (public keys)
const BEGIN = '-----BEGIN PUBLIC KEY-----';
const END = '-----END PUBLIC KEY-----';
function pemOf(d) {
  let s = '';
  for (let i = 0; i < len(d); i++) s += String.fromCharCode(d[i]);
  const b = btoa(s);
  let out = BEGIN + '\n';
  for (let i = 0; i < b.length; i += 64) out += b.slice(i, i + 64) + '\n';
  return out + END + '\n';
}
function derOfPem(text) {
  const m = /^\s*-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]*)-----END PUBLIC KEY-----\s*$/.exec(text);
  if (!m) throw new Error('publicKey: not a PEM "PUBLIC KEY" block');
  let s;
  try {
    s = atob(m[1].replace(/\s+/g, ''));
  } catch {
    throw new Error('publicKey: the PEM body is not base64');
  }
  return ascii(s);
}

// ---------------------------------------------------------------- the signer
function make(index) {
  const name = NAMES[index];
  const [, ps, t, ph] = /^MLDSA(\d\d)-(.+)-(SHA256|SHA512|SHAKE256)$/.exec(name);
  const ml = SETS[ps];
  const { publicKey: PK, signature: SIG } = ml.lengths;
  const trad = traditional(t);
  const label = ascii('COMPSIG-' + name.replace(/brainpoolP(\d+)r1/, 'BP$1'));
  const oid = concat(bytesOf('06082b060105050706'), new U8([37 + index]));
  const algId = [0x30, oid];
  const tradName = trad.name;

  const platform = async (op, run) => {
    if (trad.unsupported) throw notSupported(tradName);
    try {
      return await run();
    } catch (e) {
      if (e?.name === 'NotSupportedError') {
        const n = notSupported(`${tradName} (${op})`);
        n.cause = e;
        throw n;
      }
      throw e;
    }
  };

  // PH(M), started before anything awaits (crypto.subtle.digest copies the message when called).
  const prehash = (msg) => {
    if (ph !== 'SHAKE256') return subtle('digest', [ph === 'SHA256' ? 'SHA-256' : 'SHA-512', msg]);
    const core = sha3Core('shake256');
    const A = core.init();
    const B = core.blockLen;
    const n = len(msg);
    let i = 0;
    for (; n - i >= B; i += B) core.block(A, msg, i);
    const buf = new U8(B);
    apply(u8Set, buf, [view(msg, i), 0]);
    return core.end(A, buf, n - i, n, 64);
  };
  const representative = async (hashing, ctx) => concat(PREFIX, label, new U8([len(ctx)]), ctx, new U8(await hashing));

  async function keygen() {
    const { publicKey, secretKey, seed } = ml.keygen();
    wipe(secretKey);
    let pair, d;
    try {
      pair = await platform('generateKey', () => subtle('generateKey', [trad.generate, true, ['sign', 'verify']]));
      const tpk = trad.raw ? new U8(await subtle('exportKey', ['raw', pair.publicKey])) : await trad.publicOf(pair.publicKey);
      d = new U8(await subtle('exportKey', ['pkcs8', pair.privateKey]));
      // PrivateKeyInfo: version, AlgorithmIdentifier, then the OCTET STRING of the key.
      const s = tlv(d, 0, len(d), 0x30);
      const v = tlv(d, s[0], s[1], 0x02);
      const a = tlv(d, v[1], s[1], 0x30);
      const tsk = trad.privateOf(d, tlv(d, a[1], s[1], 0x04));
      const sk = concat(seed, tsk);
      wipe(tsk);
      return { publicKey: concat(publicKey, tpk), secretKey: sk };
    } finally {
      wipe(seed);
      if (d) wipe(d);
    }
  }

  async function sign(message, secretKey, options) {
    const opts = readOptions(options, ['context']);
    const ctx = copy(readContext(opts.context));
    const msg = readBytes(message, 'message');
    const sk = copy(readBytes(secretKey, 'secretKey'));
    let wrapped;
    try {
      if (len(sk) <= 32) throw new RangeError(`secretKey: expected more than 32 bytes (the ML-DSA seed and the ${tradName} key), got ${len(sk)}`);
      const hashing = prehash(msg);
      const tsk = view(sk, 32);
      const key = await platform('importKey', async () => {
        wrapped = trad.pkcs8(tsk);
        if (!wrapped) throw new Error(`secretKey: the ${tradName} private key is not in the draft's encoding`);
        let k;
        try {
          k = await subtle('importKey', ['pkcs8', wrapped, trad.key, false, ['sign']]);
        } catch (e) {
          if (e?.name === 'NotSupportedError') throw e;
          throw new Error(`secretKey: the platform refused the ${tradName} private key`, { cause: e });
        }
        if (trad.checkKey && !trad.checkKey(k)) throw new Error(`secretKey: the RSA key is not of the size of ${name}`);
        return k;
      });
      wipe(wrapped);
      const mp = await representative(hashing, ctx);
      const signer = ml.signer(view(sk, 0, 32));
      let mlSig;
      try {
        mlSig = signer.sign(mp, { context: label });
      } finally {
        signer.free();
      }
      let tSig = new U8(await subtle('sign', [trad.params, key, mp]));
      if (trad.ecdsa) tSig = sigToDer(tSig, trad.ecdsa);
      return concat(mlSig, tSig);
    } finally {
      wipe(sk);
      if (wrapped) wipe(wrapped);
    }
  }

  async function verify(signature, message, publicKey, options) {
    const opts = readOptions(options, ['context']);
    const ctx = copy(readContext(opts.context));
    const sig = copy(readBytes(signature, 'signature'));
    const msg = readBytes(message, 'message');
    const pk = copy(readBytes(publicKey, 'publicKey'));
    if (trad.unsupported) throw notSupported(tradName);
    if (len(pk) <= PK || len(sig) <= SIG) return false;
    const tpk = view(pk, PK);
    if (!trad.checkPublic(tpk)) return false;
    let tSig = view(sig, SIG);
    if (trad.ecdsa && !(tSig = sigFromDer(tSig, trad.ecdsa))) return false;
    const hashing = prehash(msg);
    let key;
    try {
      key = await platform('importKey', () =>
        subtle('importKey', trad.raw ? ['raw', tpk, trad.key, false, ['verify']] : ['spki', trad.spki(tpk), trad.key, false, ['verify']]),
      );
    } catch (e) {
      if (e?.name === 'NotSupportedError') throw e;
      return false; // a traditional public key the platform refuses: no signature is valid under it
    }
    if (trad.checkKey && !trad.checkKey(key)) return false;
    const mp = await representative(hashing, ctx);
    if (!ml.verify(view(sig, 0, SIG), mp, view(pk, 0, PK), { context: label })) return false;
    try {
      return (await subtle('verify', [trad.params, key, tSig, mp])) === true;
    } catch {
      return false;
    }
  }

  // ------------------------------------------------------------ key formats
  const readFormat = (format, allowed) => {
    if (!allowed.includes(format)) throw new TypeError(`format: expected ${allowed.map((f) => `"${f}"`).join(' or ')}, got ${describe(format)}`);
  };
  const checkPublicKey = (pk) => {
    if (len(pk) <= PK || !trad.checkPublic(view(pk, PK)))
      throw new Error(`publicKey: not a ${name} public key (the ML-DSA key of ${PK} bytes and the ${tradName} key)`);
    return pk;
  };
  /** The value of the BIT STRING or OCTET STRING after this combination's AlgorithmIdentifier in `d` from `at`, ending the SEQUENCE `s`. */
  const keyAfterAlgorithm = (d, at, s, tag, what) => {
    const a = tlv(d, at, s[1], 0x30);
    const o = a && whole(d, a[0], a[1], 0x06);
    if (!o || !same(d, a[0], oid) || o[1] - a[0] !== len(oid))
      throw new Error(`${what}: the algorithm is not ${name} (OID 1.3.6.1.5.5.7.6.${37 + index}, no parameters)`);
    const k = tlv(d, a[1], s[1], tag);
    if (!k) throw new Error(`${what}: no key after the AlgorithmIdentifier`);
    return k;
  };

  function exportPublicKey(publicKey, format = 'raw') {
    readFormat(format, ['raw', 'spki', 'pem']);
    const pk = checkPublicKey(copy(readBytes(publicKey, 'publicKey')));
    if (format === 'raw') return pk;
    const spki = der(0x30, algId, [0x03, new U8(1), pk]);
    return format === 'spki' ? spki : pemOf(spki);
  }
  function importPublicKey(data, format = 'raw') {
    readFormat(format, ['raw', 'spki', 'pem']);
    if (format === 'pem') {
      if (typeof data !== 'string') throw new TypeError(`publicKey: expected a string, got ${describe(data)}`);
    }
    const d = format === 'pem' ? derOfPem(data) : copy(readBytes(data, 'publicKey'));
    if (format === 'raw') return checkPublicKey(d);
    const s = whole(d, 0, len(d), 0x30);
    if (!s) throw new Error('publicKey: not a DER SubjectPublicKeyInfo');
    const b = keyAfterAlgorithm(d, s[0], s, 0x03, 'publicKey');
    if (b[1] !== s[1] || b[0] === b[1] || d[b[0]] !== 0)
      throw new Error('publicKey: the BIT STRING is not the whole rest of the SubjectPublicKeyInfo, or has unused bits');
    return checkPublicKey(part(d, b[0] + 1, b[1]));
  }
  const checkSecretKey = (sk) => {
    if (len(sk) <= 32) throw new Error(`secretKey: not a ${name} private key (the 32-byte ML-DSA seed and the ${tradName} key)`);
    return sk;
  };
  function exportSecretKey(secretKey, format = 'raw') {
    readFormat(format, ['raw', 'pkcs8']);
    const sk = checkSecretKey(copy(readBytes(secretKey, 'secretKey')));
    if (format === 'raw') return sk;
    const out = der(0x30, INT0, algId, [0x04, sk]);
    wipe(sk);
    return out;
  }
  function importSecretKey(data, format = 'raw') {
    readFormat(format, ['raw', 'pkcs8']);
    if (format === 'raw') return checkSecretKey(copy(readBytes(data, 'secretKey')));
    const d = copy(readBytes(data, 'secretKey'));
    try {
      // OneAsymmetricKey: version 0 or 1, the algorithm, the key; attributes and the public key may follow.
      const s = whole(d, 0, len(d), 0x30);
      const v = s && tlv(d, s[0], s[1], 0x02);
      if (!v || v[1] - v[0] !== 1 || d[v[0]] > 1) throw new Error('secretKey: not a DER PKCS#8 PrivateKeyInfo (version 0 or 1)');
      const k = keyAfterAlgorithm(d, v[1], s, 0x04, 'secretKey');
      // After the key: [0] attributes, and in version 1 [1] the public key; nothing else.
      let at = k[1];
      const attributes = tlv(d, at, s[1], 0xa0);
      if (attributes) at = attributes[1];
      const pub = d[v[0]] === 1 && tlv(d, at, s[1], 0x81);
      if (pub) at = pub[1];
      if (at !== s[1]) throw new Error('secretKey: the PrivateKeyInfo has fields after the key other than attributes and (version 1) the public key');
      return checkSecretKey(part(d, k[0], k[1]));
    } finally {
      wipe(d);
    }
  }

  return freeze({ name, oid: `1.3.6.1.5.5.7.6.${37 + index}`, keygen, sign, verify, importPublicKey, exportPublicKey, importSecretKey, exportSecretKey });
}

const made = { __proto__: null };
/**
 * The composite algorithm named as the draft's identifier without "id-"
 * (e.g. "MLDSA65-Ed25519-SHA512").
 */
export function composite(name) {
  if (typeof name !== 'string') throw new TypeError(`name: expected a string, got ${describe(name)}`);
  const i = NAMES.indexOf(name);
  if (i < 0) {
    if (/^(id-)?ML-DSA-(44|65|87)$/.test(name))
      throw new TypeError(`name: "${name}" is plain ML-DSA, not a composite: use ml_dsa${name.slice(-2)} of mldsa-simd`);
    throw new TypeError(
      `name: not a composite ML-DSA algorithm of draft-ietf-lamps-pq-composite-sigs (${name.length} characters); expected one of ${NAMES.join(', ')}`,
    );
  }
  return (made[name] ??= make(i));
}
/** The names `composite` takes, in the order of their OIDs. */
export const names = freeze(NAMES.slice());
