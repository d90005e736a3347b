// The README's examples cannot rot: every ```js block that follows a
// `<!-- readme-test -->` line is run, as a user would run it, as an ES module
// in the consumer folder where the packed package is installed (jose and
// @noble/hashes, dev dependencies, are linked in for the examples that use
// them). The examples check their results with node:assert, so a wrong result
// fails here; and every js block must carry the marker.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { IMPL, repoRoot, consumerDir, installedPackageDir } from './lib/load.mjs';

const skip = IMPL === 'noble' ? 'runs the installed package (MLDSA_IMPL=noble)' : false;
const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/<!-- readme-test -->\n```js\n([\s\S]*?)\n```/g)].map((m) => ({
  code: m[1],
  line: readme.slice(0, m.index).split('\n').length + 2,
}));

test('every js block of the README is run', () => {
  const all = readme.match(/^```js$/gm)?.length ?? 0;
  assert.ok(blocks.length >= 6, `found ${blocks.length}`);
  assert.equal(blocks.length, all, 'a js block without the <!-- readme-test --> marker');
});

for (const { code, line } of blocks) {
  test(`README.md example at line ${line}`, { skip, timeout: 60_000 }, () => {
    installedPackageDir();
    // The examples' other imports: the repository's dev dependencies, linked in.
    for (const dep of ['jose', '@noble/hashes']) {
      const link = path.join(consumerDir, 'node_modules', dep);
      if (!code.includes(`from '${dep}`) || fs.existsSync(link)) continue;
      fs.mkdirSync(path.dirname(link), { recursive: true });
      fs.symlinkSync(path.join(repoRoot, 'node_modules', dep), link, 'dir');
    }
    const file = path.join(consumerDir, `readme-example-${line}-${process.pid}.mjs`);
    fs.writeFileSync(file, code + '\n');
    try {
      const r = spawnSync(process.execPath, [file], { cwd: consumerDir, encoding: 'utf8' });
      assert.equal(r.status, 0, `the example at README.md:${line} failed:\n${r.stderr}`);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
}
