// Request bodies → verification items { kid, msg, sig, context }, or an HttpError
// naming what is wrong. Everything here is synchronous and bounded by the body size.
import { decodeBase64, decodeBase64url, describe } from './base64.mjs';

export const MAX_CONTEXT = 255; // FIPS 204: ctx is at most 255 bytes

/** An error with the HTTP status to answer; `message` goes to the client as {error}. */
export class HttpError extends Error {
  constructor(status, message, headers = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

const FIELDS = new Set(['kid', 'msg', 'sig', 'context']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON body: one item {kid, msg, sig, context?} (base64 strings) or an array of them.
 * @returns {{ batch: boolean, items: Array }}
 */
export function parseJsonBody(body, { keys, maxBatch }) {
  let text, doc;
  try {
    text = utf8.decode(body);
  } catch {
    throw new HttpError(400, 'body: not UTF-8');
  }
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, `body: not JSON (${e.message})`);
  }
  if (Array.isArray(doc)) {
    if (doc.length === 0) throw new HttpError(400, 'body: empty batch');
    if (doc.length > maxBatch) throw new HttpError(413, `body: batch of ${doc.length} items, at most ${maxBatch}`);
    return { batch: true, items: doc.map((item, i) => jsonItem(item, `[${i}]`, keys)) };
  }
  return { batch: false, items: [jsonItem(doc, 'body', keys)] };
}

function jsonItem(item, where, keys) {
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    throw new HttpError(400, `${where}: expected an object {kid, msg, sig, context?}, got ${describe(item)}`);
  for (const field of Object.keys(item)) if (!FIELDS.has(field)) throw new HttpError(400, `${where}: unknown field ${JSON.stringify(field.slice(0, 64))}`);
  if (typeof item.kid !== 'string') throw new HttpError(400, `${where}.kid: expected a string, got ${describe(item.kid)}`);
  const kid = checkKid(item.kid, keys, `${where}.kid`);
  const msg = field(item, 'msg', where, decodeBase64);
  const sig = field(item, 'sig', where, decodeBase64);
  const context = item.context === undefined ? undefined : field(item, 'context', where, decodeBase64);
  checkContext(context, `${where}.context`);
  return { kid, msg, sig, context };
}

function field(item, name, where, decode) {
  if (item[name] === undefined) throw new HttpError(400, `${where}.${name}: missing`);
  try {
    return decode(item[name], `${where}.${name}`);
  } catch (e) {
    throw new HttpError(400, e.message);
  }
}

/**
 * Binary body for one key: records of a 4-byte big-endian message length, the
 * message, then the signature (the key's set's length: 2420, 3309 or 4627 bytes).
 * `batch: false` wants exactly one record.
 */
export function parseBinaryBody(body, { kid, context, batch, keys, maxBatch }) {
  const { signatureBytes } = keys.get(kid);
  const items = [];
  let at = 0;
  if (body.length === 0) throw new HttpError(400, 'body: empty (expected records: u32 BE message length, message, signature)');
  while (at < body.length) {
    const where = batch ? `record ${items.length}` : 'body';
    if (!batch && items.length === 1) throw new HttpError(400, `body: ${body.length - at} bytes after the record (a batch goes to /verify/{kid}/batch)`);
    if (items.length === maxBatch) throw new HttpError(413, `body: more than ${maxBatch} records`);
    if (body.length - at < 4) throw new HttpError(400, `${where}: truncated in the message length (${body.length - at} of 4 bytes)`);
    const msgLen = body.readUInt32BE(at);
    at += 4;
    if (msgLen > body.length - at) throw new HttpError(400, `${where}: message length ${msgLen}, but only ${body.length - at} bytes follow`);
    const msg = body.subarray(at, at + msgLen);
    at += msgLen;
    if (body.length - at < signatureBytes)
      throw new HttpError(400, `${where}: signature truncated (${body.length - at} of ${signatureBytes} bytes for ${keys.get(kid).alg})`);
    const sig = body.subarray(at, at + signatureBytes);
    at += signatureBytes;
    items.push({ kid, msg, sig, context });
  }
  return { batch, items };
}

/** The binary route's ?context=, base64url. */
export function parseContextParam(value) {
  if (value === null) return undefined;
  let context;
  try {
    context = decodeBase64url(value, 'context');
  } catch (e) {
    throw new HttpError(400, e.message);
  }
  checkContext(context, 'context');
  return context;
}

export function checkKid(kid, keys, where) {
  if (!keys.has(kid)) throw new HttpError(404, `${where}: unknown key ${JSON.stringify(kid.slice(0, 256))}`);
  return kid;
}

function checkContext(context, where) {
  if (context && context.length > MAX_CONTEXT) throw new HttpError(400, `${where}: ${context.length} bytes, at most ${MAX_CONTEXT}`);
}
