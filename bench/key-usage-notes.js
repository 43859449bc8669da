'use strict';
// What noting a key's use costs a request: the SHA-256 of the key that get-client computes anyway, with and without
// KeyUsageNotes.note(), over Zipf draws of KEY_USAGE_KEYS keys (20,000), in turns, twice each.
//   npx nest build && node bench/key-usage-notes.js
const crypto = require('node:crypto');
const path = require('node:path');
const { KeyUsageNotes } = require(path.join(__dirname, '..', 'dist', 'key-usage', 'key-usage-notes.js'));
const { seededRandom, zipfSampler } = require('./lib/key-draws');

const KEYS = Number(process.env.KEY_USAGE_KEYS || 20_000);
const REQUESTS = 300_000;
const keys = Array.from({ length: KEYS }, (_, index) => `sk_${String(index).padStart(43, 'k')}`);
const draw = zipfSampler(KEYS, 1, seededRandom(KEYS));
const draws = Int32Array.from({ length: REQUESTS }, () => draw());
const notes = new KeyUsageNotes();
const digest = (key) => crypto.createHash('sha256').update(key).digest('hex');

for (const withNote of [false, true, false, true]) {
  const started = process.hrtime.bigint();
  for (let index = 0; index < REQUESTS; index++) {
    const secretKeyDigest = digest(keys[draws[index]]);
    if (withNote) notes.note(secretKeyDigest, 'root');
  }
  const nanoseconds = Number(process.hrtime.bigint() - started) / REQUESTS;
  console.log(`${withNote ? 'SHA-256 + note' : 'SHA-256 alone '}: ${nanoseconds.toFixed(0)} ns a request (${notes.size} keys noted)`);
}
