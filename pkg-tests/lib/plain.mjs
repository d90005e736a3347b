// Folders with nothing but the package in them, for the tests of what a plain
// `npm install mldsa-simd` gives: outside the repository (whose node_modules would
// otherwise stand in for a missing package, through Node's walk up the parents),
// in the system's temporary directory.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PKG_NAME, installedPackageDir, repoRoot } from './load.mjs';

/** A fresh directory with a package.json and no node_modules above it; fails if one is there. */
export function emptyFolder(prefix = 'mldsa-plain-') {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, 'node_modules'))) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`${d}/node_modules would be found from ${dir}: set TMPDIR to a folder without node_modules above it`);
    }
    if (path.dirname(d) === d) break;
  }
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "plain-consumer", "version": "0.0.0", "private": true }\n');
  return dir;
}

/**
 * An empty folder with a copy of the installed package (what `npm install` of the
 * tarball puts there, as it has no dependencies) and, linked in from the
 * repository's node_modules, the packages `needs`.
 */
export function folderWith(needs) {
  const dir = emptyFolder();
  fs.cpSync(installedPackageDir(), path.join(dir, 'node_modules', PKG_NAME), { recursive: true });
  for (const dep of needs) {
    const from = path.join(repoRoot, 'node_modules', dep);
    if (!fs.existsSync(from)) throw new Error(`${dep} is not in the repository's node_modules`);
    const link = path.join(dir, 'node_modules', dep);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(from, link, 'dir');
  }
  return dir;
}

/** Environment for a child run in such a folder: no NODE_PATH or NODE_OPTIONS to find packages elsewhere. */
export function plainEnv() {
  const env = { ...process.env };
  delete env.NODE_PATH;
  delete env.NODE_OPTIONS;
  return env;
}
