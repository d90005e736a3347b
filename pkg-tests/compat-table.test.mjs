// The compatibility matrix's own parts, checked on made-up data so that they can
// be seen to fail: judge() rejects every kind of wrong probe answer, and the
// README table puts failing cells under "Fails" and reads back what it wrote.
import test from 'node:test';
import assert from 'node:assert/strict';
import { judge, EXPECTED } from './lib/compat.mjs';
import { renderRows, renderTable, readmeRows, START, END } from '../scripts/compat-table.mjs';

const good = { ...EXPECTED, subtleSignatureLength: 3309, subtleVerify: true, subtleWrongMessage: false, subtleKeyIsRight: true };

test('judge(): a right answer passes, each wrong field fails', () => {
  assert.deepEqual(judge(good, { subtle: true, ours: true }), []);
  assert.deepEqual(judge({ ...EXPECTED }, { subtle: false }), []);
  for (const [k, v] of Object.entries(good)) {
    const bad = typeof v === 'boolean' ? !v : typeof v === 'number' ? v - 1 : v.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const problems = judge({ ...good, [k]: bad }, { subtle: true, ours: true });
    assert.equal(problems.length, 1, k);
    assert.match(problems[0], new RegExp(`^${k}: `));
  }
  const { subtleVerify, ...noSubtle } = good;
  assert.equal(judge(noSubtle, { subtle: true }).length, 1);
  assert.deepEqual(judge({ error: 'boom' }), ['threw: boom']);
  assert.equal(judge(undefined).length, 1);
});

test('the table: works, fails and does-not-apply columns; cell order kept; read back from a README', () => {
  const cells = [
    { env: 'X', version: '1.x', cell: 'b', ok: true, order: 1 },
    { env: 'X', version: '1.x', cell: 'a', ok: false, order: 0 },
    { env: 'X', version: '1.x', cell: 'c', ok: false, na: 'gone', order: 2 },
    { env: 'Y', version: '2', cell: 'only', ok: true },
  ];
  const rows = renderRows(cells);
  assert.deepEqual([...rows.keys()], ['X 1.x', 'Y 2']);
  assert.equal(rows.get('X 1.x'), '| X | 1.x | b | a | c (gone) |');
  assert.equal(rows.get('Y 2'), '| Y | 2 | only | — | — |');
  const readme = `intro\n${START}\n${renderTable([{ group: 'g', cells }])}\n${END}\nafter\n`;
  assert.deepEqual(readmeRows(readme), rows);
  assert.equal(readmeRows('no markers').size, 0);
});
