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
import { IMPL } from './lib/load.mjs';
import { Results, project, run, tool, toolVersion, toolsDir, brief } from './lib/compat.mjs';

const skip = IMPL === 'noble' ? 'needs the installed package (MLDSA_IMPL=noble)' : false;
const results = new Results('typescript');
const SOURCE = fs.readFileSync(new URL('./compat/typed.ts', import.meta.url), 'utf8');
const strict = { strict: true, noEmit: true, target: 'es2022' };

const PROJECTS = [
  { cell: 'nodenext', pkg: { type: 'module' }, options: { module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022'], types: ['node'] } },
  { cell: 'node16', pkg: { type: 'module' }, options: { module: 'node16', moduleResolution: 'node16', lib: ['es2022'], types: ['node'] } },
  { cell: 'bundler', pkg: { type: 'module' }, options: { module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom'], types: ['node'] } },
  { cell: 'node10', pkg: {}, options: { module: 'commonjs', moduleResolution: 'node10', lib: ['es2022'], types: ['node'] } },
  { cell: 'browser', pkg: { type: 'module' }, options: { module: 'es2022', moduleResolution: 'bundler', lib: ['es2022', 'dom'], types: [] }, noNodeTypes: true },
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
        cells.push(t.test(p.cell, async (t) => {
          const dir = project(`ts-${ts.label}-${p.cell}`, p.pkg);
          if (!p.noNodeTypes) {
            for (const dep of ['@types/node', 'undici-types']) fs.cpSync(path.join(toolsDir, dep), path.join(dir, 'node_modules', dep), { recursive: true });
          }
          fs.writeFileSync(path.join(dir, 'typed.ts'), SOURCE);
          fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...strict, ...p.options }, files: ['typed.ts'] }, null, 2) + '\n');
          const r = await run(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], { cwd: dir, timeoutMs: 120_000 });
          const out = `${r.stdout}${r.stderr}`.replaceAll(dir + path.sep, '');
          // An option the compiler no longer has (TypeScript 7 removed moduleResolution
          // node10) is recorded as not applicable, and only when tsc says exactly that.
          const removed = r.code !== 0 && /^tsconfig\.json\(\d+,\d+\): error TS5108: Option 'moduleResolution=node10' has been removed\./.test(out.trim()) && out.trim().split('\n').length === 1;
          const ok = r.code === 0;
          const error = ok ? undefined : brief(out, 1500);
          results.add({ env: 'TypeScript', version: shown, exact: version, cell: p.cell, order: PROJECTS.indexOf(p), ok, na: removed ? `removed in TypeScript ${shown}` : undefined, error });
          if (removed) t.diagnostic(`not applicable: TypeScript ${version} has no moduleResolution node10 (TS5108)`);
          else assert.ok(ok, `tsc ${version} (${p.cell}) failed:\n${error}`);
        }));
      }
      await Promise.all(cells);
    });
  }
  await t.test('README.md "Supported environments" agrees with this run', () => {
    assert.deepEqual(results.readmeDisagreements(), []);
  });
});
