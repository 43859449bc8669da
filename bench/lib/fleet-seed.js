'use strict';
// Seeding of the fleet (lib/fleet.js): through the service's API with the requests lib/seed.js sends (admin key and
// the same client body for add-client, the client's own key and the e2e sample for add-sms-config), but over
// keep-alive connections of node:http: fetch() cost the bench about 400 µs of CPU per write (this, 140), a third of
// the machine's work while seeding on 2 cores.
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { isDeepStrictEqual } = require('node:util');

const cpu = require('./cpu');
const seed = require('./seed');

// Tasks at a time, each adding a client and then its configurations one after the other. Measured with 5,000 clients
// (7,500 configurations) on 2 cores: 945 writes/s at 8, 1121 at 16, 774 at 32 (more writers only contend).
const SEED_CONCURRENCY = 16;
const PROGRESS_MS = 5000;
const TIMEOUT_MS = 10000;
// Keys whose answers are checked on both targets after each seeding (spread over the new clients, first and last too).
const CHECKED_KEYS = 50;
let retried503s = 0;

const progress = (message) => process.stderr.write(`[bench] ${message}\n`);

/** One configuration for even clients, two for odd ones: answers of both sizes, as a real fleet has. */
const configsOf = (fleetIndex) => 1 + (fleetIndex % 2);

/** POST with a JSON body over the agent's keep-alive connections; resolves with { status, text }. */
function poster(baseUrl, agent) {
  const { hostname, port } = new URL(baseUrl);
  return (path, headers, body) =>
    new Promise((resolve, reject) => {
      const payload = Buffer.from(JSON.stringify(body));
      const request = http.request(
        {
          agent,
          hostname,
          port,
          path,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': payload.length, ...headers },
          timeout: TIMEOUT_MS,
        },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`POST ${path}: no answer after ${TIMEOUT_MS} ms`)));
      request.on('error', reject);
      request.end(payload);
    });
}

function expect2xx(what, { status, text }) {
  if (status < 200 || status > 299) throw new Error(`${what} answered ${status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** One client (number n) and its configurations; resolves with its secretKey. */
async function seedClient(post, n, configs) {
  const added = expect2xx('POST /api/client/add', await post('/api/client/add', { 'x-api-key': seed.ADMIN_API_KEY }, seed.clientBody(n)));
  const secretKey = added.results?.secretKey;
  if (!secretKey) throw new Error(`POST /api/client/add gave no results.secretKey: ${JSON.stringify(added)}`);
  for (let c = 0; c < configs; c++) {
    let answer = await post('/api/sms-config/add', { secretKey }, seed.SMS_CONFIG_BODY);
    // A build before the add stopped deadlocking answered a few 503s under the seeding's concurrency: they are counted, then retried.
    for (let retry = 0; answer.status === 503 && retry < 3; retry++) {
      retried503s++;
      answer = await post('/api/sms-config/add', { secretKey }, seed.SMS_CONFIG_BODY);
    }
    expect2xx('POST /api/sms-config/add', answer);
  }
  return secretKey;
}

/**
 * Adds `count` clients to the fleet through the service at baseUrl, numbered from clientNumbers.take(count), and
 * appends their keys to `keys`; progress every few seconds with the rate. Resolves with the figures of the seeding,
 * CPU per write of the processes in pids (service, mariadb, rabbitmq) and of the bench included.
 */
async function seedFleet({ baseUrl, pids, concurrency = SEED_CONCURRENCY }, keys, count, clientNumbers) {
  const firstIndex = keys.length;
  const firstNumber = clientNumbers.take(count);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const post = poster(baseUrl, agent);
  let clients = 0;
  let smsConfigs = 0;
  const start = performance.now();
  const countCpu = cpu.startCounting(pids);
  const rate = () => Math.round((clients + smsConfigs) / ((performance.now() - start) / 1000));
  const ticker = setInterval(
    () => progress(`fleet seeding: ${clients}/${count} clients, ${smsConfigs} configurations, ${rate()} writes/s`),
    PROGRESS_MS,
  );
  let added;
  try {
    added = await seed.mapConcurrently(count, concurrency, async (i) => {
      const configs = configsOf(firstIndex + i);
      const key = await seedClient(post, firstNumber + i, configs);
      clients++;
      smsConfigs += configs;
      return key;
    });
  } finally {
    clearInterval(ticker);
    agent.destroy();
  }
  for (const key of added) keys.push(key);
  const seconds = (performance.now() - start) / 1000;
  const seeding = {
    clients,
    smsConfigs,
    seconds,
    writesPerSecond: (clients + smsConfigs) / seconds,
    concurrency,
    cpuMicrosPerWrite: countCpu(clients + smsConfigs),
  };
  const perWrite = Object.entries(seeding.cpuMicrosPerWrite).map(([name, micros]) => `${name} ${Math.round(micros)}`);
  progress(
    `fleet seeding: ${clients} clients + ${smsConfigs} configurations in ${seconds.toFixed(1)} s ` +
      `(${Math.round(seeding.writesPerSecond)} writes/s, ${concurrency} at a time; CPU µs/write: ${perWrite.join(', ')}); ` +
      `fleet now ${keys.length} clients; adds retried after a 503 so far: ${retried503s}`,
  );
  return seeding;
}

/** Both targets must answer 200 for keys spread over keys[from..]; the baseline should say what the service says. */
async function checkAnswers(urls, keys, from) {
  const count = Math.min(CHECKED_KEYS, keys.length - from);
  let differing = 0;
  for (let i = 0; i < count; i++) {
    const key = keys[from + Math.round((i * (keys.length - from - 1)) / Math.max(1, count - 1))];
    const answers = {};
    for (const target of ['service', 'baseline']) {
      answers[target] = await seed.getClient(urls[target], key);
      if (answers[target].status !== 200) {
        throw new Error(`${target} get-client answered ${answers[target].status} for a fleet key: ${answers[target].text}`);
      }
    }
    if (!isDeepStrictEqual(JSON.parse(answers.baseline.text), JSON.parse(answers.service.text)) && differing++ === 0) {
      progress(
        'WARNING: baseline and service get-client answers differ for a fleet key:\n' +
          `  service:  ${answers.service.text}\n  baseline: ${answers.baseline.text}`,
      );
    }
  }
  return { checked: count, differing };
}

module.exports = { SEED_CONCURRENCY, configsOf, seedFleet, checkAnswers };
