#!/usr/bin/env node
// A tiny static server for the demo and benchmark pages, on loopback only.
//
//   node www/serve.mjs [--port 8080] [--pkg DIR]
//   then open http://127.0.0.1:8080/www/index.html  (the demo: keys, sign, verify)
//          or http://127.0.0.1:8080/www/bench.html  (the benchmark; add ?quick for a short run)
//
// It serves the repository root (so the page reaches pkg/, bench-js/ and
// node_modules/ by plain URLs; www/bench.html maps the bare specifiers with an
// import map), plus two mounts:
//   /pkg/         the package under test: <repo>/pkg (npm run build), or --pkg DIR
//                 (the tests use the copy installed from the packed tarball)
//   /cctv-bench/  ../shared/vectors/cctv-bench, the signing message sets, when present
// Files are sent with their MIME type (application/wasm for .wasm, text/javascript
// for modules), no caching (a rebuilt pkg/ is picked up on reload), and the COOP/COEP
// headers that make the page cross-origin isolated, for a fine-grained performance.now().
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
};

/** Path under `base` for a URL path, or null when it would leave `base`. */
function within(base, rel) {
  const file = path.resolve(base, '.' + path.posix.normalize('/' + rel));
  return file === base || file.startsWith(base + path.sep) ? file : null;
}

/**
 * Starts the server; resolves to the http.Server (port 0 = any free port).
 * options: { root, pkgDir, cctvDir, port, host }
 */
export function startServer({
  root = repoRoot,
  pkgDir = path.join(root, 'pkg'),
  cctvDir = path.resolve(root, '..', 'shared', 'vectors', 'cctv-bench'),
  port = 0,
  host = '127.0.0.1',
} = {}) {
  const mounts = [
    ['/pkg/', path.resolve(pkgDir)],
    ['/cctv-bench/', path.resolve(cctvDir)],
    ['/', path.resolve(root)],
  ];
  const server = http.createServer((req, res) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    if (pathname === '/' || pathname === '/www' || pathname === '/www/') {
      res.writeHead(302, { location: '/www/index.html' }).end();
      return;
    }
    const [prefix, base] = mounts.find(([p]) => pathname.startsWith(p));
    const file = within(base, pathname.slice(prefix.length));
    let stat = null;
    try {
      stat = file && fs.statSync(file);
    } catch {}
    if (!stat || !stat.isFile() || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': MIME[path.extname(file)] || 'application/octet-stream',
      'content-length': stat.size,
      'cache-control': 'no-store',
      // Cross-origin isolation: browsers then give performance.now() its fine resolution.
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opts = { port: 8080 };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--port') opts.port = Number(args[++i]);
    else if (args[i] === '--pkg') opts.pkgDir = path.resolve(args[++i]);
    else {
      console.error(`serve: unknown argument ${args[i]}\nusage: node www/serve.mjs [--port 8080] [--pkg DIR]`);
      process.exit(2);
    }
  }
  const server = await startServer(opts);
  const { port } = server.address();
  console.log(`serve: demo      http://127.0.0.1:${port}/www/index.html`);
  console.log(`serve: benchmark http://127.0.0.1:${port}/www/bench.html  (quick run: ?quick; Ctrl-C stops)`);
}
