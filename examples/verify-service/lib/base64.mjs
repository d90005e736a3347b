// Strict base64 decoding. Buffer.from(text, 'base64') skips characters it does
// not know and accepts both alphabets, so a typo would verify other bytes than the
// client meant; these check the text first and say what is wrong.

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?$/;

/** Standard base64 with padding (RFC 4648 §4), as `base64`, btoa and Buffer write it. */
export function decodeBase64(text, name) {
  if (typeof text !== 'string') throw new TypeError(`${name}: expected a base64 string, got ${describe(text)}`);
  if (!BASE64.test(text)) throw new RangeError(`${name}: not base64 (RFC 4648 §4, with padding)`);
  return Buffer.from(text, 'base64');
}

/** base64url without padding (RFC 4648 §5), for values in a URL. */
export function decodeBase64url(text, name) {
  if (!BASE64URL.test(text)) throw new RangeError(`${name}: not base64url (RFC 4648 §5, no padding)`);
  return Buffer.from(text, 'base64url');
}

export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
