#!/usr/bin/env node
'use strict';
// The loop an SMS dispatcher runs (docs/dispatching.md), against a running service and two fake providers this script
// serves itself on 127.0.0.1: "budget-sms", the cheapest, fails every send; "steady-sms" sends. Start the service with
// DISPATCHER_API_KEYS set and ALLOW_PRIVATE_PROVIDER_HOSTS=true (the fakes are local), then:
//   DISPATCHER_KEY=<one of DISPATCHER_API_KEYS> node scripts/dispatch-example.js
// env: BASE_URL (http://127.0.0.1:3000), ADMIN_KEY (default: the development admin key, `npm run --silent keys`),
//      MESSAGES (9). It adds a client with the two configurations, sends MESSAGES messages in rounds of 3, reporting
// after each round, and prints one line per message and per report; it exits 1 at the first unexpected answer.
const http = require('node:http');
const { execFileSync } = require('node:child_process');
const { randomUUID } = require('node:crypto');

const BASE_URL = process.env.BASE_URL || 'http://127.0.0.1:3000';
const DISPATCHER_KEY = process.env.DISPATCHER_KEY;
const MESSAGES = Number(process.env.MESSAGES || 9);
const ROUND = 3;

/** A provider as the fakes play it: POST /send answers 200 or 503, GET /balance its balance. */
function fakeProvider(name, { fails, balance }) {
  const server = http.createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/balance') return response.end(JSON.stringify({ balance }));
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const authorized = request.headers.authorization === `Bearer ${name}-api-key`;
      if (fails || !authorized) return response.writeHead(503).end(JSON.stringify({ error: `${name} is down` }));
      balance = Math.round((balance - 0.05) * 1e6) / 1e6;
      response.end(JSON.stringify({ accepted: JSON.parse(body).to }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })),
  );
}

/** POST to the registry; anything but 200 stops the example with the service's error. */
async function registry(path, { headers = {}, body, method = 'POST' } = {}) {
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
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

async function sendThrough(config, message) {
  try {
    const response = await fetch(config.smsApi, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ from: config.senderId, to: message.to, text: message.text }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** One message: the candidates in the registry's order, until one sends; every attempt tallied for the next report. */
async function dispatch(secretKey, message, tally) {
  const route = await registry('/api/v1/dispatch/route', {
    headers: { 'x-api-key': DISPATCHER_KEY, secretKey },
    body: { smsType: 'Transactional', count: 1 },
  });
  const skipped = route.skipped.map(({ smsConfigId, reason }) => `${nameOf(smsConfigId)} ${reason}`).join(', ') || 'none';
  const tried = [];
  for (const candidate of route.candidates) {
    const sent = await sendThrough(await credentialsOf(candidate), message);
    const counts = tally.get(candidate.smsConfigId) ?? { sent: 0, failed: 0 };
    counts[sent ? 'sent' : 'failed'] += 1;
    tally.set(candidate.smsConfigId, counts);
    tried.push(candidate.providerName);
    if (sent) return `sent through ${candidate.providerName} (tried: ${tried.join(', ')}; skipped: ${skipped})`;
  }
  return `not sent (tried: ${tried.join(', ') || 'nothing'}; skipped: ${skipped})`;
}

/** The round's counts, one report per configuration used. */
async function report(tally) {
  for (const [smsConfigId, counts] of tally) {
    // A key per batch: a retry of it after no answer is counted once.
    const outcome = await registry('/api/v1/dispatch/outcomes', {
      headers: { 'x-api-key': DISPATCHER_KEY, 'idempotency-key': randomUUID() },
      body: { smsConfigId, ...counts },
    });
    const health = outcome.healthy ? 'healthy' : `unhealthy until ${outcome.unhealthyUntil}`;
    console.log(`report ${nameOf(smsConfigId)}: sent ${counts.sent}, failed ${counts.failed} -> balance ${outcome.balance}, ${health}`);
  }
  tally.clear();
}

// --- The example's setup: a client with a configuration at each fake provider. --------------------------------------

const names = new Map();
const nameOf = (smsConfigId) => names.get(smsConfigId) ?? `#${smsConfigId}`;

async function main() {
  if (!DISPATCHER_KEY) throw new Error('set DISPATCHER_KEY to one of the keys the service was started with in DISPATCHER_API_KEYS');
  const adminKey = process.env.ADMIN_KEY || execFileSync('npm', ['run', '--silent', 'keys'], { encoding: 'utf8' }).trim();
  const budget = await fakeProvider('budget-sms', { fails: true, balance: 10 });
  const steady = await fakeProvider('steady-sms', { fails: false, balance: 25 });
  try {
    const { secretKey } = await registry('/api/client/add', {
      headers: { 'x-api-key': adminKey },
      body: {
        appName: `dispatch-example-${Date.now()}`,
        appUrl: 'https://shop.example.com',
        isHost: false,
        preferredSmsGateway: 'budget-sms',
      },
    });
    for (const [name, provider, perSmsCost] of [
      ['budget-sms', budget, 0.01],
      ['steady-sms', steady, 0.05],
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
          lowBalanceThreshold: 24.7,
        },
      });
    }
    // An admin approves the fakes' host once: route offers, and resolve answers, only approved provider hosts.
    const host = new URL(budget.url).hostname;
    const listed = await registry('/api/v1/provider-hosts?limit=200', { method: 'GET', headers: { 'x-api-key': adminKey } });
    if (!listed.items.some((item) => item.host === host)) {
      await registry('/api/v1/provider-hosts', { headers: { 'x-api-key': adminKey }, body: { host, note: 'dispatch example' } });
    }
    console.log(`approved provider host ${host}`);
    for (const config of await registry('/api/sms-config/get-all-by-client-id', { headers: { secretKey } })) {
      names.set(config.smsConfigId, config.providerName);
    }

    const tally = new Map();
    for (let number = 1; number <= MESSAGES; number++) {
      console.log(`message ${number}: ${await dispatch(secretKey, { to: '+15550100', text: `order ${number} shipped` }, tally)}`);
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
  } finally {
    budget.server.close();
    steady.server.close();
  }
}

main().catch((error) => {
  console.error(`dispatch-example: ${error.message}`);
  process.exit(1);
});
