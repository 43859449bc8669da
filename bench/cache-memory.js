'use strict';
// What the get-client cache's entries take in V8's heap, against the weight the cache gives them (entryBytes):
// the measurement behind ENTRY_OVERHEAD_BYTES in src/client-cache/client-cache.ts. Fills a ClientCache of the built
// service with answers shaped as the bench's fleet (one or two SMS configurations), as a database read would make them.
//   npm run build && node --expose-gc bench/cache-memory.js    (npm run bench:cache-memory)
//   env: CACHE_MEMORY_ENTRIES (20000)
const crypto = require('node:crypto');
const path = require('node:path');

const DIST = path.resolve(__dirname, '..', process.env.CACHE_MEMORY_DIST || 'dist');
const { ClientCache, entryBytes } = require(path.join(DIST, 'client-cache/client-cache.js'));
const { toCachedClient } = require(path.join(DIST, 'client/client-answer.js'));
const SMS_CONFIG = require('../test/fixtures/sms-config.json');

const ENTRIES = Number(process.env.CACHE_MEMORY_ENTRIES || 20_000);
if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');

const digest = () => crypto.randomBytes(32).toString('hex');

/** A client as ClientRepository reads it: fresh strings, as the driver makes them for every row. */
function storedClient(n) {
  const summary = () => {
    const { password: _password, apiKey: _apiKey, ...shown } = SMS_CONFIG;
    return JSON.parse(JSON.stringify({ ...shown, providerName: `${shown.providerName}-${n}` }));
  };
  return {
    clientId: n,
    isActive: true,
    isPreviousKey: false,
    keyExpiresAt: null,
    keyDigests: [digest()],
    appDescription: `bench client ${n}`,
    appUrl: `https://app-${n}.example.com`,
    preferredSmsGateway: 'twilio',
    preferredEmailGateway: null,
    preferredPushNotificationGateway: null,
    isHost: false,
    smsConfigs: n % 2 === 0 ? [summary()] : [summary(), summary()],
  };
}

function heapUsed() {
  for (let i = 0; i < 4; i++) global.gc();
  return process.memoryUsage().heapUsed;
}

const cache = new ClientCache({ maxBytes: 1024 * 1024 * 1024 });
cache.setLive(true);
const before = heapUsed();
let weight = 0;
let answerChars = 0;
for (let n = 0; n < ENTRIES; n++) {
  const client = toCachedClient(storedClient(n));
  cache.store(digest(), client, cache.readToken());
  weight += entryBytes({ owner: client, hasAnswer: true });
  answerChars += client.prefix.length + client.suffix.length;
}
const taken = heapUsed() - before;
if (cache.size !== ENTRIES) throw new Error(`the cache held ${cache.size} of ${ENTRIES} entries`);
const perEntry = taken / ENTRIES;
console.log(`entries:                 ${ENTRIES}`);
console.log(`answer text per entry:   ${(answerChars / ENTRIES).toFixed(0)} characters`);
console.log(`heap per entry:          ${perEntry.toFixed(0)} bytes`);
console.log(`weight per entry:        ${(weight / ENTRIES).toFixed(0)} bytes (cache.bytes ${cache.bytes})`);
console.log(`heap / weight:           ${(taken / weight).toFixed(2)}`);
console.log(`overhead beyond the text: ${(perEntry - answerChars / ENTRIES).toFixed(0)} bytes`);
console.log(`heap for ${ENTRIES} entries: ${(taken / 1024 / 1024).toFixed(1)} MB`);
