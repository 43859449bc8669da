'use strict';
// Seeding goes through the service's own API, so its data is exactly what it
// would have written itself; the baseline reads the same rows.
// As long as a production start requires (32 characters): the bench runs the service with NODE_ENV=production.
const ADMIN_API_KEY = 'bench-admin-key-5c1e9a7f3b2d8e4a6c0f';
// The SMS dispatcher's x-api-key (DISPATCHER_API_KEYS of the service, DISPATCHER_API_KEY of the baseline).
const DISPATCHER_API_KEY = 'bench-dispatcher-key-8d2f6b0e4a9c1e7b3f5d';

// The samples the e2e tests send too.
const SMS_CONFIG_BODY = require('../../test/fixtures/sms-config.json');
const CLIENT_BODY = require('../../test/fixtures/client.json');

function clientBody(n) {
  return {
    ...CLIENT_BODY,
    appName: `bench-${n}`,
    appUrl: `https://app-${n}.example.com`,
    appDescription: `bench client ${n}`,
    preferredSmsGateway: 'twilio',
  };
}

async function post(url, { headers = {}, body } = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10000),
  });
  return { status: response.status, text: await response.text() };
}

function expect2xx(what, { status, text }) {
  if (status < 200 || status > 299) throw new Error(`${what} answered ${status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

async function addClient(baseUrl, n) {
  const answer = await post(`${baseUrl}/api/client/add`, {
    headers: { 'x-api-key': ADMIN_API_KEY },
    body: clientBody(n),
  });
  const secretKey = expect2xx('POST /api/client/add', answer).results?.secretKey;
  if (!secretKey) throw new Error(`POST /api/client/add gave no results.secretKey: ${answer.text}`);
  return secretKey;
}

/** add-client under an Idempotency-Key, which the service answers inside a transaction of its own (Transactions.run). */
async function addClientInATransaction(baseUrl, n) {
  const answer = await post(`${baseUrl}/api/client/add`, {
    headers: { 'x-api-key': ADMIN_API_KEY, 'idempotency-key': `bench-${n}` },
    body: clientBody(n),
  });
  return expect2xx('POST /api/client/add with an Idempotency-Key', answer).results.secretKey;
}

/** task(0) .. task(count - 1), `concurrency` at a time; resolves with their results in order. */
async function mapConcurrently(count, concurrency, task) {
  const results = new Array(count);
  let next = 0;
  async function worker() {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** Adds clients numbered first..first+count-1, a few at a time; resolves with their keys in order. */
function addClients(baseUrl, first, count, concurrency = 16) {
  return mapConcurrently(count, concurrency, (i) => addClient(baseUrl, first + i));
}

async function addSmsConfig(baseUrl, secretKey) {
  const answer = await post(`${baseUrl}/api/sms-config/add`, {
    headers: { secretKey },
    body: SMS_CONFIG_BODY,
  });
  return expect2xx('POST /api/sms-config/add', answer);
}

/** The hosts of the fixture's URLs, which route offers and resolve answers only once approved. */
const PROVIDER_HOSTS = [...new Set(['smsApi', 'providerUrl', 'balanceUrl'].map((field) => new URL(SMS_CONFIG_BODY[field]).hostname))];

/** Approves the fixture's hosts; already approved (409) is fine, and so is a build from before the list (404). */
async function approveProviderHosts(baseUrl) {
  for (const host of PROVIDER_HOSTS) {
    const answer = await post(`${baseUrl}/api/v1/provider-hosts`, { headers: { 'x-api-key': ADMIN_API_KEY }, body: { host } });
    if (answer.status !== 409 && answer.status !== 404) expect2xx('POST /api/v1/provider-hosts', answer);
  }
}

/**
 * perKey configurations for each client key, added in turns over the keys; resolves with their verifyApiKey tokens in
 * that order, so that consecutive tokens belong to different clients. Their hosts are approved, so that the tokens
 * resolve and route offers them.
 */
async function addSmsConfigTokens(baseUrl, keys, perKey, concurrency = 16) {
  await approveProviderHosts(baseUrl);
  return mapConcurrently(keys.length * perKey, concurrency, async (i) => {
    const token = (await addSmsConfig(baseUrl, keys[i % keys.length])).results?.verifyApiKey;
    if (!token) throw new Error(`POST /api/sms-config/add at ${baseUrl} gave no results.verifyApiKey`);
    return token;
  });
}

/** The raw resolve answer for a token, as the dispatcher asks for it. */
function resolve(baseUrl, verifyApiKey) {
  return post(`${baseUrl}/api/v1/sms-configs/resolve`, { headers: { 'x-api-key': DISPATCHER_API_KEY }, body: { verifyApiKey } });
}

/** The raw get-client answer, as bytes on the wire (text) and status. */
function getClient(baseUrl, secretKey) {
  return post(`${baseUrl}/api/client/get/secretKey`, { headers: { secretKey } });
}

/** Numbers for new clients, so that every app name differs: take(count) answers the first of them. */
function clientNumbering(first) {
  let next = first;
  return {
    take(count) {
      next += count;
      return next - count;
    },
  };
}

module.exports = {
  post,
  expect2xx,
  clientNumbering,
  addClientInATransaction,
  ADMIN_API_KEY,
  DISPATCHER_API_KEY,
  SMS_CONFIG_BODY,
  clientBody,
  mapConcurrently,
  addClients,
  addSmsConfig,
  addSmsConfigTokens,
  approveProviderHosts,
  getClient,
  resolve,
};
