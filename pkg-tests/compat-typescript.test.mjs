// Compatibility matrix, TypeScript: compat/typed.ts compiled with --strict (no
// skipLibCheck) against the packed package's declarations, in a fresh project
// per kind (module/moduleResolution nodenext, node16, bundler, node10; a browser
// project with lib es2022+dom, types [] and no @types/node; a CommonJS project),
// on the oldest TypeScript the package supports (5.0) and the newest
// (compat/package.json). A cell passes only when tsc exits 0; the
// @ts-expect-error line in typed.ts makes declarations that accept anything fail.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IMPL, repoRoot } from './lib/load.mjs';
import { Results, project, run, tool, toolVersion, toolsDir, brief } from './lib/compat.mjs';
import { examples } from './lib/examples.mjs';
import { PKG_NAME } from './lib/load.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const results = new Results('typescript');
const SOURCE = fs.readFileSync(new URL('./compat/typed.ts', import.meta.url), 'utf8');
// Compiled too where the project's lib has the DOM (its CryptoKey type).
const DOM_SOURCE = fs.readFileSync(new URL('./compat/typed-dom.ts', import.meta.url), 'utf8');
const strict = { strict: true, noEmit: true, target: 'es2022' };

const PROJECTS = [
  { cell: 'nodenext', pkg: { type: 'module' }, options: { module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022'], types: ['node'] } },
  { cell: 'node16', pkg: { type: 'module' }, options: { module: 'node16', moduleResolution: 'node16', lib: ['es2022'], types: ['node'] } },
  { cell: 'bundler', pkg: { type: 'module' }, options: { module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom'], types: ['node'] } },
  { cell: 'node10', pkg: {}, options: { module: 'commonjs', moduleResolution: 'node10', lib: ['es2022'], types: ['node'] } },
  {
    cell: 'browser',
    pkg: { type: 'module' },
    options: { module: 'es2022', moduleResolution: 'bundler', lib: ['es2022', 'dom'], types: [] },
    noNodeTypes: true,
  },
  { cell: 'CommonJS', pkg: { type: 'commonjs' }, options: { module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022'], types: ['node'] } },
];
const COMPILERS = [
  { name: 'typescript-5.0', label: '5.0' },
  { name: 'typescript-latest', label: 'latest' },
];

test('compat: TypeScript 5.0 and latest × nodenext, node16, bundler, node10, browser, CommonJS', { skip, timeout: 300_000 }, async (t) => {
  for (const ts of COMPILERS) {
    const version = toolVersion(ts.name);
    const tsc = tool(`${ts.name}/bin/tsc`);
    const shown = ts.label === 'latest' ? version.split('.').slice(0, 2).join('.') : ts.label;
    // Two compilers at a time (tsc is single-threaded).
    await t.test(`TypeScript ${version}`, { concurrency: 2 }, async (t) => {
      const cells = [];
      for (const p of PROJECTS) {
        cells.push(
          t.test(p.cell, async (t) => {
            const dir = project(`ts-${ts.label}-${p.cell}`, p.pkg);
            if (!p.noNodeTypes) {
              for (const dep of ['@types/node', 'undici-types']) fs.cpSync(path.join(toolsDir, dep), path.join(dir, 'node_modules', dep), { recursive: true });
            }
            fs.writeFileSync(path.join(dir, 'typed.ts'), SOURCE);
            const files = ['typed.ts'];
            if (p.options.lib.includes('dom')) {
              fs.writeFileSync(path.join(dir, 'typed-dom.ts'), DOM_SOURCE);
              files.push('typed-dom.ts');
            }
            fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...strict, ...p.options }, files }, null, 2) + '\n');
            const r = await run(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], { cwd: dir, timeoutMs: 120_000 });
            const out = `${r.stdout}${r.stderr}`.replaceAll(dir + path.sep, '');
            // An option the compiler no longer has (TypeScript 7 removed moduleResolution
            // node10) is recorded as not applicable, and only when tsc says exactly that.
            const removed =
              r.code !== 0 &&
              /^tsconfig\.json\(\d+,\d+\): error TS5108: Option 'moduleResolution=node10' has been removed\./.test(out.trim()) &&
              out.trim().split('\n').length === 1;
            const ok = r.code === 0;
            const error = ok ? undefined : brief(out, 1500);
            results.add({
              env: 'TypeScript',
              version: shown,
              exact: version,
              cell: p.cell,
              order: PROJECTS.indexOf(p),
              ok,
              na: removed ? `removed in TypeScript ${shown}` : undefined,
              error,
            });
            if (removed) t.diagnostic(`not applicable: TypeScript ${version} has no moduleResolution node10 (TS5108)`);
            else assert.ok(ok, `tsc ${version} (${p.cell}) failed:\n${error}`);
          }),
        );
      }
      await Promise.all(cells);
    });
  }
  await t.test('README.md "Supported environments" agrees with this run', () => {
    assert.deepEqual(results.readmeDisagreements(), []);
  });
});

// The WebCrypto examples of README.md and docs/ (lib/examples.mjs), as TypeScript
// with --strict: the blocks (those for browsers too) that import mldsa-simd/webcrypto
// (or mldsa-simd/keystore, mldsa-simd/composite), each a .ts file of a project with
// the DOM and Node's types, and the packages each needs (its `<!-- readme-test: needs … -->`
// list) linked in from the repository's dev dependencies with their own declarations.
test('compat: the WebCrypto examples of the README, of docs/ and of the declarations compile with --strict (TypeScript latest)', {
  skip,
  timeout: 300_000,
}, async () => {
  const blocks = examples().filter((b) => /from 'mldsa-simd\/(webcrypto|keystore|composite)'/.test(b.code));
  assert.ok(blocks.length >= 3, `found ${blocks.length} WebCrypto examples`);
  const dir = project('ts-readme-webcrypto', { type: 'module' });
  for (const dep of ['@types/node', 'undici-types']) fs.cpSync(path.join(toolsDir, dep), path.join(dir, 'node_modules', dep), { recursive: true });
  for (const dep of new Set(blocks.flatMap((b) => b.needs))) {
    fs.mkdirSync(path.dirname(path.join(dir, 'node_modules', dep)), { recursive: true });
    fs.symlinkSync(path.join(repoRoot, 'node_modules', dep), path.join(dir, 'node_modules', dep), 'dir');
  }
  // example-<page>-<line>.ts: the block at that line of README.md or docs/<page>.md.
  const files = blocks.map(({ file, code, line }) => {
    const name = `example-${path.basename(file, '.md').toLowerCase()}-${line}.ts`;
    fs.writeFileSync(path.join(dir, name), `${code}\nexport {};\n`);
    return name;
  });
  // And the @example blocks of the declarations of those subpaths.
  for (const name of ['webcrypto', 'keystore', 'composite']) {
    const file = path.join(dir, 'node_modules', PKG_NAME, `${name}.d.ts`);
    if (!fs.existsSync(file)) continue;
    const examples = [...fs.readFileSync(file, 'utf8').matchAll(/^ \* ```ts\n([\s\S]*?)^ \* ```$/gm)].map((m) => m[1].replace(/^ \* ?/gm, ''));
    assert.ok(examples.length > 0, `${name}.d.ts has no examples`);
    examples.forEach((code, i) => {
      fs.writeFileSync(path.join(dir, `${name}-d-ts-${i + 1}.ts`), `${code}\nexport {};\n`);
      files.push(`${name}-d-ts-${i + 1}.ts`);
    });
  }
  const options = { ...strict, module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'], types: ['node'] };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files }, null, 2) + '\n');
  const r = await run(process.execPath, [tool('typescript-latest/bin/tsc'), '-p', dir, '--pretty', 'false'], { cwd: dir, timeoutMs: 240_000 });
  assert.equal(
    r.code,
    0,
    `tsc failed on the examples (example-<page>-<line>.ts: the line in README.md or docs/<page>.md; <name>-d-ts-<n>.ts: the nth example of <name>.d.ts):\n${brief(`${r.stdout}${r.stderr}`.replaceAll(dir + path.sep, ''), 3000)}`,
  );
});
