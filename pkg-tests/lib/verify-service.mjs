// The verify-service example (examples/verify-service) installed as a user would
// install a copy of it: the directory copied, its mldsa-simd dependency pointed at
// the packed tarball under test, `npm install --prefer-offline` (piscina and
// autocannon come from the npm cache where it has them, as devDependencies of
// the repository; the registry gives what `npm ci` did not cache, such as the
// package documents that resolving a version range needs).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

// No import of load.mjs: scripts/verify-service-load.mjs uses this module without a consumer folder.
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const exampleDir = path.join(repoRoot, 'examples', 'verify-service');

/** The tarball scripts/test.sh packed into the consumer folder `dir`, or undefined. */
export function packedTarball(dir) {
  const tgz = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => /^mldsa-simd-.*\.tgz$/.test(n)) : [];
  if (tgz.length > 1) throw new Error(`expected one mldsa-simd-*.tgz in ${dir}, found ${tgz.length}`);
  return tgz.length ? path.join(dir, tgz[0]) : undefined;
}

/** Copies the example into `parent/verify-service` and installs it (cache first) with the package `tarball`; returns that directory. */
export function installService(parent, tarball) {
  if (!tarball || !fs.existsSync(tarball))
    throw new Error(`no mldsa-simd tarball${tarball ? ` at ${tarball}` : ''} to install the verify-service example with`);
  const dir = path.join(parent, 'verify-service');
  fs.cpSync(exampleDir, dir, { recursive: true, filter: (src) => !/[/\\](node_modules|demo)$/.test(src) });
  const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  pj.dependencies['mldsa-simd'] = `file:${tarball}`;
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pj, null, 2) + '\n');
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

/**
 * Starts `node server.mjs ...args` in `dir`; resolves once it listens (or rejects with
 * its output if it exits first). `exited` resolves to [code, signal].
 */
export async function startServer(dir, args, { node = process.execPath, env } = {}) {
  const child = spawn(node, [path.join(dir, 'server.mjs'), '--port', '0', ...args], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = once(child, 'exit');
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    exited.then(([code, signal]) => reject(Object.assign(new Error(`server exited (${code ?? signal}) before listening:\n${out}`), { code, output: out })));
  });
  return { child, url, exited, output: () => out };
}

/** Runs server.mjs expecting it to refuse to start; resolves { code, output }. */
export async function refusedStart(dir, args, options) {
  try {
    const s = await startServer(dir, args, options);
    s.child.kill('SIGKILL');
    throw new Error(`the server started with ${args.join(' ')}`);
  } catch (e) {
    if (e.output === undefined) throw e;
    return { code: e.code, output: e.output };
  }
}

/**
 * One HTTP request with node:http (fetch hides a response that arrives while the
 * body is still being written). `body` is written whole unless `partial` gives the
 * bytes to send before waiting for the answer; with `expect: 100-continue` the body
 * waits for the server's 100. Resolves { status, headers, text, json, sawContinue }.
 */
export function request(url, { method = 'POST', path: p = '/verify', headers = {}, body, partial } = {}) {
  return new Promise((resolve, reject) => {
    let responded = false;
    let sawContinue = false;
    const { hostname, port } = new URL(url);
    // node:http sends a GET body without a length (so as the next request) unless told.
    if (body !== undefined && !Object.keys(headers).some((h) => /^(content-length|transfer-encoding)$/i.test(h)))
      headers = { ...headers, 'content-length': Buffer.byteLength(body) };
    const req = http.request({ host: hostname, port, path: p, method, headers, agent: false }, (res) => {
      responded = true;
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode, headers: res.headers, text, json, sawContinue });
      });
      res.on('error', reject);
    });
    // Writing on after an early answer (413) can fail with EPIPE; the answer counts.
    req.on('error', (e) => (responded ? undefined : reject(e)));
    req.on('continue', () => (sawContinue = true));
    if (partial !== undefined) req.write(partial);
    else if (/100-continue/i.test(headers.expect ?? '')) req.on('continue', () => req.end(body));
    else req.end(body);
  });
}
