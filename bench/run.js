'use strict';
// Benchmark of the service (A) against a plain Fastify + mysql2 baseline (B), an
// in-memory ceiling (C) and that ceiling doing the per-answer work the service
// owes every caller (D, get-client only). See BENCHMARKS.md for the method.
//   node bench/run.js
//   env: BENCH_DURATION (s, 10), ROUNDS (3), BENCH_WARMUP (s, 2), BENCH_STRICT=1,
//        BENCH_SCENARIOS (comma-separated names, all by default; for quick looks, never for BENCHMARKS.md),
//        BENCH_EVENT_DELAY=0 (skips the event delay, e.g. for a build without domain events),
//        BENCH_EVENT_WRITES (idle writes of the event delay, 2000),
//        BENCH_CPU_PROFILE=1 (service and baseline under --cpu-prof: prints where each request's time goes, and
//        writes no results.json, the profiler slowing both; the single-key scenarios, or with BENCH_FLEET_ONLY=1 the
//        fleet's), BENCH_DATABASE (registry_bench), BENCH_PORT (3100: service, +1 baseline, +2 ceiling, +3 SQLite starts,
//        +4 ceiling with operations, +5 the fleet's second service), BENCH_RESULTS_FILE (bench/results.json),
//        BENCH_SERVICE_ENV (more env for the service, e.g. 'CLIENT_CACHE_MB=4 LOG_LEVEL=warn'),
//        BENCH_FLEET=0 (skips the fleet scenarios, lib/fleet.js: get-client for a fleet of clients, A beside B, after the
//        event delay), BENCH_FLEET_ONLY=1 (only them: no SQLite starts, single-key scenarios or event delay), and the
//        fleet's own knobs (lib/fleet.js). A service get-client answer other than 200 in them exits 4.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');

const children = require('./lib/children');
const cpu = require('./lib/cpu');
const eventDelay = require('./lib/event-delay');
const fleet = require('./lib/fleet');
const fleetReport = require('./lib/fleet-report');
const { recreateDatabase } = require('./lib/database');
const { KeyPool } = require('./lib/key-pool');
const { SCENARIOS, requestOptions, runLoad } = require('./lib/load');
const profile = require('./lib/profile');
const report = require('./lib/report');
const seed = require('./lib/seed');
const { AMQP_URL, envListOf, serviceEnv } = require('./lib/service');

const ROOT = path.resolve(__dirname, '..');
const MYSQL_SERVER_URL = 'mysql://root@127.0.0.1:3306';
// Several checkouts can bench on one machine at once, each with its own database and ports.
const DATABASE = process.env.BENCH_DATABASE || 'registry_bench';
if (!/^[A-Za-z0-9_]{1,64}$/.test(DATABASE)) throw new Error(`BENCH_DATABASE must be a plain name: ${DATABASE}`);
const DATABASE_URL = `${MYSQL_SERVER_URL}/${DATABASE}`;
const BASE_PORT = Number(process.env.BENCH_PORT || 3100);
const PORTS = {
  service: BASE_PORT,
  baseline: BASE_PORT + 1,
  ceiling: BASE_PORT + 2,
  sqliteService: BASE_PORT + 3,
  operationsCeiling: BASE_PORT + 4,
  serviceCopy: BASE_PORT + 5,
};
const URLS = {
  service: `http://127.0.0.1:${PORTS.service}`,
  baseline: `http://127.0.0.1:${PORTS.baseline}`,
  ceiling: `http://127.0.0.1:${PORTS.ceiling}`,
  operationsCeiling: `http://127.0.0.1:${PORTS.operationsCeiling}`,
};
const SEEDED_CLIENTS = 200;
// resolve: each target resolves configurations it added itself, 2 for each of 250 clients, in turns over the clients.
const RESOLVE_CLIENTS = 250;
const RESOLVE_CONFIGS_PER_CLIENT = 2;
const SQLITE_STARTS = 3;
const SMS_CONFIGS_PER_CLIENT_CAP = 100;
const KEY_USES = SMS_CONFIGS_PER_CLIENT_CAP - 5; // margin for requests still in flight
const ENCRYPTION_KEY = crypto.randomBytes(32).toString('base64');
// Event delay: idle, the writes come from this many callers, each sending its next once it has read its answer; under
// load, the sampler sends a write every EVENT_SAMPLE_INTERVAL_MS beside the autocannon load of the same kind.
const EVENT_IDLE_CALLERS = 10;
const EVENT_SAMPLE_INTERVAL_MS = 20;
const EVENT_LOADS = ['add-client', 'add-sms-config'];
const tempPaths = [];

const progress = (message) => process.stderr.write(`[bench] ${message}\n`);

function readParams() {
  const cpuProfile = process.env.BENCH_CPU_PROFILE === '1';
  const fleetParams = fleet.readParams();
  const fleetOnly = fleetParams.enabled && fleetParams.only;
  return {
    durationSeconds: Number(process.env.BENCH_DURATION || 10),
    rounds: Number(process.env.ROUNDS || 3),
    warmupSeconds: Number(process.env.BENCH_WARMUP || 2),
    connections: 50,
    strict: process.env.BENCH_STRICT === '1',
    cpuProfile,
    eventDelay: process.env.BENCH_EVENT_DELAY !== '0' && !cpuProfile && !fleetOnly,
    singleKey: !fleetOnly,
    // The profiled run reads one kind of rounds: the single-key scenarios', or with BENCH_FLEET_ONLY=1 the fleet's.
    fleet: { ...fleetParams, enabled: fleetParams.enabled && (!cpuProfile || fleetOnly) },
    resultsFile: path.resolve(ROOT, process.env.BENCH_RESULTS_FILE || 'bench/results.json'),
    eventIdleWrites: Number(process.env.BENCH_EVENT_WRITES || 2000),
    serviceEntry: path.resolve(ROOT, process.env.BENCH_SERVICE_ENTRY || 'dist/main.js'),
    serviceExtraEnv: envListOf('BENCH_SERVICE_ENV'),
    scenarioNames: process.env.BENCH_SCENARIOS ? process.env.BENCH_SCENARIOS.split(',') : SCENARIOS.map(({ name }) => name),
  };
}

function loadAutocannon() {
  try {
    return require('autocannon');
  } catch {
    throw new Error('autocannon is not installed: add it as a devDependency (npm install --save-dev autocannon)');
  }
}

function assertServiceBuilt(entry) {
  if (!fs.existsSync(entry)) {
    throw new Error(
      `${path.relative(ROOT, entry)} not found: build the service first (npm run build), ` + 'or run the whole thing with npm run bench',
    );
  }
}

function removeTempPaths() {
  for (const tempPath of tempPaths.splice(0)) fs.rmSync(tempPath, { recursive: true, force: true });
}

function newDataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-data-'));
  tempPaths.push(dir);
  return dir;
}

async function startService(name, entry, port, env, nodeFlags = []) {
  const handle = children.startNodeChild(name, [...nodeFlags, entry], {
    cwd: ROOT,
    env: serviceEnv({ port, encryptionKey: ENCRYPTION_KEY, dataDir: newDataDir(), ...env }),
  });
  const startMs = await children.waitForHttp200(handle, `http://127.0.0.1:${port}/health`, 30000);
  return { handle, startMs };
}

/** Same service, same env but no DATABASE_URL: it falls back to SQLite in a fresh DATA_DIR. */
async function measureSqliteStarts(entry) {
  const startsMs = [];
  for (let i = 0; i < SQLITE_STARTS; i++) {
    const { handle, startMs } = await startService(`sqlite-start-${i + 1}`, entry, PORTS.sqliteService);
    await children.stopChild(handle);
    startsMs.push(startMs);
    progress(`SQLite start ${i + 1}: ${Math.round(startMs)} ms`);
  }
  return startsMs;
}

async function seedService() {
  const keys = await seed.addClients(URLS.service, 0, SEEDED_CLIENTS);
  const [getClientKey, ...otherKeys] = keys;
  await seed.addSmsConfig(URLS.service, getClientKey);
  await seed.addSmsConfig(URLS.service, getClientKey);
  const answer = await seed.getClient(URLS.service, getClientKey);
  if (answer.status !== 200) throw new Error(`service get-client answered ${answer.status}: ${answer.text}`);
  return { getClientKey, otherKeys, serviceAnswer: answer.text };
}

/** Starts B, C and D; answers their pids. */
async function startBaselineAndCeiling({ getClientKey, serviceAnswer }, profileDirs, serviceEntry) {
  const responseFile = path.join(os.tmpdir(), `bench-ceiling-answer-${process.pid}.json`);
  fs.writeFileSync(responseFile, serviceAnswer);
  tempPaths.push(responseFile);
  const baselineFlags = profileDirs ? profile.nodeFlags(profileDirs.baseline) : [];
  const baseline = children.startNodeChild('baseline', [...baselineFlags, path.join(__dirname, 'baseline-server.js')], {
    cwd: ROOT,
    env: {
      PORT: String(PORTS.baseline),
      DATABASE_URL,
      ENCRYPTION_KEY,
      ADMIN_API_KEY: seed.ADMIN_API_KEY,
      DISPATCHER_API_KEY: seed.DISPATCHER_API_KEY,
    },
  });
  const ceilingEnv = { CEILING_SECRET_KEY: getClientKey, CEILING_RESPONSE_FILE: responseFile };
  const ceiling = children.startNodeChild('ceiling', [path.join(__dirname, 'ceiling-server.js')], {
    cwd: ROOT,
    env: { PORT: String(PORTS.ceiling), ...ceilingEnv },
  });
  // D logs on its stdout, as the service does: into its own file in the temp directory.
  const operationsCeiling = children.startNodeChild('operations-ceiling', [path.join(__dirname, 'ceiling-server.js')], {
    cwd: ROOT,
    env: {
      PORT: String(PORTS.operationsCeiling),
      CEILING_OPERATIONS: '1',
      // The per-answer code of the build measured, not whatever dist/ holds (it may be another build, or being rebuilt).
      CEILING_SERVICE_DIR: path.dirname(serviceEntry),
      ...ceilingEnv,
    },
  });
  await Promise.all([
    children.waitForPort(baseline, PORTS.baseline),
    children.waitForPort(ceiling, PORTS.ceiling),
    children.waitForPort(operationsCeiling, PORTS.operationsCeiling),
  ]);
  return { baseline: baseline.child.pid, ceiling: ceiling.child.pid, operationsCeiling: operationsCeiling.child.pid };
}

/** All three must answer 200 for the seeded key; the baseline should say the same as the service. */
async function checkGetClientAnswers(getClientKey) {
  const answers = {};
  for (const target of Object.keys(URLS)) {
    answers[target] = await seed.getClient(URLS[target], getClientKey);
    if (answers[target].status !== 200) {
      throw new Error(`${target} get-client answered ${answers[target].status}: ${answers[target].text}`);
    }
  }
  if (!isDeepStrictEqual(JSON.parse(answers.baseline.text), JSON.parse(answers.service.text))) {
    progress(
      'WARNING: baseline and service get-client answers differ:\n' +
        `  service:  ${answers.service.text}\n  baseline: ${answers.baseline.text}`,
    );
  }
}

/** Keeps enough unused client keys for the next add-sms-config run (see lib/key-pool.js). */
function createAddKeySupply(keyPool, params, clientNumbers) {
  let estimatedRps = 500;
  async function ensureUses(needed) {
    const missingKeys = Math.ceil((needed - keyPool.remaining()) / KEY_USES);
    if (missingKeys <= 0) return;
    keyPool.add(await seed.addClients(URLS.service, clientNumbers.take(missingKeys), missingKeys));
  }
  return {
    observe(rps) {
      estimatedRps = Math.max(estimatedRps, rps);
    },
    ensureFor(seconds) {
      return ensureUses(estimatedRps * seconds * 1.5 + params.connections);
    },
    ensureUses,
  };
}

/**
 * The resolve pools: new clients added through the service, then for each target configurations added through its own
 * add-sms-config, since only the target that issued a verifyApiKey can open it. Answers the tokens by target.
 */
async function seedResolveTokens(clientNumbers, targets) {
  const keys = await seed.addClients(URLS.service, clientNumbers.take(RESOLVE_CLIENTS), RESOLVE_CLIENTS);
  const tokens = {};
  for (const target of targets) tokens[target] = await seed.addSmsConfigTokens(URLS[target], keys, RESOLVE_CONFIGS_PER_CLIENT);
  await checkResolveAnswers(tokens);
  progress(
    `resolve: ${keys.length * RESOLVE_CONFIGS_PER_CLIENT} configurations of ${keys.length} clients for each of ${targets.join(', ')}`,
  );
  return tokens;
}

/** Each target must resolve its first token with a 200; the baseline should say what the service says, but the id. */
async function checkResolveAnswers(tokens) {
  const results = {};
  for (const [target, [token]] of Object.entries(tokens)) {
    const answer = await seed.resolve(URLS[target], token);
    if (answer.status !== 200) throw new Error(`${target} resolve answered ${answer.status}: ${answer.text}`);
    results[target] = { ...JSON.parse(answer.text).results, smsConfigId: undefined };
  }
  if (results.baseline && !isDeepStrictEqual(results.baseline, results.service)) {
    progress(
      'WARNING: baseline and service resolve answers differ (smsConfigId aside):\n' +
        `  service:  ${JSON.stringify(results.service)}\n  baseline: ${JSON.stringify(results.baseline)}`,
    );
  }
}

async function runOnce(context, scenario, target, seconds) {
  const { autocannon, params, keyPool, keySupply } = context;
  if (scenario.name === 'add-sms-config') await keySupply.ensureFor(seconds);
  const overflowBefore = keyPool.overflow;
  const start = profile.monotonicMicros();
  const countCpu = cpu.startCounting({ target: context.pids[target], mariadb: context.pids.mariadb, rabbitmq: context.pids.rabbitmq });
  const result = await runLoad(autocannon, {
    url: URLS[target] + scenario.path,
    connections: params.connections,
    seconds,
    options: requestOptions(scenario.name, { ...context, resolveTokens: context.resolveTokens?.[target] }),
  });
  result.cpuMicrosPerAnswer = countCpu(result.completed);
  if (params.cpuProfile) result.window = [start, profile.monotonicMicros()];
  if (scenario.name.startsWith('add-') && target !== 'ceiling') keySupply.observe(result.rps);
  if (scenario.name === 'add-sms-config') result.keysPastCap = keyPool.overflow - overflowBefore;
  return result;
}

async function runScenario(context, scenario) {
  const { params } = context;
  const warmup = {};
  for (const target of scenario.targets) {
    warmup[target] = await runOnce(context, scenario, target, params.warmupSeconds);
  }
  const rounds = Object.fromEntries(scenario.targets.map((target) => [target, []]));
  for (let round = 1; round <= params.rounds; round++) {
    for (const target of report.targetsInRound(scenario.targets, round, params.rounds)) {
      const result = await runOnce(context, scenario, target, params.durationSeconds);
      rounds[target].push(result);
      progress(
        `${scenario.name} round ${round} ${target}: ${Math.round(result.rps)} req/s, ` +
          `p50 ${result.p50} ms, p99 ${result.p99} ms, failed ${result.failed}`,
      );
    }
  }
  const mediansOf = (from, to) =>
    Object.fromEntries(Object.entries(rounds).map(([target, results]) => [target, report.summarizeRounds(results.slice(from, to))]));
  const medians = mediansOf(0, params.rounds);
  const halves = report.halvesOf(params.rounds).map(([from, to]) => report.ratios(mediansOf(from, to)));
  return { warmup, rounds, medians, ratios: report.ratios(medians), halves };
}

/**
 * Event delay (lib/event-delay.js), after the scenarios: idle, then beside an autocannon load of each kind of add. Each
 * phase starts once the outbox is empty, so that none starts behind the backlog of the load before it.
 */
async function measureEventDelay(context, clientNumbers) {
  const { autocannon, params, keyPool, keySupply } = context;
  const prefix = eventDelay.requestIdPrefix();
  const backlog = eventDelay.outboxBacklog(DATABASE_URL);
  const consumer = await eventDelay.openConsumer(AMQP_URL, prefix);
  const send = eventDelay.createWriter({
    baseUrl: URLS.service,
    prefix,
    nextClientNumber: () => clientNumbers.take(1),
    nextSecretKey: () => keyPool.next(),
  });
  const phases = {};
  const waitForEmptyOutbox = async (before) => {
    const { waiting, waitedMs } = await eventDelay.awaitEmptyOutbox(backlog);
    if (waiting === undefined) progress(`event delay: no outbox in the database (audit_event.unpublished), ${before} next`);
    else if (waiting > 0) progress(`event delay: ${waiting} entries still unpublished after ${Math.round(waitedMs)} ms, going on`);
    else progress(`event delay: outbox empty after ${Math.round(waitedMs)} ms, ${before} next`);
  };
  try {
    await keySupply.ensureUses(params.eventIdleWrites / 2 + EVENT_IDLE_CALLERS);
    await waitForEmptyOutbox('idle writes');
    phases.idle = {
      label: `idle, ${EVENT_IDLE_CALLERS} callers`,
      callers: EVENT_IDLE_CALLERS,
      ...(await eventDelay.measureIdle({
        consumer,
        send,
        count: params.eventIdleWrites,
        callers: EVENT_IDLE_CALLERS,
        kinds: ['add-client', 'add-sms-config'],
      })),
    };
    progress(eventDelayProgress('idle', phases.idle));
    for (const name of EVENT_LOADS) {
      const scenario = SCENARIOS.find((candidate) => candidate.name === name);
      if (name === 'add-sms-config') await keySupply.ensureFor(params.durationSeconds);
      await waitForEmptyOutbox(`${name} load`);
      const phase = await eventDelay.measureUnderLoad({
        consumer,
        send,
        kind: name,
        seconds: params.durationSeconds,
        intervalMs: EVENT_SAMPLE_INTERVAL_MS,
        backlog,
        startLoad: () =>
          runLoad(autocannon, {
            url: URLS.service + scenario.path,
            connections: params.connections,
            seconds: params.durationSeconds,
            options: requestOptions(name, context),
          }),
      });
      phases[`under-${name}`] = { label: `under ${name} load, ${params.connections} connections`, ...phase };
      keySupply.observe(phase.load.rps);
      progress(eventDelayProgress(`under ${name} load`, phase));
    }
  } finally {
    await consumer.close();
  }
  return {
    requestIdPrefix: prefix,
    missingAfterMs: eventDelay.MISSING_AFTER_MS,
    sampleIntervalMs: EVENT_SAMPLE_INTERVAL_MS,
    eventsReceived: consumer.eventsSeen(),
    phases,
  };
}

/** The event delay, or the reason it could not be measured: the scenarios' figures are printed and written either way. */
async function measureEventDelaySafely(context, clientNumbers) {
  try {
    return await measureEventDelay(context, clientNumbers);
  } catch (error) {
    progress(`ERROR: event delay not measured: ${error.message}`);
    return { error: error.message };
  }
}

function eventDelayProgress(name, { all, load }) {
  const delay = (value) => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');
  return (
    `event delay ${name}: ${all.matched}/${all.sent} events, p50 ${delay(all.delayMs.p50)} ms, p99 ${delay(all.delayMs.p99)} ms, ` +
    `max ${delay(all.delayMs.max)} ms${load ? `, load ${Math.round(load.rps)} req/s, failed ${load.failed}` : ''}`
  );
}

/** The single-key scenarios' components; the fleet's, and the service's busiest functions there (its misses' cost). */
function printProfiles(scenarios, fleetScenarios, profileDirs) {
  const profiles = { service: profile.readProfile(profileDirs.service), baseline: profile.readProfile(profileDirs.baseline) };
  for (const [name, { rounds }] of Object.entries(scenarios)) {
    if (!rounds.service || !rounds.baseline) continue;
    console.log(`\n${profile.toMarkdown(name, profile.perRequest(profiles, { service: rounds.service, baseline: rounds.baseline }))}`);
  }
  for (const [name, { rounds }] of Object.entries(fleetScenarios)) {
    const windows = { service: rounds.service, baseline: rounds.baseline };
    console.log(`\n${profile.toMarkdown(name, profile.perRequest(profiles, windows))}`);
    console.log(`\n${profile.toMarkdown(`${name}, by group`, profile.perRequest(profiles, windows, profile.groupOf))}`);
    console.log(`\n${profile.topFunctionsMarkdown(`${name}, A service`, profile.topFunctions(profiles.service, rounds.service))}`);
  }
  progress('profiled run: both targets ran slower under the profiler, so bench/results.json is left as it was');
}

function machineInfo() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model,
    cpuCount: cpus.length,
    totalMemMB: Math.round(os.totalmem() / 2 ** 20),
    node: process.version,
  };
}

function writeResults(file, results) {
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  progress(`results written to ${path.relative(ROOT, file)}`);
}

async function main() {
  const params = readParams();
  const autocannon = loadAutocannon();
  assertServiceBuilt(params.serviceEntry);
  children.installCleanup();
  process.on('exit', removeTempPaths);
  for (const port of Object.values(PORTS)) await children.assertPortFree(port);

  // Start-up first, while nothing else runs on the machine.
  let sqliteMs = [];
  let sqliteError;
  try {
    if (params.singleKey) sqliteMs = await measureSqliteStarts(params.serviceEntry);
  } catch (error) {
    sqliteError = error.message;
    progress(`SQLite start failed: ${error.message}`);
  }

  await recreateDatabase({ serverUrl: MYSQL_SERVER_URL, database: DATABASE });
  const profileDirs = params.cpuProfile ? { service: newDataDir(), baseline: newDataDir() } : undefined;
  const service = await startService(
    'service',
    params.serviceEntry,
    PORTS.service,
    // No drain delay: the profile is written when the process exits, before the bench gives up waiting.
    { DATABASE_URL, ...params.serviceExtraEnv, ...(profileDirs && { SHUTDOWN_DELAY_MS: '0' }) },
    profileDirs ? profile.nodeFlags(profileDirs.service) : [],
  );
  progress(`service ready in ${Math.round(service.startMs)} ms (log: ${service.handle.logFile})`);

  const seeded = await seedService();
  const pids = {
    service: service.handle.child.pid,
    ...(await startBaselineAndCeiling(seeded, profileDirs, params.serviceEntry)),
    // Counted when they run on this machine, as they do here: their CPU comes out of the same two cores.
    mariadb: cpu.findPid('mariadbd', 'mysqld'),
    rabbitmq: cpu.findPid('beam.smp'),
  };
  await checkGetClientAnswers(seeded.getClientKey);
  progress(`seeded ${SEEDED_CLIENTS} clients; baseline and ceiling ready`);

  const keyPool = new KeyPool(KEY_USES);
  keyPool.add(seeded.otherKeys);
  const clientNumbers = seed.clientNumbering(SEEDED_CLIENTS);
  const context = {
    autocannon,
    params,
    keyPool,
    keySupply: createAddKeySupply(keyPool, params, clientNumbers),
    getClientKey: seeded.getClientKey,
    pids,
  };
  const scenarios = {};
  for (const scenario of SCENARIOS.filter(({ name }) => params.singleKey && params.scenarioNames.includes(name))) {
    // Seeded when its turn comes, so that the scenarios before it run on the data they always had.
    if (scenario.name === 'resolve') context.resolveTokens = await seedResolveTokens(clientNumbers, scenario.targets);
    scenarios[scenario.name] = await runScenario(context, scenario);
  }

  // Memory right after the last scenario, as always: the event delay's writes come after it.
  const memory = children.residentMemory(service.handle.child.pid);
  const eventDelayResults = params.eventDelay ? await measureEventDelaySafely(context, clientNumbers) : undefined;
  // Last: the fleet grows the tables and the cache, which the figures above were never measured with.
  const fleetResults = params.fleet.enabled
    ? await fleet.runFleetSafely({
        ...context,
        fleetParams: params.fleet,
        urls: URLS,
        // The bench runs the service without OPS_PORT: /metrics is on its API port (not rate-limited).
        metricsUrl: `${URLS.service}/metrics`,
        databaseUrl: DATABASE_URL,
        clientNumbers,
        // A second service beside the first, same build, env and database (lib/fleet.js measures its memory).
        startServiceCopy: async (name, env) => {
          const copy = await startService(name, params.serviceEntry, PORTS.serviceCopy, {
            DATABASE_URL,
            ...params.serviceExtraEnv,
            ...env,
          });
          return { ...copy, url: `http://127.0.0.1:${PORTS.serviceCopy}` };
        },
      })
    : undefined;
  await children.stopAllChildren();

  const startup = {
    mysqlMs: service.startMs,
    sqliteMs,
    sqliteMedianMs: report.median(sqliteMs),
    ...(sqliteError && { sqliteError }),
  };
  const targets = report.evaluateTargets({ scenarios, memory, sqliteStartMs: startup.sqliteMedianMs });
  if (params.singleKey) console.log(report.toMarkdown({ params, scenarios, targets, memory, startup }));
  if (eventDelayResults) console.log(`\n${eventDelay.toMarkdown(eventDelayResults)}`);
  const fleetProblems = fleetResults ? fleet.problemsOf(fleetResults) : { errors: [], warnings: [] };
  if (fleetResults) console.log(`${params.singleKey ? '\n' : ''}${fleetReport.toMarkdown(fleetResults, params, fleetProblems)}`);
  if (profileDirs) {
    printProfiles(scenarios, fleetResults?.scenarios ?? {}, profileDirs);
    return;
  }
  writeResults(params.resultsFile, {
    machine: machineInfo(),
    date: new Date().toISOString(),
    params: { ...params, serviceEntry: path.relative(ROOT, params.serviceEntry), resultsFile: path.relative(ROOT, params.resultsFile) },
    ...(params.singleKey && {
      startup,
      memory,
      serviceLog: service.handle.logFile,
      smsConfigClientKeys: keyPool.keys.length,
      ...(context.resolveTokens && {
        resolvePool: { clients: RESOLVE_CLIENTS, smsConfigsPerTarget: RESOLVE_CLIENTS * RESOLVE_CONFIGS_PER_CLIENT },
      }),
      scenarios,
      targets: Object.fromEntries(targets.map(({ name, value, limit, pass }) => [name, { value, limit, pass }])),
    }),
    ...(!params.singleKey && { serviceLog: service.handle.logFile }),
    ...(eventDelayResults && { eventDelay: eventDelayResults }),
    ...(fleetResults && { fleet: fleetResults }),
  });
  if (params.strict && params.singleKey && !targets.every((target) => target.pass)) process.exitCode = 1;
  // A sampled write that failed, or whose event never came, is a failure whatever BENCH_STRICT says.
  const eventProblems = eventDelayResults ? eventDelay.problemsOf(eventDelayResults) : [];
  for (const problem of eventProblems) progress(`ERROR: event delay: ${problem}`);
  if (eventProblems.length > 0) process.exitCode = 3;
  // A fleet key the service did not answer with a 200 is a failure whatever BENCH_STRICT says.
  for (const problem of fleetProblems.errors) progress(`ERROR: fleet: ${problem}`);
  for (const problem of fleetProblems.warnings) progress(`WARNING: fleet: ${problem}`);
  if (fleetProblems.errors.length > 0) process.exitCode = 4;
}

main()
  .catch((error) => {
    console.error(`bench failed: ${error.message}`);
    process.exitCode = 2;
  })
  .finally(async () => {
    await children.stopAllChildren();
    removeTempPaths();
  });
