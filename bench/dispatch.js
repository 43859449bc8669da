'use strict';
// Dispatch's two routes beside get-client, in one run on one MariaDB database, as a dispatcher calls them: many clients
// and many configurations in turns, never one hot key.
//   npm run bench:dispatch          (builds, then runs dist/main.js)
//   npm run bench:dispatch -- <before/dist/main.js>   the same, with another build beside it in every round: each
//        scenario is measured on both, in alternating order, and the table adds the other build's req/s and the ratio
//   env: ROUNDS (3), BENCH_DURATION (s, 10), BENCH_WARMUP (s, 3), BENCH_CONNECTIONS (50), DISPATCH_CLIENTS (500, each
//        with 3 configurations), DISPATCH_WIDE_CLIENTS (20, each with 100 configurations of 300 destination prices),
//        BENCH_DATABASE (registry_dispatch), BENCH_PORT (3130)
// Each round runs the scenarios one after another, in turns, so that the machine's drift hits each alike; the
// table gives each scenario's median req/s, p50 and p99 over the rounds, and its req/s as a share of get-client's.
// get-client is answered from the cache; route reads the client and its configurations and seals a token per
// candidate; an outcome report is a transaction that locks the client and the configuration in one read and writes
// both (the balance, the daily sums) in one UPDATE.
// The wide clients' route, without and with a destination, measures the lookup of a destination's price: their
// prices are written straight into destination_price, 30,000 a client, ten times what the API lets a client keep, so
// that each of the destination's prefixes matches a row on all 100 configurations.
// The delivery signals (DECISIONS 24), on the ordinary clients: "route to <destinations>, 3 configurations" is route with
// a destination, the clients in turns against 997 British and French mobile numbers in 200 ranges (no hot range), so
// that each route also sums its configurations' receipts at the calling code; "outcomes to <destinations>" reports
// sent 10 to those numbers, and, on a build that takes them, delivered 9, undelivered 1, codesSent 10 and verified 8
// (each build is probed once at start with a report carrying `delivered`: the build before answers 400, and its reports
// carry the destination only; the table says which body each build got). Such a report adds the receipts per
// configuration and calling code, and feeds the client's pumping guard (monitor, the default) under its row lock. On
// a build that takes them, every client is given a learned baseline first (yesterday's highest window, written
// straight into pumping_baseline), so that velocity does not fire: the run measures the guard once it has learned each
// client's traffic, not the first days after the upgrade, when each busy range of a client is suspected once.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const mysql = require('mysql2/promise');

const children = require('./lib/children');
const { recreateDatabase } = require('./lib/database');
const { markdownTable, median } = require('./lib/report');
const seed = require('./lib/seed');
const { serviceEnv } = require('./lib/service');
const { runLoad } = require('./lib/load');
const { DESTINATIONS, DESTINATIONS_LABEL, receiptsOf, seedLearnedBaselines, takesReceipts } = require('./lib/delivery-signals');

const ROOT = path.resolve(__dirname, '..');
const DATABASE = process.env.BENCH_DATABASE || 'registry_dispatch';
const SERVER_URL = 'mysql://root@127.0.0.1:3306';
const PORT = Number(process.env.BENCH_PORT || 3130);
const params = {
  rounds: Number(process.env.ROUNDS || 3),
  seconds: Number(process.env.BENCH_DURATION || 10),
  warmupSeconds: Number(process.env.BENCH_WARMUP || 3),
  connections: Number(process.env.BENCH_CONNECTIONS || 50),
  clients: Number(process.env.DISPATCH_CLIENTS || 500),
};
const CONFIGS_PER_CLIENT = 3;
const WIDE_CLIENTS = Number(process.env.DISPATCH_WIDE_CLIENTS || 20);
const WIDE_CONFIGS_PER_CLIENT = 100;
const PRICES_PER_CONFIG = 300;
const DESTINATION = '+447700900123';
const progress = (message) => process.stderr.write(`[dispatch] ${message}\n`);
const JSON_HEADERS = { 'content-type': 'application/json' };
const SENT_PER_REPORT = 10;
const ROUTE_TO_DESTINATIONS = `route to ${DESTINATIONS_LABEL}, ${CONFIGS_PER_CLIENT} configurations`;
const OUTCOMES_TO_DESTINATIONS = `outcomes to ${DESTINATIONS_LABEL}`;

/** autocannon options sending `bodies[i]` with `headers[i]`, i in turns: each request for the next client or configuration. */
function inTurns(headersOf, bodies) {
  let next = 0;
  return {
    method: 'POST',
    requests: [
      {
        setupRequest(request) {
          const index = next++ % bodies.length;
          request.headers = { ...request.headers, ...headersOf(index) };
          request.body = bodies[index];
          return request;
        },
      },
    ],
  };
}

/** autocannon options sending request n with `headersOf(n % count)` and `bodyOf(n)`: two lists in turns, each pair in time. */
function crossed(headersOf, count, bodyOf) {
  let next = 0;
  return {
    method: 'POST',
    requests: [
      {
        setupRequest(request) {
          const n = next++;
          request.headers = { ...request.headers, ...headersOf(n % count) };
          request.body = bodyOf(n);
          return request;
        },
      },
    ],
  };
}

function scenarios(keys, smsConfigIds, wideKeys, withReceipts) {
  const noBodies = keys.map(() => undefined);
  const routeBody = Buffer.from(JSON.stringify({ smsType: 'Transactional', count: 1 }));
  const routeOf = (secretKeys, body) =>
    inTurns(
      (i) => ({ ...JSON_HEADERS, 'x-api-key': seed.DISPATCHER_API_KEY, secretKey: secretKeys[i] }),
      secretKeys.map(() => body),
    );
  const destinationBody = Buffer.from(JSON.stringify({ smsType: 'Transactional', count: 1, destination: DESTINATION }));
  const destinationBodies = DESTINATIONS.map((destination) =>
    Buffer.from(JSON.stringify({ smsType: 'Transactional', count: 1, destination })),
  );
  const receipts = withReceipts ? receiptsOf(SENT_PER_REPORT) : {};
  const outcomeTo = (smsConfigId, destination) =>
    Buffer.from(JSON.stringify({ smsConfigId, sent: SENT_PER_REPORT, failed: 0, ...receipts, destination }));
  return [
    { name: 'get-client', path: '/api/client/get/secretKey', options: inTurns((i) => ({ secretKey: keys[i] }), noBodies) },
    {
      name: 'route',
      path: '/api/v1/dispatch/route',
      options: inTurns(
        (i) => ({ ...JSON_HEADERS, 'x-api-key': seed.DISPATCHER_API_KEY, secretKey: keys[i] }),
        keys.map(() => routeBody),
      ),
    },
    {
      name: 'outcomes',
      path: '/api/v1/dispatch/outcomes',
      options: inTurns(
        () => ({ ...JSON_HEADERS, 'x-api-key': seed.DISPATCHER_API_KEY }),
        smsConfigIds.map((smsConfigId) => Buffer.from(JSON.stringify({ smsConfigId, sent: 10, failed: 0 }))),
      ),
    },
    {
      name: ROUTE_TO_DESTINATIONS,
      path: '/api/v1/dispatch/route',
      options: crossed(
        (i) => ({ ...JSON_HEADERS, 'x-api-key': seed.DISPATCHER_API_KEY, secretKey: keys[i] }),
        keys.length,
        (n) => destinationBodies[n % destinationBodies.length],
      ),
    },
    {
      name: OUTCOMES_TO_DESTINATIONS,
      path: '/api/v1/dispatch/outcomes',
      options: crossed(
        () => ({ ...JSON_HEADERS, 'x-api-key': seed.DISPATCHER_API_KEY }),
        1,
        (n) => outcomeTo(smsConfigIds[n % smsConfigIds.length], DESTINATIONS[n % DESTINATIONS.length]),
      ),
    },
    { name: 'route, 100 configurations', path: '/api/v1/dispatch/route', options: routeOf(wideKeys, routeBody) },
    {
      name: `route to ${DESTINATION}, 100 configurations x 300 prices`,
      path: '/api/v1/dispatch/route',
      options: routeOf(wideKeys, destinationBody),
    },
  ];
}

/** Each configuration's 300 prices: the destination's 44, 447 and 4477, at prices that differ between configurations, and 297 others. */
async function insertDestinationPrices(database, clientId, smsConfigIds) {
  const connection = await mysql.createConnection({ uri: `${SERVER_URL}/${database}` });
  try {
    for (const [index, smsConfigId] of smsConfigIds.entries()) {
      const micros = (prefix, base) => base + ((index * 7919 + prefix.length * 104729) % 10000);
      const prices = [
        ['44', micros('44', 40000)],
        ['447', micros('447', 30000)],
        ['4477', micros('4477', 20000)],
        ...Array.from({ length: PRICES_PER_CONFIG - 3 }, (_, j) => [`2${String(j).padStart(3, '0')}`, 10000 + j]),
      ];
      const rows = prices.map(([prefix, value], position) => [smsConfigId, prefix, clientId, position, (value / 1e6).toFixed(6), value]);
      await connection.query(
        'INSERT INTO destination_price (sms_config_id, prefix, client_id, position, per_sms_cost, per_sms_cost_micros) VALUES ?',
        [rows],
      );
    }
  } finally {
    await connection.end();
  }
}

/** Clients of 100 configurations each, every configuration with 300 prices. */
async function seedWideClients(url, database) {
  progress(`seeding ${WIDE_CLIENTS} clients with ${WIDE_CONFIGS_PER_CLIENT} configurations of ${PRICES_PER_CONFIG} prices each`);
  const keys = await seed.addClients(url, params.clients + 1, WIDE_CLIENTS);
  await seed.addSmsConfigTokens(url, keys, WIDE_CONFIGS_PER_CLIENT);
  for (const secretKey of keys) {
    const listed = seed.expect2xx('list', await seed.post(`${url}/api/sms-config/get-all-by-client-id`, { headers: { secretKey } }));
    const smsConfigIds = listed.results.map(({ smsConfigId }) => smsConfigId);
    const routed = await seed.post(`${url}/api/v1/dispatch/route`, {
      headers: { 'x-api-key': seed.DISPATCHER_API_KEY, secretKey },
      body: {},
    });
    const { clientId } = seed.expect2xx('route', routed).results;
    await insertDestinationPrices(database, clientId, smsConfigIds);
  }
  return keys;
}

/** One build on a new database of its own, seeded alike: its clients, their configurations and their ids. */
async function startSeeded(name, mainJs, port, database) {
  await recreateDatabase({ serverUrl: SERVER_URL, database });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dispatch-bench-'));
  const encryptionKey = require('node:crypto').randomBytes(32).toString('base64');
  const env = serviceEnv({ port, encryptionKey, dataDir, DATABASE_URL: `${SERVER_URL}/${database}` });
  const service = children.startNodeChild(name, [mainJs], { cwd: ROOT, env });
  const url = `http://127.0.0.1:${port}`;
  await children.waitForHttp200(service, `${url}/health`);

  progress(`${name}: seeding ${params.clients} clients with ${CONFIGS_PER_CLIENT} configurations each`);
  const keys = await seed.addClients(url, 1, params.clients);
  await seed.addSmsConfigTokens(url, keys, CONFIGS_PER_CLIENT);
  // A balance no report of the run can spend, so that every route has candidates.
  const smsConfigIds = [];
  for (const secretKey of keys) {
    const listed = seed.expect2xx('list', await seed.post(`${url}/api/sms-config/get-all-by-client-id`, { headers: { secretKey } }));
    for (const { smsConfigId } of listed.results) {
      const patch = await fetch(`${url}/api/v1/sms-configs/${smsConfigId}`, {
        method: 'PATCH',
        headers: { ...JSON_HEADERS, secretKey },
        body: JSON.stringify({ balance: 999_999_999 }),
      });
      if (patch.status !== 200) throw new Error(`PATCH balance answered ${patch.status}`);
      smsConfigIds.push(smsConfigId);
    }
  }
  const wideKeys = await seedWideClients(url, database);
  const withReceipts = await takesReceipts(url, smsConfigIds[0]);
  progress(
    `${name}: ${withReceipts ? 'takes receipts and codes; baselines learned' : 'refuses receipts (400): reports carry the destination only'}`,
  );
  if (withReceipts) await seedLearnedBaselines(`${SERVER_URL}/${database}`);
  return { name, service, url, withReceipts, runs: scenarios(keys, smsConfigIds, wideKeys, withReceipts) };
}

async function main() {
  children.installCleanup();
  const before = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const builds = [await startSeeded('service', path.join(ROOT, 'dist', 'main.js'), PORT, DATABASE)];
  if (before) builds.push(await startSeeded('before', before, PORT + 1, `${DATABASE}_before`));

  const names = builds[0].runs.map(({ name }) => name);
  const results = Object.fromEntries(builds.map((build) => [build.name, Object.fromEntries(names.map((name) => [name, []]))]));
  for (const build of builds) {
    for (const { name, path: route, options } of build.runs) {
      progress(`warm-up ${build.name} ${name}`);
      await runLoad(autocannon, { url: `${build.url}${route}`, connections: params.connections, seconds: params.warmupSeconds, options });
    }
  }
  for (let round = 1; round <= params.rounds; round++) {
    for (const [index, name] of (round % 2 ? names : [...names].reverse()).entries()) {
      // The builds take turns going first, so that neither always runs on a machine the other has just warmed.
      for (const build of (round + index) % 2 ? builds : [...builds].reverse()) {
        const { path: route, options } = build.runs.find((run) => run.name === name);
        const result = await runLoad(autocannon, {
          url: `${build.url}${route}`,
          connections: params.connections,
          seconds: params.seconds,
          options,
        });
        if (result.failed > 0)
          throw new Error(`${build.name} ${name}: ${result.failed} requests failed (${JSON.stringify(result.statusCodes)})`);
        results[build.name][name].push(result);
        progress(`${build.name} ${name} round ${round}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms`);
      }
    }
  }
  for (const build of builds) await children.stopChild(build.service);

  const rpsOf = (build, name) => median(results[build][name].map((result) => result.rps));
  const bodyOf = (build) => `${build.name}: ${build.withReceipts ? 'with receipts and codes' : 'destination only, receipts refused'}`;
  const rows = names.map((name) => {
    const rps = rpsOf('service', name);
    const row = [
      name === OUTCOMES_TO_DESTINATIONS ? `${name} (${builds.map(bodyOf).join('; ')})` : name,
      String(Math.round(rps)),
      `${median(results.service[name].map((result) => result.p50))} ms`,
      `${median(results.service[name].map((result) => result.p99))} ms`,
      `${(rps / rpsOf('service', 'get-client')).toFixed(3)}x`,
    ];
    if (before) row.push(String(Math.round(rpsOf('before', name))), `${(rps / rpsOf('before', name)).toFixed(3)}x`);
    return row;
  });
  console.log(
    `${params.rounds} rounds x ${params.seconds} s per scenario${before ? ' and build' : ''}, ${params.connections} connections, ` +
      `${params.clients} clients with ${CONFIGS_PER_CLIENT} configurations each, and ${WIDE_CLIENTS} with ` +
      `${WIDE_CONFIGS_PER_CLIENT} configurations of ${PRICES_PER_CONFIG} prices each, requests in turns over them (MariaDB). ` +
      `Reports with a destination send ${SENT_PER_REPORT} messages each to one of ${DESTINATIONS.length} numbers.\n`,
  );
  const header = ['scenario', 'req/s (median)', 'p50', 'p99', 'req/s / get-client'];
  if (before) header.push('before: req/s', 'this / before');
  console.log(markdownTable(header, rows, 1));
}

main().catch((error) => {
  console.error(error);
  process.exit(1); // installCleanup's exit handler kills the services
});
