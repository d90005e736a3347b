// The examples of the README and of docs/ cannot rot: every ```js block that
// follows a `<!-- readme-test -->` line (lib/examples.mjs) is run, as a user
// would run it, as an ES module in a folder outside the repository with
// nothing installed but the packed package (lib/plain.mjs: a copy of what
// scripts/test.sh installed). A block that needs another package says so,
// `<!-- readme-test: needs @noble/hashes -->` (a list, separated by commas or
// spaces), and gets exactly those, linked in from the repository's dev
// dependencies. The examples check their results with node:assert, so a wrong
// result fails here; and every js block must carry the marker.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { IMPL, repoRoot } from './lib/load.mjs';
import { folderWith, plainEnv } from './lib/plain.mjs';
import { documentationFiles, examples, unmarkedBlocks } from './lib/examples.mjs';

const skip = IMPL === 'noble' ? 'runs the installed package (MLDSA_IMPL=noble)' : false;
// Blocks for a browser page, `<!-- readme-test: browser -->`, are run by the
// browser test that names them (keystore.test.mjs), not here.
const all = examples();
const blocks = all.filter((b) => !b.browser);

test('every js block of the README and of docs/ is run', () => {
  assert.deepEqual(unmarkedBlocks(), [], 'js blocks without the <!-- readme-test --> marker');
  const readme = blocks.filter((b) => b.file === 'README.md');
  assert.ok(readme.length >= 6, `found ${readme.length} in README.md`);
  // The first example, the one a reader copies first, needs nothing but the package.
  assert.deepEqual(readme[0].needs, [], 'the first example needs another package');
});

// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens.
const anchor = (heading) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
const anchorsOf = (text) => new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1])));

test('every link of the README and of docs/ to a page of the repository finds it, and its heading', () => {
  const broken = [];
  for (const file of documentationFiles()) {
    const text = fs.readFileSync(path.join(repoRoot, file), 'utf8');
    for (const [, target] of text.matchAll(/\]\((?!https?:|mailto:)([^)\s]+)\)/g)) {
      const [page, hash] = target.split('#');
      const to = page ? path.join(path.dirname(path.join(repoRoot, file)), page) : path.join(repoRoot, file);
      if (!fs.existsSync(to)) broken.push(`${file}: ${target} (no such file)`);
      else if (hash !== undefined && to.endsWith('.md') && !anchorsOf(fs.readFileSync(to, 'utf8')).has(hash))
        broken.push(`${file}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

for (const { file, needs, code, line } of blocks) {
  const what = needs.length ? ` (with ${needs.join(', ')})` : ' (the package alone)';
  test(`${file} example at line ${line}${what}`, { skip, timeout: 60_000 }, () => {
    const dir = folderWith(needs);
    try {
      const out = path.join(dir, `example-${path.basename(file, '.md').toLowerCase()}-${line}.mjs`);
      fs.writeFileSync(out, code + '\n');
      const r = spawnSync(process.execPath, [out], { cwd: dir, encoding: 'utf8', env: plainEnv() });
      assert.equal(r.status, 0, `the example at ${file}:${line} failed${what}:\n${r.stderr}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
