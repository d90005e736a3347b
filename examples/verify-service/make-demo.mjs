#!/usr/bin/env node
// Demo material for README's curl examples: node make-demo.mjs DIR writes
//   DIR/keys/alice.pem (ML-DSA-65), DIR/keys/bob.pem (ML-DSA-44),
//   DIR/jwks.json (kid "carol", ML-DSA-87),
//   DIR/requests/*.json and *.bin, signed by those keys.
// The secret keys exist only in this process; nothing secret is written.
import fs from 'node:fs';
import path from 'node:path';
import { makeDemo } from './lib/demo.mjs';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node make-demo.mjs DIR');
  process.exit(1);
}
const demo = makeDemo(dir);
const requests = path.join(dir, 'requests');
fs.mkdirSync(requests, { recursive: true });
const write = (name, data) => fs.writeFileSync(path.join(requests, name), Buffer.isBuffer(data) ? data : JSON.stringify(data) + '\n');

const valid = demo.item('alice', 'hello from alice');
write('valid.json', valid);
write('tampered.json', { ...valid, msg: Buffer.from('hello from mallory').toString('base64') });
write('context.json', demo.item('carol', 'a message with a context', 'invoice-v1'));
write('batch.json', [valid, demo.item('bob', 'hello from bob'), demo.item('carol', 'hello from carol'), { ...valid, kid: 'bob' }]);
write('alice.bin', demo.record('alice', 'hello in binary'));
write('alice-batch.bin', Buffer.concat([demo.record('alice', 'first'), demo.record('alice', 'second'), demo.record('alice', '')]));
demo.wipe();
console.log(`wrote ${demo.keysDir} (alice, bob), ${demo.jwksFile} (carol) and ${requests}/`);
