// A loopback HTTP server for the browser tests: `/` is the page's HTML, other
// paths are files under `root`, or under one of `mounts` (URL prefix → folder).
// `headers` go with every response (e.g. a Content-Security-Policy).
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';

export const MIME = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.html': 'text/html',
  '.map': 'application/json',
  '.ts': 'text/plain',
};

/** Serves `html` at / and files from `root` (and `mounts`) on 127.0.0.1; resolves to the server. */
export function serve(root, html, mounts = {}, headers = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname === '/' || url.pathname === '/index.html') {
      res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
      return;
    }
    const prefix = Object.keys(mounts).find((p) => url.pathname.startsWith(p));
    const base = prefix ? mounts[prefix] : root;
    const rel = prefix ? url.pathname.slice(prefix.length - 1) : url.pathname;
    const file = path.resolve(base, '.' + decodeURIComponent(rel));
    if (!file.startsWith(base + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, headers);
      res.end('not found');
      return;
    }
    res.writeHead(200, { ...headers, 'content-type': MIME[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
