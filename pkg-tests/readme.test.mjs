// The README's examples cannot rot: every ```js block that follows a
// `<!-- readme-test -->` line is run, as a user would run it, as an ES module in a
// folder outside the repository with nothing installed but the packed package
// (lib/plain.mjs: a copy of what scripts/test.sh installed). A block that needs
// another package says so, `<!-- readme-test: needs @noble/hashes -->` (a list,
// separated by commas or spaces), and gets exactly those, linked in from the
// repository's dev dependencies. The examples check their results with
// node:assert, so a wrong result fails here; and every js block must carry the marker.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { IMPL, repoRoot } from './lib/load.mjs';
import { folderWith, plainEnv } from './lib/plain.mjs';

const skip = IMPL === 'noble' ? 'runs the installed package (MLDSA_IMPL=noble)' : false;
const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/<!-- readme-test(?:: needs ([^>]*?))? -->\n```js\n([\s\S]*?)\n```/g)].map((m) => ({
  needs: m[1] ? m[1].split(/[\s,]+/).filter(Boolean) : [],
  code: m[2],
  line: readme.slice(0, m.index).split('\n').length + 2,
}));

// Blocks for a browser page, `<!-- readme-test: browser -->`, are run by the
// browser test that names them (keystore.test.mjs), not here.
const browserBlocks = readme.match(/<!-- readme-test: browser -->\n```js\n/g)?.length ?? 0;

test('every js block of the README is run', () => {
  const all = readme.match(/^```js$/gm)?.length ?? 0;
  assert.ok(blocks.length >= 6, `found ${blocks.length}`);
  assert.equal(blocks.length + browserBlocks, all, 'a js block without the <!-- readme-test --> marker');
  // The first example, the one a reader copies first, needs nothing but the package.
  assert.deepEqual(blocks[0].needs, [], 'the first example needs another package');
});

for (const { needs, code, line } of blocks) {
  const what = needs.length ? ` (with ${needs.join(', ')})` : ' (the package alone)';
  test(`README.md example at line ${line}${what}`, { skip, timeout: 60_000 }, () => {
    const dir = folderWith(needs);
    try {
      const file = path.join(dir, `readme-example-${line}.mjs`);
      fs.writeFileSync(file, code + '\n');
      const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', env: plainEnv() });
      assert.equal(r.status, 0, `the example at README.md:${line} failed${what}:\n${r.stderr}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
