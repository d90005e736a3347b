// Bytes as text for the demo page: hex for display (and pasted keys and
// signatures), standard base64 (RFC 4648 §4) for signatures. The decoder is strict so that a typo in a pasted
// signature is reported as such instead of becoming different bytes: only
// the base64 alphabet, padding only at the end, whitespace (line breaks of
// copied text) ignored. A few lines of our own, as browsers without
// Uint8Array.fromBase64 are still common.

export function toHex(bytes) {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** Decodes hex digits (an even number of them, checked by the caller). */
export function fromHex(hex) {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function toBase64(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

const ALPHABET = /^[A-Za-z0-9+/]$/;

/**
 * Decodes standard base64; `what` names the input in error messages.
 * @throws TypeError if `text` is not a string; Error naming `what` and the first problem.
 */
export function fromBase64(text, what = 'base64') {
  if (typeof text !== 'string') throw new TypeError(`${what}: expected a string, got ${typeof text}`);
  const s = text.replace(/[\t\n\f\r ]+/g, '');
  if (s === '') throw new Error(`${what}: empty`);
  const pad = s.length - s.replace(/=+$/, '').length;
  const body = s.slice(0, s.length - pad);
  for (let i = 0; i < body.length; i++) {
    if (!ALPHABET.test(body[i])) {
      const c = body[i] === '=' ? 'padding "=" before the end' : `the character ${JSON.stringify(body[i])}`;
      throw new Error(`${what}: not base64: ${c} at position ${i + 1}`);
    }
  }
  if (pad > 2 || body.length % 4 === 1 || (pad > 0 && (body.length + pad) % 4 !== 0)) {
    throw new Error(`${what}: not base64: ${body.length} characters${pad ? ` and ${pad} "="` : ''} is not a whole number of bytes (truncated?)`);
  }
  const bin = atob(body);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
