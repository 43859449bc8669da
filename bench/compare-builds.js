'use strict';
// Two builds of the service against each other, on one MariaDB database: did a change make the service slower, or bigger?
//   node bench/compare-builds.js <before/dist/main.js> [<after/dist/main.js>, default dist/main.js]
//   env: ROUNDS (4), BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_SCENARIOS (all by default),
//        BENCH_DATABASE (registry_compare), BENCH_PORT (3110: one build, +1 the other),
//        COMPARE_BEFORE_ENV / COMPARE_AFTER_ENV ('NAME=value,...': variables for one side only, e.g. to compare a setting),
//        BENCH_FLEET=0 (skips the fleet scenarios of lib/fleet.js), BENCH_FLEET_SCENARIOS (comma-separated, all by
//        default), BENCH_FLEET_CLIENTS (20000), BENCH_LARGE_FLEET_CLIENTS (40000), BENCH_FLEET_WARMUP (s, 10),
//        BENCH_FLEET_SEED_CONCURRENCY (lib/fleet-seed.js)
// The two builds run at once; each round loads one, then the other, in alternating order. The whole comparison runs
// twice with the builds' places swapped (which process started first, which one the seeding went through), because
// two processes of one build differ by a few percent on this machine: the ratio reported is the mean of both halves.
// Each build's VmRSS is read after each of its measured runs: median and max over both halves.
// Run the same build on both sides to see the noise floor: a change is only a change beyond it.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const children = require('./lib/children');
const cpu = require('./lib/cpu');
const { recreateDatabase } = require('./lib/database');
const eventDelay = require('./lib/event-delay');
const fleet = require('./lib/fleet');
const { seedFleet } = require('./lib/fleet-seed');
const { KeyPool } = require('./lib/key-pool');
const keyShapes = require('./lib/key-shapes');
const { SCENARIOS, requestOptions, runLoad } = require('./lib/load');
const { markdownTable, median } = require('./lib/report');
const seed = require('./lib/seed');
const { envListOf, serviceEnv } = require('./lib/service');

const ROOT = path.resolve(__dirname, '..');
const DATABASE = process.env.BENCH_DATABASE || 'registry_compare';
const DATABASE_URL = `mysql://root@127.0.0.1:3306/${DATABASE}`;
const BASE_PORT = Number(process.env.BENCH_PORT || 3110);
const KEY_USES = 95; // under the limit of 100 configurations per client, with a margin for requests in flight
const RESOLVE_CLIENTS = 250; // resolve: 2 configurations each, requested in turns over the clients
// A smaller large fleet than npm run bench's 100,000: each half seeds its own through the API, at about 1,600 writes/s
// here (2.5 writes a client: 30 s for 20,000 clients). 40,000 still outgrow the default cache budget (32 MB, about
// 26,000 clients), so that fleet-large-uniform keeps measuring misses and evictions.
const LARGE_FLEET_CLIENTS = 40000;
// The seeding's audit events are published in the background; the rounds should not pay for that backlog.
const OUTBOX_DRAIN_TIMEOUT_MS = 300000;
const MARIADB_PID = cpu.findPid('mariadbd', 'mysqld');
const params = {
  rounds: Number(process.env.ROUNDS || 4),
  seconds: Number(process.env.BENCH_DURATION || 10),
  warmupSeconds: Number(process.env.BENCH_WARMUP || 2),
  scenarioNames: process.env.BENCH_SCENARIOS
    ? process.env.BENCH_SCENARIOS.split(',')
    : [...SCENARIOS, ...keyShapes.SCENARIOS].map(({ name }) => name),
  fleet: readFleetParams(),
};
const progress = (message) => process.stderr.write(`[compare] ${message}\n`);

/** lib/fleet.js's knobs, with this script's smaller large fleet when it is not set. */
function readFleetParams(env = process.env) {
  const clients = Number(env.BENCH_FLEET_CLIENTS || 20000);
  const largeClients = env.BENCH_LARGE_FLEET_CLIENTS || String(Math.max(LARGE_FLEET_CLIENTS, clients));
  return fleet.readParams({ ...env, BENCH_LARGE_FLEET_CLIENTS: largeClients });
}

// On Node 20, in builds before fe6b1fa, a process's first transaction (the first AsyncLocalStorage.run()) turned async
// hooks on for good, and every later request paid for them (get-client about 0.8x here): a build whose setup made one
// (a scoped key, a token) read slower than one whose setup did not. Each build makes one at start, as an instance that
// has served any change has.
async function startBuild(name, entry, port, encryptionKey, clientNumbers) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-data-'));
  const env = serviceEnv({
    port,
    encryptionKey,
    dataDir,
    DATABASE_URL,
    ...keyShapes.KEY_SHAPE_ENV,
    ...envListOf(`COMPARE_${name.toUpperCase()}_ENV`),
  });
  const handle = children.startNodeChild(name, [entry], { cwd: ROOT, env });
  const url = `http://127.0.0.1:${port}`;
  await children.waitForHttp200(handle, `${url}/health`);
  await seed.addClientInATransaction(url, clientNumbers.take(1));
  return { name, handle, url };
}

/**
 * One scenario on both builds: a warm-up of warmupSeconds, then params.rounds rounds, in alternating order.
 * optionsFor(seconds) gives each run's autocannon options. Answers req/s per build; appends each build's RSS after each
 * of its measured runs to samples.rss, and its CPU per answer (and MariaDB's) to samples.cpu[name].
 */
async function runRounds(autocannon, targets, name, { path: requestPath, warmupSeconds, optionsFor, status }, samples) {
  const rps = Object.fromEntries(targets.map((target) => [target.name, []]));
  const cpuSamples = (samples.cpu[name] = Object.fromEntries(targets.map((target) => [target.name, []])));
  for (let round = 0; round <= params.rounds; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      const seconds = round === 0 ? warmupSeconds : params.seconds;
      const countCpu = cpu.startCounting({ service: target.handle.child.pid, mariadb: MARIADB_PID });
      const result = await runLoad(autocannon, {
        url: target.url + requestPath,
        connections: 50,
        seconds,
        options: await optionsFor(seconds, target),
      });
      const unexpected = status === undefined ? result.failed : result.completed - (result.statusCodes[status] ?? 0) + result.errors;
      if (unexpected > 0) throw new Error(`${name} on ${target.name}: ${unexpected} failed or unexpected answers`);
      if (round === 0) continue;
      rps[target.name].push(result.rps);
      samples.rss[target.name].push(children.residentMemory(target.handle.child.pid));
      cpuSamples[target.name].push(countCpu(result.completed));
    }
    if (round > 0)
      progress(`${name} round ${round}: ${targets.map((target) => `${target.name} ${Math.round(rps[target.name].at(-1))}`).join(', ')}`);
  }
  return rps;
}

/** The single-key scenarios of lib/load.js, seeded through the first build. */
async function runSingleKeyScenarios(autocannon, targets, clientNumbers, results, samples) {
  const [getClientKey] = await seed.addClients(targets[0].url, clientNumbers.take(1), 1);
  await seed.addSmsConfig(targets[0].url, getClientKey);
  await seed.addSmsConfig(targets[0].url, getClientKey);
  const keyPool = new KeyPool(KEY_USES);
  let resolveTokens;
  for (const scenario of SCENARIOS.filter(({ name }) => params.scenarioNames.includes(name))) {
    if (scenario.name === 'resolve') {
      // Both builds share the encryption key, so either opens the tokens the first one issued.
      const keys = await seed.addClients(targets[0].url, clientNumbers.take(RESOLVE_CLIENTS), RESOLVE_CLIENTS);
      resolveTokens = await seed.addSmsConfigTokens(targets[0].url, keys, 2);
    }
    const optionsFor = async (seconds) => {
      if (scenario.name === 'add-sms-config') {
        // Enough unused keys for the fastest rate either build could reach, twice over.
        const missing = Math.ceil((6000 * seconds - keyPool.remaining()) / KEY_USES);
        if (missing > 0) keyPool.add(await seed.addClients(targets[0].url, clientNumbers.take(missing), missing));
      }
      return requestOptions(scenario.name, { getClientKey, keyPool, resolveTokens });
    };
    const load = { path: scenario.path, warmupSeconds: params.warmupSeconds, optionsFor };
    results[scenario.name] = await runRounds(autocannon, targets, scenario.name, load, samples);
  }
  await runKeyShapeScenarios(autocannon, targets, getClientKey, results, samples);
}

/** get-client by the shape of the key presented (lib/key-shapes.js), with a key of the single-key scenarios' client. */
async function runKeyShapeScenarios(autocannon, targets, getClientKey, results, samples) {
  const keys = {};
  for (const target of targets) keys[target.name] = await keyShapes.scopedKeyOf(target.url, getClientKey);
  for (const scenario of keyShapes.SCENARIOS.filter(({ name }) => params.scenarioNames.includes(name))) {
    const optionsFor = (_seconds, target) => keyShapes.requestOptions(scenario.name, keys[target.name]);
    const load = { path: scenario.path, warmupSeconds: params.warmupSeconds, optionsFor, status: scenario.status };
    results[scenario.name] = await runRounds(autocannon, targets, scenario.name, load, samples);
  }
}

async function drainOutbox(backlog) {
  const { waiting, waitedMs } = await eventDelay.awaitEmptyOutbox(backlog, OUTBOX_DRAIN_TIMEOUT_MS);
  if (waiting > 0) progress(`WARNING: ${waiting} outbox entries still unpublished after ${Math.round(waitedMs)} ms, going on`);
}

/**
 * The fleet scenarios of lib/fleet.js, after the single-key ones (they grow the tables and the caches): the fleet seeded
 * through the first build, then grown for fleet-large-uniform. Both builds read the same draws in turn, as A and B do in
 * npm run bench; req/s counts every answer (in fleet-mix, the writes too).
 */
async function runFleetScenarios(autocannon, targets, clientNumbers, results, samples) {
  const { fleet: fleetParams } = params;
  const backlog = eventDelay.outboxBacklog(DATABASE_URL);
  const keys = [];
  for (const definition of fleet.SCENARIOS.filter(({ name }) => fleetParams.scenarioNames.includes(name))) {
    const size = definition.fleet === 'large' ? fleetParams.largeClients : fleetParams.clients;
    if (keys.length < size) {
      const seeder = {
        baseUrl: targets[0].url,
        pids: { [targets[0].name]: targets[0].handle.child.pid },
        concurrency: fleetParams.seedConcurrency,
      };
      await seedFleet(seeder, keys, size - keys.length, clientNumbers);
    }
    await drainOutbox(backlog); // the seeding's events, and those of fleet-mix's writes
    const scenarioKeys = keys.slice(0, size);
    const draws = fleet.newDraws(definition, size);
    const optionsFor = () => fleet.requestOptions(scenarioKeys, draws, definition.writeEvery);
    const load = { path: fleet.GET_PATH, warmupSeconds: fleetParams.warmupSeconds, optionsFor };
    results[definition.name] = await runRounds(autocannon, targets, definition.name, load, samples);
  }
}

/** One half: the builds in the given places, every scenario, interleaved rounds. Answers req/s and RSS samples per build. */
async function compareOnce(autocannon, [first, second]) {
  await recreateDatabase({ serverUrl: 'mysql://root@127.0.0.1:3306', database: DATABASE });
  const encryptionKey = crypto.randomBytes(32).toString('base64');
  const clientNumbers = seed.clientNumbering(0);
  const targets = [await startBuild(first.name, first.entry, BASE_PORT, encryptionKey, clientNumbers)];
  targets.push(await startBuild(second.name, second.entry, BASE_PORT + 1, encryptionKey, clientNumbers));
  try {
    const scenarios = {};
    const samples = { rss: Object.fromEntries(targets.map(({ name }) => [name, []])), cpu: {} };
    await runSingleKeyScenarios(autocannon, targets, clientNumbers, scenarios, samples);
    if (params.fleet.enabled) await runFleetScenarios(autocannon, targets, clientNumbers, scenarios, samples);
    return { scenarios, ...samples };
  } finally {
    for (const target of targets) await children.stopChild(target.handle);
  }
}

const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const signed = (value) => (value >= 0 ? `+${fixed(value, 1)}` : fixed(value, 1));

function scenarioRows(halves) {
  return Object.keys(halves[0].scenarios).map((name) => {
    const ratioOf = ({ scenarios }) => median(scenarios[name].after.map((after, i) => after / scenarios[name].before[i]));
    const [first, second] = halves.map(ratioOf);
    const all = (build) => median(halves.flatMap(({ scenarios }) => scenarios[name][build]));
    return [
      name,
      Math.round(all('before')),
      Math.round(all('after')),
      `${fixed(first, 3)}x`,
      `${fixed(second, 3)}x`,
      `${fixed((first + second) / 2, 3)}x`,
    ];
  });
}

function cpuRows(halves) {
  const of = (name, build, process) => median(halves.flatMap(({ cpu }) => cpu[name][build].map((sample) => sample[process])));
  return Object.keys(halves[0].scenarios).map((name) => [
    name,
    fixed(of(name, 'before', 'service'), 1),
    fixed(of(name, 'after', 'service'), 1),
    fixed(of(name, 'before', 'mariadb'), 1),
    fixed(of(name, 'after', 'mariadb'), 1),
  ]);
}

/** Per build, VmRSS median and max over both halves, and VmHWM (the process's peak); then after - before. */
function rssRows(halves) {
  const of = (build) => {
    const samples = halves.flatMap(({ rss }) => rss[build]);
    const rssMB = samples.map((sample) => sample.rssMB);
    return { median: median(rssMB), max: Math.max(...rssMB), peak: Math.max(...samples.map((sample) => sample.peakRssMB)) };
  };
  const [before, after] = [of('before'), of('after')];
  const row = (label, m, format) => [label, format(m.median), format(m.max), format(m.peak)];
  return [
    row('before', before, (value) => fixed(value, 1)),
    row('after', after, (value) => fixed(value, 1)),
    row('after − before', { median: after.median - before.median, max: after.max - before.max, peak: after.peak - before.peak }, signed),
  ];
}

function printReport(halves) {
  const { fleet: fleetParams } = params;
  const fleetLine = fleetParams.enabled
    ? ` Fleet scenarios: ${fleetParams.clients} clients (fleet-large-uniform ${fleetParams.largeClients}), seeded in each half, ` +
      `warm-up ${fleetParams.warmupSeconds} s per build; their req/s count every answer (in fleet-mix, the writes too).`
    : '';
  console.log(
    `Rounds: 2 x ${params.rounds} x ${params.seconds} s per build and scenario, interleaved, places swapped between halves; ` +
      `50 connections.${fleetLine}\n`,
  );
  const header = ['scenario', 'before req/s', 'after req/s', 'after/before, first half', 'second half (swapped)', 'mean'];
  console.log(markdownTable(header, scenarioRows(halves), 1));
  console.log(
    `\nRSS, MB: VmRSS after each measured run of each build (${halves[0].rss.before.length * 2} per build), and VmHWM, its peak.\n`,
  );
  console.log(markdownTable(['build', 'RSS median', 'RSS max', 'peak (VmHWM)'], rssRows(halves), 1));
  console.log('\nCPU per answer, µs: medians of the measured runs of both halves, the service and MariaDB.\n');
  const cpuHeader = ['scenario', 'service before', 'service after', 'MariaDB before', 'MariaDB after'];
  console.log(markdownTable(cpuHeader, cpuRows(halves), 1));
}

async function main() {
  const [beforeEntry, afterEntry = path.join(ROOT, 'dist', 'main.js')] = process.argv.slice(2);
  if (!beforeEntry) throw new Error('usage: node bench/compare-builds.js <before/dist/main.js> [<after/dist/main.js>]');
  const builds = [
    { name: 'before', entry: path.resolve(beforeEntry) },
    { name: 'after', entry: path.resolve(afterEntry) },
  ];
  for (const { entry } of builds) if (!fs.existsSync(entry)) throw new Error(`${entry} not found: build it first`);
  children.installCleanup();
  const autocannon = require('autocannon');
  const halves = [await compareOnce(autocannon, builds), await compareOnce(autocannon, [...builds].reverse())];
  printReport(halves);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
