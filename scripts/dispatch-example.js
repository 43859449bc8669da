#!/usr/bin/env node
'use strict';
// The loop an SMS dispatcher runs (docs/dispatching.md), against a running service and two fake providers this script
// serves itself on 127.0.0.1: "budget-sms", the cheapest, fails every send; "steady-sms" sends. Start the service with
// DISPATCHER_API_KEYS set and ALLOW_PRIVATE_PROVIDER_HOSTS=true (the fakes are local), then:
//   DISPATCHER_KEY=<one of DISPATCHER_API_KEYS> node scripts/dispatch-example.js
// env: BASE_URL (http://127.0.0.1:3000), ADMIN_KEY (default: the development admin key, `npm run --silent keys`),
//      MESSAGES (9). It adds a client with the two configurations, steady-sms priced for British mobiles, sends MESSAGES
// messages to a British number in rounds of 3, reporting after each round, sets steady-sms's balance from the provider,
// then, as an admin, keeps the client to the United Kingdom and France and routes one message to the United States,
// which is refused, and caps the client's messages for the day so that the last one is skipped (sms-limit). It prints
// one line per step, message and report; it exits 1 at the first unexpected answer. Every message is a one-time code:
// each report also carries the provider's delivery receipts and how many of the codes sent the users entered (the
// delivery signals that teach route and the pumping guard).
const http = require('node:http');
const { execFileSync } = require('node:child_process');
const { randomUUID } = require('node:crypto');

const BASE_URL = process.env.BASE_URL || 'http://127.0.0.1:3000';
const DISPATCHER_KEY = process.env.DISPATCHER_KEY;
const MESSAGES = Number(process.env.MESSAGES || 9);
const ROUND = 3;
// In the ranges Ofcom and the North American numbering plan reserve for fiction: nobody's phone.
const DESTINATION = '+447700900123';
const ELSEWHERE = '+12025550123';

/** A provider as the fakes play it: POST /send answers 200 with the delivery receipt at once, or 503; GET /balance its balance. */
function fakeProvider(name, { fails, balance }) {
  const server = http.createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/balance') return response.end(JSON.stringify({ balance }));
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const authorized = request.headers.authorization === `Bearer ${name}-api-key`;
      if (fails || !authorized) return response.writeHead(503).end(JSON.stringify({ error: `${name} is down` }));
      balance = Math.round((balance - 0.05) * 1e6) / 1e6;
      response.end(JSON.stringify({ accepted: JSON.parse(body).to, status: 'delivered' }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })),
  );
}

/** A call to the registry; anything but 200 stops the example with the service's error, unless `refusable` lists it. */
async function registry(path, { headers = {}, body, method = 'POST', refusable = [] } = {}) {
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (refusable.includes(response.status)) return { refused: `${response.status} ${answer.error}` };
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${answer.error}`);
  return answer.results;
}

// --- The dispatcher's side: what a real dispatcher does for every message. -------------------------------------------

/** Resolved credentials by configuration, kept a minute: every resolution is audited, a send should not cost one. */
const resolved = new Map();

async function credentialsOf(candidate) {
  const kept = resolved.get(candidate.smsConfigId);
  if (kept && kept.until > Date.now()) return kept.config;
  const config = await registry('/api/v1/sms-configs/resolve', {
    headers: { 'x-api-key': DISPATCHER_KEY },
    body: { verifyApiKey: candidate.verifyApiKey },
  });
  resolved.set(candidate.smsConfigId, { config, until: Date.now() + 60_000 });
  return config;
}

/** 'delivered' or 'undelivered' (the provider's receipt) when the provider took the message; null when it failed. */
async function sendThrough(config, message) {
  try {
    const response = await fetch(config.smsApi, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: config.senderId, to: message.to, text: message.text }),
    });
    if (!response.ok) return null;
    return (await response.json()).status === 'delivered' ? 'delivered' : 'undelivered';
  } catch {
    return null;
  }
}

/** One message: the candidates in the registry's order, until one sends; every attempt tallied for the next report. */
async function dispatch(secretKey, message, tally) {
  const route = await registry('/api/v1/dispatch/route', {
    headers: { 'x-api-key': DISPATCHER_KEY, secretKey },
    body: { smsType: 'Transactional', count: 1, destination: message.to },
    // The client's own rules (allowedDestinations): drop the message and tell the client, never retry it.
    refusable: [400, 403],
  });
  if (route.refused) return `refused: ${route.refused}`;
  const skipped = route.skipped.map(({ smsConfigId, reason }) => `${nameOf(smsConfigId)} ${reason}`).join(', ') || 'none';
  const tried = [];
  for (const candidate of route.candidates) {
    const receipt = await sendThrough(await credentialsOf(candidate), message);
    const sent = receipt !== null;
    // A batch per configuration and destination: the registry debits it at the price there, and learns from its receipts
    // and codes how well the configuration delivers there and whether the range is being pumped.
    const key = `${candidate.smsConfigId} ${message.to}`;
    const counts = tally.get(key) ?? { smsConfigId: candidate.smsConfigId, destination: message.to, ...NO_COUNTS };
    counts[sent ? 'sent' : 'failed'] += 1;
    if (sent) {
      // A real provider sends its receipt later, to a webhook: it goes in the report after it arrives.
      counts[receipt] += 1;
      counts.codesSent += 1;
      // The client's app tells the dispatcher which codes were entered; pumped codes never are.
      if (message.entered) counts.verified += 1;
    }
    tally.set(key, counts);
    tried.push(candidate.providerName);
    if (sent) {
      const price = `priced at ${candidate.perSmsCost} (prefix ${candidate.pricePrefix})`;
      return `sent through ${candidate.providerName}, ${price} (tried: ${tried.join(', ')}; skipped: ${skipped})`;
    }
  }
  return `not sent (tried: ${tried.join(', ') || 'nothing'}; skipped: ${skipped})`;
}

const NO_COUNTS = { sent: 0, failed: 0, delivered: 0, undelivered: 0, codesSent: 0, verified: 0 };

/** The round's counts, one report per configuration and destination used. */
async function report(tally) {
  for (const counts of tally.values()) {
    // A key per batch: a retry of it after no answer is counted once.
    const outcome = await registry('/api/v1/dispatch/outcomes', {
      headers: { 'x-api-key': DISPATCHER_KEY, 'idempotency-key': randomUUID() },
      body: counts,
    });
    const health = outcome.healthy ? 'healthy' : `unhealthy until ${outcome.unhealthyUntil}`;
    const { smsConfigId, destination, sent, failed, delivered, codesSent, verified } = counts;
    const signals = `delivered ${delivered}, codes entered ${verified} of ${codesSent}`;
    console.log(
      `report ${nameOf(smsConfigId)} ${destination}: sent ${sent}, failed ${failed} (${signals}) -> balance ${outcome.balance}, ${health}`,
    );
  }
  tally.clear();
}

// --- The example's steps: a client with a configuration at each fake provider, then what happens to it. -------------

const names = new Map();
const nameOf = (smsConfigId) => names.get(smsConfigId) ?? `#${smsConfigId}`;
let numbered = 0;

/** Dispatches one more one-time code and prints its line; the user enters two codes of every three. */
async function message(secretKey, to, tally) {
  numbered += 1;
  const code = String(100000 + numbered * 7919).slice(-6);
  const sent = await dispatch(secretKey, { to, text: `your code is ${code}`, entered: numbered % 3 !== 0 }, tally);
  console.log(`message ${numbered}: ${sent}`);
}

async function addClient(adminKey, providers) {
  const appName = `dispatch-example-${Date.now()}`;
  const { secretKey } = await registry('/api/client/add', {
    headers: { 'x-api-key': adminKey },
    body: { appName, appUrl: 'https://shop.example.com', isHost: false, preferredSmsGateway: 'budget-sms' },
  });
  for (const [name, provider, perSmsCost, destinationPrices] of [
    ['budget-sms', providers.budget, 0.01, null],
    // Cheaper for British mobiles (447) than for other British numbers (44); elsewhere, the flat perSmsCost.
    [
      'steady-sms',
      providers.steady,
      0.05,
      [
        { prefix: '44', perSmsCost: 0.045 },
        { prefix: '447', perSmsCost: 0.04 },
      ],
    ],
  ]) {
    await registry('/api/sms-config/add', {
      headers: { secretKey },
      body: {
        providerName: name,
        smsApi: `${provider.url}/send`,
        balanceUrl: `${provider.url}/balance`,
        apiKey: `${name}-api-key`,
        senderId: 'SHOP',
        smsType: 'Transactional',
        balance: name === 'budget-sms' ? 10 : 25,
        perSmsCost,
        destinationPrices,
        lowBalanceThreshold: 24.7,
      },
    });
  }
  for (const config of await registry('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })) {
    names.set(config.smsConfigId, config.providerName);
  }
  return { appName, secretKey };
}

/** An admin approves the fakes' host once: route offers, and resolve answers, only approved provider hosts. */
async function approveHost(adminKey, url) {
  const host = new URL(url).hostname;
  const listed = await registry('/api/v1/provider-hosts?limit=200', { method: 'GET', headers: { 'x-api-key': adminKey } });
  if (!listed.items.some((item) => item.host === host)) {
    await registry('/api/v1/provider-hosts', { headers: { 'x-api-key': adminKey }, body: { host, note: 'dispatch example' } });
  }
  console.log(`approved provider host ${host}`);
}

/** An admin's change to the client, found by its appName: the admin API names clients by clientId. */
async function changeClient(adminKey, appName, change) {
  const found = await registry(`/api/v1/clients?appName=${encodeURIComponent(appName)}`, {
    method: 'GET',
    headers: { 'x-api-key': adminKey },
  });
  return registry(`/api/v1/clients/${found.items[0].clientId}`, { method: 'PATCH', headers: { 'x-api-key': adminKey }, body: change });
}

async function main() {
  if (!DISPATCHER_KEY) throw new Error('set DISPATCHER_KEY to one of the keys the service was started with in DISPATCHER_API_KEYS');
  const adminKey = process.env.ADMIN_KEY || execFileSync('npm', ['run', '--silent', 'keys'], { encoding: 'utf8' }).trim();
  const budget = await fakeProvider('budget-sms', { fails: true, balance: 10 });
  const steady = await fakeProvider('steady-sms', { fails: false, balance: 25 });
  try {
    const { appName, secretKey } = await addClient(adminKey, { budget, steady });
    await approveHost(adminKey, budget.url);

    const tally = new Map();
    for (let number = 1; number <= MESSAGES; number++) {
      await message(secretKey, DESTINATION, tally);
      if (number % ROUND === 0 || number === MESSAGES) await report(tally);
    }

    // Now and then, the provider's own figure replaces the registry's count.
    const steadyId = [...names].find(([, name]) => name === 'steady-sms')[0];
    const { balance } = await (await fetch(`${steady.url}/balance`)).json();
    const outcome = await registry('/api/v1/dispatch/outcomes', {
      headers: { 'x-api-key': DISPATCHER_KEY },
      body: { smsConfigId: steadyId, sent: 0, failed: 0, balance },
    });
    console.log(`balance of steady-sms set from the provider: ${outcome.balance}`);

    // The client serves the United Kingdom and France: a message elsewhere is refused, as one sent with a leaked key would be.
    const { allowedDestinations } = await changeClient(adminKey, appName, { allowedDestinations: ['44', '33'] });
    console.log(`allowed destinations set by the admin: ${allowedDestinations.join(', ')}`);
    await message(secretKey, ELSEWHERE, tally);

    // A day's messages capped one above what was sent: the next is sent, and the one after is skipped whatever its price.
    const { sentToday, spentToday } = await changeClient(adminKey, appName, { dailySmsLimit: MESSAGES + 1 });
    console.log(`daily sms limit set by the admin: ${MESSAGES + 1} (sent today ${sentToday}, spent today ${spentToday})`);
    await message(secretKey, DESTINATION, tally);
    await report(tally);
    await message(secretKey, DESTINATION, tally);
  } finally {
    budget.server.close();
    steady.server.close();
  }
}

main().catch((error) => {
  console.error(`dispatch-example: ${error.message}`);
  process.exit(1);
});
