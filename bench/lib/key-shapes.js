'use strict';
// get-client by the kind of key presented, compared build against build (bench/compare-builds.js): a scoped key where a
// build makes them, and made-up keys of either shape, which each build refuses (404) without answering from its cache.
const crypto = require('node:crypto');

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const GET_CLIENT = '/api/client/get/secretKey';

// Run with the failed-authentication limits raised (KEY_SHAPE_ENV), so that neither is answered by the lockout.
const KEY_SHAPE_ENV = { RATE_LIMIT_FAILED_AUTH_PER_IP: '1000000', RATE_LIMIT_PER_IP: '1000000000' };

const SCENARIOS = [
  // A client:read key of the get-client client on a build that makes scoped keys; the root key on one that does not.
  { name: 'get-client-scoped', path: GET_CLIENT, status: 200 },
  // A new made-up key of the root keys' shape on every request: a database read each.
  { name: 'made-up-root-shape', path: GET_CLIENT, status: 404 },
  // A new made-up rk_ key whose checksum does not match: refused before any cache or database read.
  { name: 'made-up-bad-checksum', path: GET_CLIENT, status: 404 },
];

function madeUpRootKey() {
  return `sk_${crypto.randomBytes(32).toString('base64url')}`;
}

// 46 random base62 characters: the last 6 match the first 43's CRC-32 once in 62^6.
function madeUpScopedKey() {
  let key = 'rk_';
  for (const byte of crypto.randomBytes(46)) key += BASE62[byte % 62];
  return key;
}

/** The scoped key a build makes for the root key, or the root key itself where it makes none (404 on the route). */
async function scopedKeyOf(url, rootKey) {
  const answer = await fetch(`${url}/api/v1/client/keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', secretKey: rootKey },
    body: JSON.stringify({ name: 'bench', scopes: ['client:read'] }),
  });
  if (answer.status === 404) return rootKey;
  if (answer.status !== 200) throw new Error(`making a scoped key: ${answer.status} ${await answer.text()}`);
  return (await answer.json()).results.secretKey;
}

/** autocannon options of a scenario for one build: `key` is what scopedKeyOf() gave that build. */
function requestOptions(name, key) {
  if (name === 'get-client-scoped') return { method: 'POST', headers: { secretKey: key } };
  const madeUp = name === 'made-up-root-shape' ? madeUpRootKey : madeUpScopedKey;
  return {
    method: 'POST',
    requests: [
      {
        setupRequest(request) {
          request.headers = { ...request.headers, secretKey: madeUp() };
          return request;
        },
      },
    ],
  };
}

module.exports = { KEY_SHAPE_ENV, SCENARIOS, requestOptions, scopedKeyOf };
