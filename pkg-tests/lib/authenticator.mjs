// A WebAuthn authenticator of the tests' own, small enough to read in one go,
// for checking a relying party's verification of ML-DSA credentials (COSE
// key type AKP, algorithms -48 / -49 / -50): it makes the JSON a browser
// hands to the relying party after navigator.credentials.create() (a
// registration, attestation "none" or "packed" self attestation) and after
// navigator.credentials.get() (an authentication). Its keys are made and
// used through globalThis.crypto.subtle, so with mldsa-simd/webcrypto
// installed they are the package's; nothing here depends on Node or on a
// browser. The CBOR it writes is the few shapes WebAuthn needs, written by
// hand here so that the relying party's decoder is checked against an
// encoder that is not its own.

/** COSE algorithm identifiers of ML-DSA (IANA COSE registry) and the WebCrypto names they stand for. */
export const COSE_ALGS = Object.freeze({ [-48]: 'ML-DSA-44', [-49]: 'ML-DSA-65', [-50]: 'ML-DSA-87' });

const FLAG_UP = 0x01; // user present
const FLAG_UV = 0x04; // user verified
const FLAG_AT = 0x40; // attested credential data follows

// ---------------------------------------------------------------- CBOR (RFC 8949), the subset WebAuthn uses

function head(major, n) {
  if (n < 24) return [(major << 5) | n];
  if (n < 0x100) return [(major << 5) | 24, n];
  if (n < 0x10000) return [(major << 5) | 25, n >> 8, n & 0xff];
  return [(major << 5) | 26, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

/**
 * CBOR of integers, byte strings (Uint8Array), text strings, arrays and maps
 * (a Map, for integer keys, or a plain object, for text keys), with keys in
 * the order given: the callers give them in CTAP2's canonical order.
 */
export function cbor(value) {
  const out = [];
  const put = (v) => {
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v) || Math.abs(v) > 0xffffffff) throw new RangeError('cbor: only 32-bit integers');
      out.push(...(v >= 0 ? head(0, v) : head(1, -1 - v)));
    } else if (v instanceof Uint8Array) {
      out.push(...head(2, v.length));
      for (const b of v) out.push(b);
    } else if (typeof v === 'string') {
      const bytes = new TextEncoder().encode(v);
      out.push(...head(3, bytes.length));
      for (const b of bytes) out.push(b);
    } else if (Array.isArray(v)) {
      out.push(...head(4, v.length));
      v.forEach(put);
    } else if (v instanceof Map || (v !== null && typeof v === 'object')) {
      const entries = v instanceof Map ? [...v] : Object.entries(v);
      out.push(...head(5, entries.length));
      for (const [k, x] of entries) {
        put(k);
        put(x);
      }
    } else throw new TypeError(`cbor: cannot encode ${typeof v}`);
  };
  put(value);
  return new Uint8Array(out);
}

// ---------------------------------------------------------------- bytes

const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const u16 = (n) => new Uint8Array([n >> 8, n & 0xff]);
const u32 = (n) => new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
const sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));

/** base64url without padding, as WebAuthn's JSON encodings use. */
export function base64url(bytes) {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
export function fromBase64url(text) {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

// ---------------------------------------------------------------- the authenticator

/**
 * A credential of COSE algorithm `alg` (-48, -49 or -50): an ML-DSA key
 * pair made by crypto.subtle (the private key not extractable), with
 * register() and authenticate() making the responses a relying party
 * verifies. `signCount` starts at 0 and goes up by one per authentication.
 */
export async function createCredential(alg) {
  const name = COSE_ALGS[alg];
  if (!name) throw new RangeError(`createCredential: alg must be -48, -49 or -50`);
  const { publicKey, privateKey } = await crypto.subtle.generateKey(name, false, ['sign', 'verify']);
  const pub = new Uint8Array(await crypto.subtle.exportKey('raw-public', publicKey));
  const id = crypto.getRandomValues(new Uint8Array(16));
  const aaguid = new Uint8Array(16); // none: an authenticator that does not say what it is
  // COSE_Key (RFC 9053 / the COSE AKP draft): kty 7 (AKP), alg, pub (-1); canonical order 1, 3, -1.
  const coseKey = cbor(
    new Map([
      [1, 7],
      [3, alg],
      [-1, pub],
    ]),
  );
  let signCount = 0;
  // Pure ML-DSA with the empty context, as COSE says for AKP keys.
  const sign = async (bytes) => new Uint8Array(await crypto.subtle.sign({ name }, privateKey, bytes));

  const clientData = (type, challenge, origin) => new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    alg,
    name,
    id: base64url(id),
    publicKey: pub,
    coseKey,
    /**
     * The response to navigator.credentials.create({ publicKey: { challenge, rp: { id: rpId } } }) on
     * `origin`: attestation "none", or "packed" self attestation (the credential's own
     * signature over authenticatorData ‖ SHA-256(clientDataJSON)).
     */
    async register({ rpId, origin, challenge, attestation = 'none' }) {
      const clientDataJSON = clientData('webauthn.create', challenge, origin);
      const attestedCredentialData = concat(aaguid, u16(id.length), id, coseKey);
      const authData = concat(await sha256(new TextEncoder().encode(rpId)), [FLAG_UP | FLAG_UV | FLAG_AT], u32(signCount), attestedCredentialData);
      let fmt = 'none';
      let attStmt = {};
      if (attestation === 'packed') {
        fmt = 'packed';
        attStmt = { alg, sig: await sign(concat(authData, await sha256(clientDataJSON))) };
      } else if (attestation !== 'none') throw new RangeError('register: attestation must be "none" or "packed"');
      const attestationObject = cbor({ fmt, attStmt, authData });
      return {
        id: base64url(id),
        rawId: base64url(id),
        type: 'public-key',
        response: { clientDataJSON: base64url(clientDataJSON), attestationObject: base64url(attestationObject), transports: ['internal'] },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    /** The response to navigator.credentials.get({ publicKey: { challenge, rpId } }) on `origin`. */
    async authenticate({ rpId, origin, challenge }) {
      signCount += 1;
      const clientDataJSON = clientData('webauthn.get', challenge, origin);
      const authenticatorData = concat(await sha256(new TextEncoder().encode(rpId)), [FLAG_UP | FLAG_UV], u32(signCount));
      const signature = await sign(concat(authenticatorData, await sha256(clientDataJSON)));
      return {
        id: base64url(id),
        rawId: base64url(id),
        type: 'public-key',
        response: {
          clientDataJSON: base64url(clientDataJSON),
          authenticatorData: base64url(authenticatorData),
          signature: base64url(signature),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
