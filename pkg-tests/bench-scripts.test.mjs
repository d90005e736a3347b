// The benchmark scripts that no other test runs still run: bench-js/coldstart.mjs
// for one round of each child (ESM and CommonJS) against the installed package,
// which fails unless every child's first verify returned true. (node:crypto's
// children run only where it has ML-DSA, Node 24.)
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { IMPL, repoRoot, installedPackageDir } from './lib/load.mjs';

const skip = IMPL === 'noble' ? 'runs our package' : false;

for (const mode of [[], ['--cjs']]) {
  test(`bench-js/coldstart.mjs ${mode.join(' ') || '(ESM)'}, one round`, { skip }, () => {
    const args = [
      path.join(repoRoot, 'bench-js/coldstart.mjs'),
      '--rounds',
      '1',
      '--node',
      process.execPath,
      '--pkg',
      `ours=${installedPackageDir()}`,
      ...mode,
    ];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, `coldstart.mjs failed:\n${r.stderr}`);
    assert.match(r.stdout, /^ours\s+[\d.]+\s+[\d.]+\s+[\d.]+/m);
  });
}
