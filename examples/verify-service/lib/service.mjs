// The HTTP layer, shared by both backends: routing, bounded body reading, limits,
// timeouts and graceful shutdown. A backend is
//   { name, threads, keys: Map<kid, { alg, signatureBytes }>, verify(items, { signal }) → Promise<boolean[]>,
//     close(), stats?() → object shown by /healthz as "pool" }.
import http from 'node:http';
import { HttpError, parseBinaryBody, parseContextParam, parseJsonBody, checkKid } from './requests.mjs';

export const DEFAULTS = Object.freeze({
  maxBody: 1024 * 1024, // bytes
  maxBatch: 256, // items per request
  maxPending: 4096, // items accepted and not yet answered, over all requests
  maxReading: 64, // request bodies being received at once (so at most maxReading × maxBody bytes held)
  maxConnections: 1024, // open TCP connections; more are closed at once (node:http's server.maxConnections)
  headersTimeout: 10_000, // ms for the request line and headers, from connecting or the request's first byte (node:http)
  bodyTimeout: 10_000, // ms to receive a body once its headers are in
  verifyTimeout: 5_000, // ms for the verifications of one request
  sendTimeout: 10_000, // ms for an answer to leave: from res.end() until the socket's buffers have taken it
  keepAliveTimeout: 5_000, // ms an idle connection is kept between requests (node:http closes it 1 s later)
  shutdownGrace: 10_000, // ms for in-flight requests after SIGTERM before connections are cut
});

/**
 * @param {object} backend
 * @param {Partial<typeof DEFAULTS> & { log?: (line: string) => void }} options
 */
export function createService(backend, options = {}) {
  const limits = { ...DEFAULTS, ...options };
  const log = options.log ?? ((line) => console.error(line));
  let pending = 0; // verification items
  let inFlight = 0; // /verify requests being read or verified
  let reading = 0; // bodies being received
  let readingBytes = 0; // bytes of them received so far
  let draining = false;

  const server = http.createServer({
    headersTimeout: limits.headersTimeout,
    // Also bounds a body that is not read (a request refused before its body), which node:http discards.
    requestTimeout: limits.headersTimeout + limits.bodyTimeout,
    keepAliveTimeout: limits.keepAliveTimeout,
    // node:http enforces the two limits above only when it checks its connections, every 30 s
    // unless told: a 10 s limit would be up to 40 s. Checked every tenth of headersTimeout (at most
    // every second), each limit holds to within 10 % (at most 1 s).
    connectionsCheckingInterval: Math.min(1000, Math.max(10, Math.round(limits.headersTimeout / 10))),
  });
  server.maxConnections = limits.maxConnections;

  const onRequest = (req, res) => {
    handle(req, res).catch((e) => {
      // Only a bug gets here: the handlers turn every input problem into an HttpError.
      log(`verify-service: internal error on ${req.method} ${String(req.url).slice(0, 200)}: ${e?.stack ?? e}`);
      send(res, 500, { error: 'internal error' });
    });
  };
  server.on('request', onRequest);
  // Expect: 100-continue (curl sends it for large bodies): the body is invited only
  // once readBody takes it, so a refusal (413, 503, 404, ...) comes without it.
  server.on('checkContinue', (req, res) => {
    req[INVITE] = true;
    onRequest(req, res);
  });
  server.on('clientError', (err, socket) => {
    // Unparsable HTTP (node:http's own parser), or headers / a whole request not in time: answer
    // 400 (431, 408) unless another answer is being written on this socket, then destroy the socket,
    // as node:http's own handler does. end() alone would leave it open until the client closes its
    // side, which a client that does not read never does.
    if (socket.writable && err.code !== 'ECONNRESET' && !socket._httpMessage?.headersSent) {
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const body = JSON.stringify({ error: `bad HTTP request (${err.code ?? 'parse error'})` });
      socket.write(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  });

  async function handle(req, res) {
    try {
      await route(req, res);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      if (e.status === 413 || e.status === 408 || e.bodyUnread) res.shouldKeepAlive = false; // the rest of the body is not read
      send(res, e.status, { error: e.message }, e.headers);
    }
  }

  async function route(req, res) {
    let url;
    try {
      url = new URL(req.url, 'http://service.invalid');
    } catch {
      throw new HttpError(400, 'url: not a valid request target');
    }
    const parts = url.pathname.split('/'); // ['', 'verify', kid?, 'batch'?]
    if (url.pathname === '/healthz' || url.pathname === '/keys') {
      onlyMethod(req, 'GET');
      if (url.pathname === '/healthz') {
        const connections = await new Promise((resolve) => server.getConnections((err, n) => resolve(err ? null : n)));
        const pool = backend.stats?.();
        return send(res, 200, {
          status: draining ? 'draining' : 'ok',
          backend: backend.name,
          keys: backend.keys.size,
          requests: inFlight,
          pending,
          reading,
          readingBytes,
          connections,
          ...(pool ? { pool } : {}),
        });
      }
      return send(
        res,
        200,
        [...backend.keys].map(([kid, k]) => ({ kid, alg: k.alg })),
      );
    }
    if (parts[1] !== 'verify' || parts.length > 4 || (parts.length === 4 && parts[3] !== 'batch') || parts[2] === '')
      throw new HttpError(404, `url: no route ${JSON.stringify(url.pathname.slice(0, 200))} (POST /verify, POST /verify/{kid}, POST /verify/{kid}/batch)`);
    onlyMethod(req, 'POST');
    inFlight++;
    try {
      await verifyRequest(req, res, parts, url);
    } finally {
      inFlight--;
    }
  }

  async function verifyRequest(req, res, parts, url) {
    let parsed;
    if (parts.length === 2) {
      mediaType(req, 'application/json', 'POST /verify');
      parsed = parseJsonBody(await readBody(req, res), { keys: backend.keys, maxBatch: limits.maxBatch });
    } else {
      let kid;
      try {
        kid = decodeURIComponent(parts[2]);
      } catch {
        throw new HttpError(400, 'url: kid is not valid percent-encoding');
      }
      checkKid(kid, backend.keys, 'url: kid');
      mediaType(req, 'application/octet-stream', `POST ${parts.length === 4 ? '/verify/{kid}/batch' : '/verify/{kid}'}`);
      const context = parseContextParam(url.searchParams.get('context'));
      const body = await readBody(req, res);
      parsed = parseBinaryBody(body, { kid, context, batch: parts.length === 4, keys: backend.keys, maxBatch: limits.maxBatch });
    }
    const results = await verify(parsed.items);
    send(res, 200, parsed.batch ? results.map((valid) => ({ valid })) : { valid: results[0] });
  }

  // 503 is load, never the client's input: the same request may succeed later.
  const overloaded = (message) => new HttpError(503, `overloaded: ${message}`, { 'retry-after': '1' });

  async function verify(items) {
    if (pending + items.length > limits.maxPending) throw overloaded(`${pending} verifications pending`);
    pending += items.length;
    const abort = new AbortController();
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => {
        // First: the backend may reject `work` with the abort right away, and the race must see the 503.
        reject(overloaded(`verification took more than ${limits.verifyTimeout} ms`));
        abort.abort();
      }, limits.verifyTimeout);
    });
    // On abort the backend drops what has not started; what has finishes unobserved.
    const work = backend.verify(items, { signal: abort.signal });
    work.catch(() => {}); // after a timeout its rejection (the abort) has no reader
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
      pending -= items.length;
    }
  }

  /**
   * The body, at most maxBody bytes within bodyTimeout. Refused before a byte is read
   * (and before a 100 Continue) when maxReading bodies are already being received or
   * maxPending verifications wait: N slow clients hold at most maxReading × maxBody.
   */
  function readBody(req, res) {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limits.maxBody)
      return Promise.reject(new HttpError(413, `body: ${declared} bytes, at most ${limits.maxBody}`));
    const refusal =
      reading >= limits.maxReading
        ? overloaded(`${reading} request bodies being received`)
        : pending >= limits.maxPending
          ? overloaded(`${pending} verifications pending`)
          : null;
    if (refusal) {
      refusal.bodyUnread = true;
      return Promise.reject(refusal);
    }
    reading++;
    if (req[INVITE]) res.writeContinue();
    return new Promise((resolve, reject) => {
      const chunks = [];
      let size = 0;
      let settled = false;
      const done = (err, value) => {
        if (settled) return;
        settled = true;
        reading--;
        readingBytes -= size;
        clearTimeout(timer);
        req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onError).off('close', onError);
        if (err) {
          req.resume(); // let node:http discard the rest while the error is answered
          reject(err);
        } else resolve(value);
      };
      const onData = (chunk) => {
        size += chunk.length;
        readingBytes += chunk.length;
        if (size > limits.maxBody) done(new HttpError(413, `body: more than ${limits.maxBody} bytes`));
        else chunks.push(chunk);
      };
      const onEnd = () => done(null, Buffer.concat(chunks, size));
      // The client went away: there is nobody to answer; the 400 is never seen.
      const onError = () => done(new HttpError(400, 'body: connection closed before its end'));
      const timer = setTimeout(() => done(new HttpError(408, `body: not received within ${limits.bodyTimeout} ms`)), limits.bodyTimeout);
      req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onError).on('close', onError);
    });
  }

  function send(res, status, value, headers = {}) {
    if (res.headersSent || res.destroyed) return;
    const body = JSON.stringify(value);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      ...(draining || !res.shouldKeepAlive ? { connection: 'close' } : {}),
      ...headers,
    });
    // A client that sends requests and does not read the answers fills the socket's buffers;
    // node:http then stops reading from it and runs no timer, so nothing else would close it.
    const timer = setTimeout(() => res.req.socket.destroy(), limits.sendTimeout);
    res.once('finish', () => clearTimeout(timer)).once('close', () => clearTimeout(timer));
    res.end(body);
  }

  /**
   * Graceful stop: no new connections, idle keep-alive connections closed, the
   * requests in flight answered (with Connection: close), then the backend closed.
   * Connections still open after shutdownGrace are cut; resolves true if none had to be.
   */
  async function close() {
    if (draining) return closing;
    draining = true;
    closing = (async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeIdleConnections();
      let cut = false;
      const grace = setTimeout(() => {
        cut = true;
        server.closeAllConnections();
      }, limits.shutdownGrace);
      await closed;
      clearTimeout(grace);
      await backend.close();
      return !cut;
    })();
    return closing;
  }
  let closing;

  return { server, close, limits };
}

const INVITE = Symbol('expects 100 Continue');

function onlyMethod(req, method) {
  if (req.method !== method) throw new HttpError(405, `method: ${req.method.slice(0, 32)} not allowed here, use ${method}`, { allow: method });
}

function mediaType(req, expected, route) {
  const header = req.headers['content-type'];
  const [type, ...params] = (header ?? '').split(';').map((s) => s.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith('charset='));
  if (type !== expected || (charset && charset !== 'charset=utf-8'))
    throw new HttpError(415, `content-type: ${route} takes ${expected}${header === undefined ? '' : `, not ${JSON.stringify(header.slice(0, 100))}`}`);
}
