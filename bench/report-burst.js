'use strict';
// A burst of outcome reports, as the dispatcher's fleet sends them: BURST reports at the same instant, in turns over two
// instances of the service on one MariaDB database. An outcome report is a transaction that locks the configuration's
// client row and the configuration row and debits the balance (and, from 2035a48, adds to the client's spentToday and
// sentToday on that row): the reports of one client wait for each other on its row lock. From 05d7351 the reports on one
// configuration that reach an instance while it holds that lock are taken together by its next transaction, up to 100.
//   npm run bench:report-burst          (builds, then runs dist/main.js)
//   npm run bench:report-burst -- <before/dist/main.js>   the same, with another build in every round: each build has
//        its own two instances and its own database, and only one build's instances run at a time (2 cores)
//   env: BURST (1000), ROUNDS (5), IDEMPOTENT (unset; 1: each report with an Idempotency-Key of its own, as the
//        dispatcher is told to send them), BENCH_DATABASE (registry_burst; the other build's is <it>_before),
//        BENCH_PORT (3140: the two instances on it and +1), DESTINATIONS (unset; 1: each report with a destination, in
//        turns over 997 British and French mobile numbers in 200 ranges, and, on a build that takes them, the receipts
//        and codes of DECISIONS 24: delivered 1, codesSent 1, verified 1; each build is probed once with a report
//        carrying `delivered`, which the build before answers 400, and the summary says which body each build got)
// Scenarios, each round, both on each build:
//   one-configuration  every report on the one configuration of one client (one lock, hot)
//   spread             the reports in turns over 100 configurations of 20 clients (5 each): the same work, no hot lock
// Measured for each burst: the time from the first send to the last answer, each report's latency (p50, p99, from its
// own send to its answer's end) and the statuses (200, 503: past the 4.5 s request deadline, other: any other status
// or a connection error). Then checked: the configurations' balances went down by perSmsCost (0.001) for every report
// answered 200 and by no more than the burst (a 503 may still be debited when its transaction ends after the deadline),
// and, where the admin view has sentToday, that it grew by as many reports as the balances were debited for.
// The table gives medians over the rounds of each burst's figures, statuses summed, and the ratio one-configuration /
// spread of the time to the last answer: what the one lock costs on top of the same work spread. A failed check
// (a debit lost or counted twice) exits non-zero; 503s do not: they are a measured result.
// Before each burst every socket is opened and left idle (keep-alive), as a fleet's are: the burst measures requests,
// not TCP handshakes. After each (re)start an instance gets a warm-up of reports, unmeasured.
// With DESTINATIONS=1 a report also adds the receipts per configuration and calling code and feeds the client's pumping
// guard (monitor, the default) under the same lock. On a build that takes receipts, every client is first given a
// learned baseline (yesterday's highest window, written straight into pumping_baseline), so that velocity does not
// fire: the bursts measure the guard once it has learned the traffic, not the first days after the upgrade.
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const children = require('./lib/children');
const { recreateDatabase } = require('./lib/database');
const { markdownTable, median } = require('./lib/report');
const seed = require('./lib/seed');
const { serviceEnv } = require('./lib/service');
const { DESTINATIONS, receiptsOf, seedLearnedBaselines, takesReceipts } = require('./lib/delivery-signals');

const ROOT = path.resolve(__dirname, '..');
const DATABASE = process.env.BENCH_DATABASE || 'registry_burst';
const SERVER_URL = 'mysql://root@127.0.0.1:3306';
const PORT = Number(process.env.BENCH_PORT || 3140);
const params = {
  burst: Number(process.env.BURST || 1000),
  rounds: Number(process.env.ROUNDS || 5),
  idempotent: process.env.IDEMPOTENT === '1',
  destinations: process.env.DESTINATIONS === '1',
};
const SPREAD_CLIENTS = 20;
const SPREAD_CONFIGS_PER_CLIENT = 5;
const PER_SMS_COST = 0.001;
const PER_SMS_COST_MICROS = 1000n;
const BALANCE = 999_999_999;
const WARMUP_REPORTS = 200; // per instance after each start, 10 at a time
const SETTLE_TIMEOUT_MS = 120000;
const SCENARIOS = ['one-configuration', 'spread'];
const JSON_HEADERS = { 'content-type': 'application/json' };
const progress = (message) => process.stderr.write(`[report-burst] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An amount of the API (a JSON number or exact text) in micros. */
function microsOf(amount) {
  const text = typeof amount === 'number' ? amount.toFixed(6) : String(amount);
  const [units, fraction = ''] = text.split('.');
  const sign = units.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(units.replace('-', '')) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6)));
}

async function getJson(url, headers) {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(30000) });
  const text = await response.text();
  return seed.expect2xx(`GET ${url}`, { status: response.status, text });
}

/** One report over `agent`; resolves with its status (0: no answer) and its latency. */
function sendReport(agent, port, body, idempotencyKey) {
  return new Promise((resolve) => {
    const startedAt = performance.now();
    const request = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/dispatch/outcomes',
        headers: {
          ...JSON_HEADERS,
          'content-length': body.length,
          'x-api-key': seed.DISPATCHER_API_KEY,
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
      },
      (response) => {
        response.resume();
        response.once('end', () => resolve({ status: response.statusCode, ms: performance.now() - startedAt }));
        response.once('error', () => resolve({ status: 0, ms: performance.now() - startedAt }));
      },
    );
    request.setTimeout(60000, () => request.destroy(new Error('timeout')));
    request.once('error', () => resolve({ status: 0, ms: performance.now() - startedAt }));
    request.end(body);
  });
}

/** Opens `count` keep-alive sockets on the agent (a /health each, all at once) and leaves them idle. */
async function openSockets(agent, port, count) {
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const request = http.get({ agent, host: '127.0.0.1', port, path: '/health' }, (response) => {
            response.resume();
            response.once('end', resolve);
          });
          request.once('error', reject);
        }),
    ),
  );
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Report i of a burst or a warm-up: sent 1, and with DESTINATIONS=1 a destination (and receipts, if the build takes them). */
function reportBody(build, smsConfigId, i) {
  if (!params.destinations) return { smsConfigId, sent: 1, failed: 0 };
  return {
    smsConfigId,
    sent: 1,
    failed: 0,
    ...(build.withReceipts ? receiptsOf(1) : {}),
    destination: DESTINATIONS[i % DESTINATIONS.length],
  };
}

/** BURST reports at once: report i on configuration smsConfigIds[i % length], to instance i % 2. */
async function burst(build, smsConfigIds) {
  const { instances } = build;
  const bodies = Array.from({ length: params.burst }, (_, i) =>
    Buffer.from(JSON.stringify(reportBody(build, smsConfigIds[i % smsConfigIds.length], i))),
  );
  const perInstance = Math.ceil(params.burst / instances.length);
  const agents = instances.map(() => new http.Agent({ keepAlive: true, maxSockets: perInstance, maxFreeSockets: perInstance }));
  try {
    await Promise.all(instances.map(({ port }, i) => openSockets(agents[i], port, perInstance)));
    const startedAt = performance.now();
    const answers = await Promise.all(
      bodies.map((body, i) =>
        sendReport(
          agents[i % instances.length],
          instances[i % instances.length].port,
          body,
          params.idempotent ? crypto.randomUUID() : undefined,
        ),
      ),
    );
    const totalMs = performance.now() - startedAt;
    const latencies = answers.map(({ ms }) => ms).sort((a, b) => a - b);
    const statuses = { 200: 0, 503: 0, other: 0 };
    for (const { status } of answers) statuses[status === 200 || status === 503 ? status : 'other']++;
    return { totalMs, p50: percentile(latencies, 50), p99: percentile(latencies, 99), statuses };
  } finally {
    for (const agent of agents) agent.destroy();
  }
}

/** The balances (micros) of a scenario's configurations, summed, and the sentToday of its clients, summed (or undefined). */
async function readState(url, scenario) {
  let balanceMicros = 0n;
  for (const { smsConfigId, secretKey } of scenario.configs) {
    const { results } = await getJson(`${url}/api/v1/sms-configs/${smsConfigId}`, { secretKey });
    balanceMicros += microsOf(results.balance);
  }
  let sentToday = 0;
  for (const clientId of scenario.clientIds) {
    const { results } = await getJson(`${url}/api/v1/clients/${clientId}`, { 'x-api-key': seed.ADMIN_API_KEY });
    if (!('sentToday' in results)) return { balanceMicros, sentToday: undefined };
    sentToday += Number(results.sentToday);
  }
  return { balanceMicros, sentToday };
}

/** The state once it stops changing: reports answered 503 may still be in their transactions. */
async function settledState(url, scenario) {
  const deadline = performance.now() + SETTLE_TIMEOUT_MS;
  let last = await readState(url, scenario);
  for (;;) {
    await sleep(1000);
    const now = await readState(url, scenario);
    if (now.balanceMicros === last.balanceMicros && now.sentToday === last.sentToday) return now;
    if (performance.now() > deadline)
      throw new Error(`${scenario.name}: the balances still change ${SETTLE_TIMEOUT_MS} ms after the burst`);
    last = now;
  }
}

const utcDay = () => new Date().toISOString().slice(0, 10);

/** One scenario's burst on a build's two instances, and its checks. */
async function runScenario(build, scenario) {
  const url = build.instances[0].url;
  const before = await readState(url, scenario);
  const dayBefore = utcDay();
  const result = await burst(build, scenario.smsConfigIds);
  const after = result.statuses[200] === params.burst ? await readState(url, scenario) : await settledState(url, scenario);
  const debitedMicros = before.balanceMicros - after.balanceMicros;
  const debited = Number(debitedMicros / PER_SMS_COST_MICROS);
  const failures = [];
  if (debitedMicros % PER_SMS_COST_MICROS !== 0n)
    failures.push(`the balances went down by ${debitedMicros} micros, not a multiple of perSmsCost`);
  if (debited < result.statuses[200]) failures.push(`${result.statuses[200]} reports answered 200 but ${debited} debited: a debit lost`);
  if (debited > params.burst) failures.push(`${debited} debits for ${params.burst} reports: a report counted twice`);
  if (result.statuses[200] === params.burst && debited !== params.burst)
    failures.push(`every report answered 200 but the balances went down by ${debited} x ${PER_SMS_COST}, not ${params.burst} x`);
  let sentTodayGrowth;
  if (before.sentToday !== undefined) {
    sentTodayGrowth = after.sentToday - before.sentToday;
    if (utcDay() !== dayBefore)
      sentTodayGrowth = undefined; // the day turned during the burst: sentToday started again
    else if (sentTodayGrowth !== debited) failures.push(`sentToday grew by ${sentTodayGrowth}, the balances by ${debited} reports`);
  }
  return { ...result, debited, sentTodayGrowth, failures };
}

/** Reports before the measured bursts, on every configuration in turns, 10 at a time per instance (unmeasured). */
async function warmUp(build) {
  const ids = [...build.scenarios['one-configuration'].smsConfigIds, ...build.scenarios.spread.smsConfigIds];
  await Promise.all(
    build.instances.map(async ({ url }) => {
      await seed.mapConcurrently(WARMUP_REPORTS, 10, (i) =>
        seed
          .post(`${url}/api/v1/dispatch/outcomes`, {
            headers: { 'x-api-key': seed.DISPATCHER_API_KEY },
            body: reportBody(build, ids[i % ids.length], i),
          })
          .then((answer) => seed.expect2xx('warm-up report', answer)),
      );
    }),
  );
}

/** The build's two instances, on its database (created the first time, kept after). */
async function startInstances(build) {
  build.instances = [];
  for (const [i, port] of [build.port, build.port + 1].entries()) {
    const env = serviceEnv({
      port,
      encryptionKey: build.encryptionKey,
      dataDir: build.dataDirs[i],
      DATABASE_URL: `${SERVER_URL}/${build.database}`,
      ALLOW_PRIVATE_PROVIDER_HOSTS: 'true',
    });
    const handle = children.startNodeChild(`${build.name}-${i + 1}`, [build.mainJs], { cwd: ROOT, env });
    const url = `http://127.0.0.1:${port}`;
    // One after the other: the first applies the migrations on a new database.
    await children.waitForHttp200(handle, `${url}/health`);
    build.instances.push({ handle, port, url });
  }
}

async function stopInstances(build) {
  await Promise.all(build.instances.map(({ handle }) => children.stopChild(handle)));
  build.instances = [];
}

/** Configurations of perSmsCost 0.001 and a balance no run spends, for clients numbered first..first+count-1. */
async function seedClients(url, first, count, configsPerClient) {
  const keys = await seed.addClients(url, first, count);
  await seed.addSmsConfigTokens(url, keys, configsPerClient);
  const configs = [];
  const clientIds = [];
  for (const secretKey of keys) {
    const listed = seed.expect2xx('list', await seed.post(`${url}/api/sms-config/get-all-by-client-id`, { headers: { secretKey } }));
    for (const { smsConfigId } of listed.results) {
      const patch = await fetch(`${url}/api/v1/sms-configs/${smsConfigId}`, {
        method: 'PATCH',
        headers: { ...JSON_HEADERS, secretKey },
        body: JSON.stringify({ balance: BALANCE, perSmsCost: PER_SMS_COST }),
      });
      if (patch.status !== 200) throw new Error(`PATCH balance and perSmsCost answered ${patch.status}: ${await patch.text()}`);
      configs.push({ smsConfigId, secretKey });
    }
    const routed = await seed.post(`${url}/api/v1/dispatch/route`, {
      headers: { 'x-api-key': seed.DISPATCHER_API_KEY, secretKey },
      body: {},
    });
    clientIds.push(seed.expect2xx('route', routed).results.clientId);
  }
  return { configs, clientIds };
}

/** Creates the build's database, starts its instances and seeds the hot client and the spread ones through them. */
async function prepare(name, mainJs, port, database) {
  await recreateDatabase({ serverUrl: SERVER_URL, database });
  const build = {
    name,
    mainJs,
    port,
    database,
    encryptionKey: crypto.randomBytes(32).toString('base64'),
    dataDirs: [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'report-burst-'))),
    instances: [],
  };
  await startInstances(build);
  const url = build.instances[0].url;
  progress(`${name}: seeding 1 client with 1 configuration, and ${SPREAD_CLIENTS} with ${SPREAD_CONFIGS_PER_CLIENT} each`);
  const hot = await seedClients(url, 1, 1, 1);
  const spread = await seedClients(url, 2, SPREAD_CLIENTS, SPREAD_CONFIGS_PER_CLIENT);
  // In turns over the clients: consecutive reports of the burst lock different client rows.
  const byClient = Array.from({ length: SPREAD_CLIENTS }, (_, c) =>
    spread.configs.slice(c * SPREAD_CONFIGS_PER_CLIENT, (c + 1) * SPREAD_CONFIGS_PER_CLIENT),
  );
  const inTurns = Array.from({ length: SPREAD_CONFIGS_PER_CLIENT }, (_, k) => byClient.map((configs) => configs[k])).flat();
  build.scenarios = {
    'one-configuration': { name: 'one-configuration', ...hot, smsConfigIds: hot.configs.map(({ smsConfigId }) => smsConfigId) },
    spread: { name: 'spread', configs: inTurns, clientIds: spread.clientIds, smsConfigIds: inTurns.map(({ smsConfigId }) => smsConfigId) },
  };
  if (params.destinations) {
    build.withReceipts = await takesReceipts(url, hot.configs[0].smsConfigId);
    progress(
      `${name}: ${build.withReceipts ? 'takes receipts and codes; baselines learned' : 'refuses receipts (400): reports carry the destination only'}`,
    );
    if (build.withReceipts) await seedLearnedBaselines(`${SERVER_URL}/${database}`);
  }
  await stopInstances(build);
  return build;
}

async function main() {
  children.installCleanup();
  const beforeMainJs = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const builds = [await prepare('service', path.join(ROOT, 'dist', 'main.js'), PORT, DATABASE)];
  if (beforeMainJs) builds.push(await prepare('before', beforeMainJs, PORT, `${DATABASE}_before`));

  const results = Object.fromEntries(builds.map(({ name }) => [name, Object.fromEntries(SCENARIOS.map((s) => [s, []]))]));
  const failures = [];
  for (let round = 1; round <= params.rounds; round++) {
    // The builds take turns going first, and so do the scenarios, so that neither always runs on a machine just warmed.
    for (const build of round % 2 ? builds : [...builds].reverse()) {
      await startInstances(build);
      await warmUp(build);
      for (const name of round % 2 ? SCENARIOS : [...SCENARIOS].reverse()) {
        const result = await runScenario(build, build.scenarios[name]);
        results[build.name][name].push(result);
        for (const failure of result.failures) failures.push(`${build.name} ${name} round ${round}: ${failure}`);
        const { 200: ok, 503: late, other } = result.statuses;
        progress(
          `${build.name} ${name} round ${round}: last answer ${Math.round(result.totalMs)} ms, p50 ${Math.round(result.p50)} ms, ` +
            `p99 ${Math.round(result.p99)} ms, 200/503/other ${ok}/${late}/${other}, debited ${result.debited}` +
            (result.sentTodayGrowth === undefined ? '' : `, sentToday +${result.sentTodayGrowth}`) +
            (result.failures.length ? `, FAILED: ${result.failures.join('; ')}` : ''),
        );
      }
      await stopInstances(build);
    }
  }

  const medianOf = (build, name, field) => median(results[build][name].map((result) => result[field]));
  const sumOf = (build, name, status) => results[build][name].reduce((total, result) => total + result.statuses[status], 0);
  const rows = [];
  for (const name of SCENARIOS) {
    for (const { name: build } of builds) {
      const ratio = medianOf(build, name, 'totalMs') / medianOf(build, 'spread', 'totalMs');
      rows.push([
        name,
        build,
        `${Math.round(medianOf(build, name, 'totalMs'))} ms`,
        `${Math.round(medianOf(build, name, 'p50'))} ms`,
        `${Math.round(medianOf(build, name, 'p99'))} ms`,
        `${sumOf(build, name, 200)} / ${sumOf(build, name, 503)} / ${sumOf(build, name, 'other')}`,
        name === 'spread' ? '1.00x' : `${ratio.toFixed(2)}x`,
      ]);
    }
  }
  console.log(
    `${params.rounds} rounds, each a burst of ${params.burst} outcome reports (sent 1${params.idempotent ? ', each with an Idempotency-Key' : ''}) at once per scenario${beforeMainJs ? ' and build' : ''}, ` +
      `in turns over two instances on one MariaDB database; one-configuration: all on one configuration of one client; ` +
      `spread: in turns over ${SPREAD_CLIENTS * SPREAD_CONFIGS_PER_CLIENT} configurations of ${SPREAD_CLIENTS} clients. ` +
      'Times are medians over the rounds; statuses are summed.' +
      (params.destinations
        ? ` Each report to one of ${DESTINATIONS.length} numbers (200 ranges); ` +
          builds.map((b) => `${b.name}: ${b.withReceipts ? 'with receipts and codes' : 'destination only, receipts refused'}`).join('; ') +
          '.'
        : '') +
      '\n',
  );
  console.log(
    markdownTable(['scenario', 'build', 'time to last answer', 'p50', 'p99', '200 / 503 / other', 'last answer / spread'], rows, 2),
  );
  if (failures.length) {
    console.error(`\n${failures.length} check(s) failed:\n${failures.join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log(
      `\nChecks: every report answered 200 was debited once, no report twice${builds.some((b) => results[b.name].spread[0]?.sentTodayGrowth !== undefined) ? ', and sentToday grew by the reports debited' : ''}.`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1); // installCleanup's exit handler kills the services
});
