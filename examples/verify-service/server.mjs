#!/usr/bin/env node
// ML-DSA signature verification over HTTP for a fixed set of trusted public keys.
//   node server.mjs --keys DIR [--jwks FILE] [--backend mldsa-simd|node-crypto] [--port 8080] ...
// See README.md for the API. Exits 1 when a key source is refused, 0 after a graceful stop.
import { parseArgs } from 'node:util';
import { readKeySources, KeyLoadError } from './lib/keys.mjs';
import { createService, DEFAULTS } from './lib/service.mjs';

const USAGE = `usage: node server.mjs (--keys DIR | --jwks FILE)... [options]
  --keys DIR            trusted public keys, one PEM file per key; kid = file name without .pem
  --jwks FILE           trusted public keys as a JWK Set of ML-DSA keys (RFC 9964), each with a kid
  --backend NAME        mldsa-simd (default; piscina worker pool) or node-crypto (Node 24+)
  --threads N           worker threads for mldsa-simd (default: available cores)
  --host HOST           default 127.0.0.1
  --port N              default 8080; 0 picks a free port
  --max-body BYTES      default ${DEFAULTS.maxBody}
  --max-batch N         items per request, default ${DEFAULTS.maxBatch}
  --max-pending N       verifications in flight over all requests before 503, default ${DEFAULTS.maxPending}
  --max-reading N       request bodies being received at once before 503, default ${DEFAULTS.maxReading}
  --max-connections N   open connections; more are closed at once, default ${DEFAULTS.maxConnections}
  --headers-timeout MS  request line and headers, default ${DEFAULTS.headersTimeout}
  --body-timeout MS     body, from the end of its headers, default ${DEFAULTS.bodyTimeout}
  --verify-timeout MS   verifications of one request, default ${DEFAULTS.verifyTimeout}
  --send-timeout MS     an answer the client does not take: connection closed, default ${DEFAULTS.sendTimeout}
  --keep-alive-timeout MS  idle connection between requests, default ${DEFAULTS.keepAliveTimeout}
  --shutdown-grace MS   default ${DEFAULTS.shutdownGrace}`;

const OPTIONS = {
  keys: { type: 'string' },
  jwks: { type: 'string' },
  backend: { type: 'string', default: 'mldsa-simd' },
  threads: { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '8080' },
  'max-body': { type: 'string' },
  'max-batch': { type: 'string' },
  'max-pending': { type: 'string' },
  'max-reading': { type: 'string' },
  'max-connections': { type: 'string' },
  'headers-timeout': { type: 'string' },
  'body-timeout': { type: 'string' },
  'verify-timeout': { type: 'string' },
  'send-timeout': { type: 'string' },
  'keep-alive-timeout': { type: 'string' },
  'shutdown-grace': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};
const BACKENDS = {
  'mldsa-simd': () => import('./lib/backend-mldsa-simd.mjs'),
  'node-crypto': () => import('./lib/backend-node-crypto.mjs'),
};

function fail(message) {
  console.error(`verify-service: ${message}`);
  process.exit(1);
}

function integer(values, name, min) {
  const text = values[name];
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) fail(`--${name}: expected an integer ≥ ${min}, got ${JSON.stringify(text)}\n${USAGE}`);
  return n;
}

let values;
try {
  ({ values } = parseArgs({ options: OPTIONS, strict: true }));
} catch (e) {
  fail(`${e.message}\n${USAGE}`);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!Object.hasOwn(BACKENDS, values.backend)) fail(`--backend: expected ${Object.keys(BACKENDS).join(' or ')}, got ${JSON.stringify(values.backend)}`);
const port = integer(values, 'port', 0);
const limits = {
  maxBody: integer(values, 'max-body', 1),
  maxBatch: integer(values, 'max-batch', 1),
  maxPending: integer(values, 'max-pending', 1),
  maxReading: integer(values, 'max-reading', 1),
  maxConnections: integer(values, 'max-connections', 1),
  headersTimeout: integer(values, 'headers-timeout', 1),
  bodyTimeout: integer(values, 'body-timeout', 1),
  verifyTimeout: integer(values, 'verify-timeout', 1),
  sendTimeout: integer(values, 'send-timeout', 1),
  keepAliveTimeout: integer(values, 'keep-alive-timeout', 1),
  shutdownGrace: integer(values, 'shutdown-grace', 0),
};
for (const k of Object.keys(limits)) if (limits[k] === undefined) delete limits[k];

let backend;
try {
  const sources = readKeySources({ keysDir: values.keys, jwksFile: values.jwks });
  const { createBackend } = await BACKENDS[values.backend]();
  backend = await createBackend(sources, { threads: integer(values, 'threads', 1) });
} catch (e) {
  if (e instanceof KeyLoadError) fail(e.message);
  throw e;
}

const service = createService(backend, limits);
service.server.on('error', (e) => fail(`cannot listen on ${values.host}:${port}: ${e.message}`));
service.server.listen(port, values.host, () => {
  const { address, port: bound } = service.server.address();
  const host = address.includes(':') ? `[${address}]` : address;
  console.log(`verify-service: listening on http://${host}:${bound} (backend ${backend.name}, ${backend.threads} threads, ${backend.keys.size} keys)`);
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, async () => {
    const closing = service.close(); // stops listening before it returns
    console.log(`verify-service: ${signal}, not accepting connections, finishing requests in flight`);
    const clean = await closing;
    console.log(`verify-service: stopped${clean ? '' : ' (connections still open after the grace period were cut)'}`);
    process.exit(clean ? 0 : 1);
  });
}
