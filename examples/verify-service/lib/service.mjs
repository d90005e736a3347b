// The HTTP layer, shared by both backends: routing, bounded body reading, limits,
// timeouts and graceful shutdown. A backend is
//   { name, threads, keys: Map<kid, { alg, signatureBytes }>, verify(items, { signal }) → Promise<boolean[]>, close() }.
import http from 'node:http';
import { HttpError, parseBinaryBody, parseContextParam, parseJsonBody, checkKid } from './requests.mjs';

export const DEFAULTS = Object.freeze({
  maxBody: 1024 * 1024, // bytes
  maxBatch: 256, // items per request
  maxPending: 4096, // items accepted and not yet answered, over all requests
  bodyTimeout: 10_000, // ms to receive a body once its headers are in
  verifyTimeout: 5_000, // ms for the verifications of one request
  headersTimeout: 10_000, // ms (node:http)
  keepAliveTimeout: 5_000, // ms (node:http)
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
  let draining = false;

  const server = http.createServer({
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.bodyTimeout + limits.headersTimeout,
    keepAliveTimeout: limits.keepAliveTimeout,
  });

  const onRequest = (req, res) => {
    handle(req, res).catch((e) => {
      // Only a bug gets here: the handlers turn every input problem into an HttpError.
      log(`verify-service: internal error on ${req.method} ${String(req.url).slice(0, 200)}: ${e?.stack ?? e}`);
      send(res, 500, { error: 'internal error' });
    });
  };
  server.on('request', onRequest);
  // Expect: 100-continue (curl sends it for large bodies): a body declared too large
  // gets its 413 without being invited first.
  server.on('checkContinue', (req, res) => {
    if (!(Number(req.headers['content-length']) > limits.maxBody)) res.writeContinue();
    onRequest(req, res);
  });
  server.on('clientError', (err, socket) => {
    // Unparsable HTTP (node:http's own parser): answer 400 (or 408/413 for its limits) and close.
    if (!socket.writable || err.code === 'ECONNRESET') return socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify({ error: `bad HTTP request (${err.code ?? 'parse error'})` });
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });

  async function handle(req, res) {
    try {
      await route(req, res);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      if (e.status === 413 || e.status === 408) res.shouldKeepAlive = false; // the rest of the body is not read
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
      if (url.pathname === '/healthz')
        return send(res, 200, { status: draining ? 'draining' : 'ok', backend: backend.name, keys: backend.keys.size, requests: inFlight, pending });
      return send(res, 200, [...backend.keys].map(([kid, k]) => ({ kid, alg: k.alg })));
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
      parsed = parseJsonBody(await readBody(req), { keys: backend.keys, maxBatch: limits.maxBatch });
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
      const body = await readBody(req);
      parsed = parseBinaryBody(body, { kid, context, batch: parts.length === 4, keys: backend.keys, maxBatch: limits.maxBatch });
    }
    const results = await verify(parsed.items);
    send(res, 200, parsed.batch ? results.map((valid) => ({ valid })) : { valid: results[0] });
  }

  async function verify(items) {
    if (pending + items.length > limits.maxPending)
      throw new HttpError(503, `overloaded: ${pending} verifications pending`, { 'retry-after': '1' });
    pending += items.length;
    const abort = new AbortController();
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new HttpError(503, `verification took more than ${limits.verifyTimeout} ms`, { 'retry-after': '1' }));
      }, limits.verifyTimeout);
    });
    const work = backend.verify(items, { signal: abort.signal });
    work.catch(() => {}); // after a timeout its rejection (the abort) has no reader
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
      pending -= items.length;
    }
  }

  function readBody(req) {
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limits.maxBody)
      return Promise.reject(new HttpError(413, `body: ${declared} bytes, at most ${limits.maxBody}`));
    return new Promise((resolve, reject) => {
      const chunks = [];
      let size = 0;
      const done = (err, value) => {
        clearTimeout(timer);
        req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onError);
        if (err) {
          req.resume(); // let node:http discard the rest while the error is answered
          reject(err);
        } else resolve(value);
      };
      const onData = (chunk) => {
        size += chunk.length;
        if (size > limits.maxBody) done(new HttpError(413, `body: more than ${limits.maxBody} bytes`));
        else chunks.push(chunk);
      };
      const onEnd = () => done(null, Buffer.concat(chunks, size));
      // The client went away: there is nobody to answer; the 400 is never seen.
      const onError = () => done(new HttpError(400, 'body: connection closed before its end'));
      const timer = setTimeout(() => done(new HttpError(408, `body: not received within ${limits.bodyTimeout} ms`)), limits.bodyTimeout);
      req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onError);
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
