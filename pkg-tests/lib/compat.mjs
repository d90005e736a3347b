// Shared parts of the compatibility matrix (pkg-tests/compat-*.test.mjs): where
// the tools are (compat/node_modules, installed by `scripts/setup.sh --compat`),
// fresh projects with a copy of the installed package, child processes with a
// time limit, the probe's expected answers, and the results file each test file
// writes (target/compat/<group>.json, read by scripts/compat-table.mjs).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import { ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';
import { repoRoot, installedPackageDir, PKG_NAME } from './load.mjs';
import { renderRows, readmeRows } from '../../scripts/compat-table.mjs';

export const compatDir = path.join(repoRoot, 'compat');
export const toolsDir = path.join(compatDir, 'node_modules');
export const workDir = path.join(repoRoot, 'target', 'compat');
export const probeFile = path.join(repoRoot, 'pkg-tests', 'compat', 'probe.js');

/** Path of a file inside compat/node_modules; fails the calling test when setup has not installed it. */
export function tool(rel) {
  const p = path.join(toolsDir, rel);
  if (!fs.existsSync(p)) throw new Error(`${p} is missing: run \`bash scripts/setup.sh --compat\` (npm test does)`);
  return p;
}

/** Version field of a package in compat/node_modules. */
export function toolVersion(name) {
  return JSON.parse(fs.readFileSync(tool(`${name}/package.json`), 'utf8')).version;
}

/** A fresh, empty directory target/compat/<name>. */
export function freshDir(name) {
  const dir = path.join(workDir, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A project folder as a user has it: package.json (with `extra` merged in) and
 * node_modules/mldsa-simd, a copy of the package installed from the tarball.
 */
export function project(name, extra = {}) {
  const dir = freshDir(name);
  const pkg = installedPackageDir();
  fs.cpSync(pkg, path.join(dir, 'node_modules', PKG_NAME), { recursive: true });
  const version = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version;
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      { name: `compat-${name.replace(/[^a-z0-9-]/gi, '-')}`, version: '0.0.0', private: true, dependencies: { [PKG_NAME]: version }, ...extra },
      null,
      2,
    ) + '\n',
  );
  return dir;
}

/**
 * Runs a command; resolves to { code, signal, stdout, stderr } (never rejects for
 * a non-zero exit). Killed after `timeoutMs`, then reported with signal set.
 */
export function run(cmd, args, { cwd, env, timeoutMs = 60_000, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    if (input !== undefined) {
      child.stdin.on('error', () => {}); // a child that exits without reading its input
      child.stdin.end(input);
    }
  });
}

/** The last line of `text` that starts with `marker`, parsed as JSON (undefined if none). */
export function lastJson(text, marker = 'COMPAT ') {
  const line = text
    .split('\n')
    .filter((l) => l.startsWith(marker))
    .pop();
  return line === undefined ? undefined : JSON.parse(line.slice(marker.length));
}

const sha = (b) => crypto.createHash('sha256').update(b).digest('hex');
const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
const noble = ml_dsa65.keygen(seed);
/** What compat/probe.js must answer, from @noble/post-quantum. */
export const EXPECTED = {
  publicKey: sha(noble.publicKey),
  deterministic: sha(ml_dsa65.sign(new TextEncoder().encode('mldsa-simd compat'), noble.secretKey, { extraEntropy: false })),
  signatureLength: 3309,
  verify: true,
  wrongMessage: false,
};
const EXPECTED_SUBTLE = { subtleSignatureLength: 3309, subtleVerify: true, subtleWrongMessage: false };

/**
 * What is wrong with a probe's answer (an empty list when nothing is).
 * `subtle`: the WebCrypto part must be there; `ours`: its keys must be the package's.
 */
export function judge(r, { subtle = true, ours = false } = {}) {
  if (!r || typeof r !== 'object') return [`no result (${JSON.stringify(r)})`];
  if (r.error) return [`threw: ${r.error}`];
  const want = { ...EXPECTED, ...(subtle ? EXPECTED_SUBTLE : {}), ...(ours ? { subtleKeyIsRight: true } : {}) };
  return Object.entries(want)
    .filter(([k, v]) => r[k] !== v)
    .map(([k, v]) => `${k}: got ${JSON.stringify(r[k])}, want ${JSON.stringify(v)}`);
}

/**
 * The results of one test file. add() records a cell: { env, version, exact,
 * cell, ok, error?, ...figures }; save() writes target/compat/<group>.json.
 */
export class Results {
  constructor(group) {
    this.group = group;
    this.cells = [];
  }
  add(cell) {
    this.cells.push(cell);
    this.save();
    return cell;
  }
  save() {
    fs.mkdirSync(workDir, { recursive: true });
    const file = path.join(workDir, `${this.group}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ group: this.group, date: new Date().toISOString(), cells: this.cells }, null, 2) + '\n');
    fs.renameSync(tmp, file);
  }
  /** The README rows for this file's cells that differ from README.md's table (empty when it agrees). */
  readmeDisagreements() {
    const want = renderRows(this.cells);
    const have = readmeRows(fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8'));
    const out = [];
    for (const [key, line] of want) {
      if (have.get(key) !== line) out.push(`README row for ${key}: has ${JSON.stringify(have.get(key) ?? '(none)')}, this run gives ${JSON.stringify(line)}`);
    }
    return out;
  }
}

/** A short form of an error's output for the results file and the test message. */
export function brief(text, max = 600) {
  const t = String(text).trim();
  return t.length > max ? t.slice(0, max) + '…' : t;
}
