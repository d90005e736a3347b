// The documentation's examples: the ```js blocks of README.md and of docs/*.md
// that follow a `<!-- readme-test -->` marker. `<!-- readme-test: needs jose -->`
// names the packages a block needs besides this one (a list, separated by
// commas or spaces); `<!-- readme-test: browser -->` marks a block for a page,
// run by the browser test that names it. readme.test.mjs runs the others and
// fails on a js block without a marker; compat-typescript.test.mjs compiles
// the WebCrypto ones.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './load.mjs';

/** README.md first, then docs/*.md in name order (paths relative to the repository). */
export function documentationFiles() {
  const docs = path.join(repoRoot, 'docs');
  const pages = fs.existsSync(docs)
    ? fs
        .readdirSync(docs)
        .filter((f) => f.endsWith('.md'))
        .sort()
    : [];
  return ['README.md', ...pages.map((f) => `docs/${f}`)];
}

const lineAt = (text, index) => text.slice(0, index).split('\n').length;

/** Every marked block: { file, line (of its first line of code), needs, browser, code }. */
export function examples() {
  const out = [];
  for (const file of documentationFiles()) {
    const text = fs.readFileSync(path.join(repoRoot, file), 'utf8');
    for (const m of text.matchAll(/<!-- readme-test(?:: needs ([^>]*?)|: (browser))? -->\n```js\n([\s\S]*?)\n```/g)) {
      out.push({ file, line: lineAt(text, m.index) + 2, needs: m[1] ? m[1].split(/[\s,]+/).filter(Boolean) : [], browser: Boolean(m[2]), code: m[3] });
    }
  }
  return out;
}

/** The js blocks without a marker, as "file:line". */
export function unmarkedBlocks() {
  const out = [];
  for (const file of documentationFiles()) {
    const text = fs.readFileSync(path.join(repoRoot, file), 'utf8');
    for (const m of text.matchAll(/^```js$/gm)) {
      if (!/<!-- readme-test(?:: [^>]*)? -->\n$/.test(text.slice(0, m.index))) out.push(`${file}:${lineAt(text, m.index)}`);
    }
  }
  return out;
}
