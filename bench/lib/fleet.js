'use strict';
// Fleet scenarios: get-client the way a notification platform calls it, for a fleet of tens of thousands of clients,
// each request for a client drawn by a law (Zipf or uniform) instead of one hot key. The service (A) and the baseline
// (B) read the same rows, seeded through the service's API; rounds interleaved A B A B …, medians over rounds, as the
// single-key scenarios. Each scenario starts from the state the one before left.
//   env: BENCH_FLEET=0 (skip), BENCH_FLEET_ONLY=1 (only these: see run.js), BENCH_FLEET_CLIENTS (20000),
//        BENCH_LARGE_FLEET_CLIENTS (100000, the first BENCH_FLEET_CLIENTS of them the fleet's),
//        BENCH_FLEET_SCENARIOS (comma-separated names, all by default; for quick looks),
//        BENCH_FLEET_SEED_CONCURRENCY (seeding tasks at a time, lib/fleet-seed.js),
//        BENCH_FLEET_WARMUP (s, 10: per target per scenario, unmeasured),
//        BENCH_FLEET_ROUND_WARMUP (s, 3: per target before each of its rounds, unmeasured),
//        BENCH_FLEET_MEMORY=0 (skips the memory measurement after the scenarios; the profiled run never makes it)
// Memory, after the scenarios: the RSS of a second service whose cache holds nothing (CLIENT_CACHE_MB=0) under the
// fleet-uniform load, beside the first's with its cache full after fleet-large-uniform: what the service costs
// without its cache, and what the cache adds.

const children = require('./children');
const cpu = require('./cpu');
const eventDelay = require('./event-delay');
const { SEED_CONCURRENCY, configsOf, seedFleet, checkAnswers } = require('./fleet-seed');
const { drawIndexes, describeDraws } = require('./key-draws');
const { runLoad } = require('./load');
const { monotonicMicros } = require('./profile');
const { halvesOf, median, targetsInRound } = require('./report');
const { SMS_CONFIG_BODY } = require('./seed');

const GET_PATH = '/api/client/get/secretKey';
const ADD_PATH = '/api/sms-config/add';
const WRITE_BODY = Buffer.from(JSON.stringify(SMS_CONFIG_BODY));
const WRITE_HEADERS = { 'content-type': 'application/json' };
const TARGETS = ['service', 'baseline'];
// Reads are measured against the ceiling too (bare Fastify answering each fleet key from memory); writes are not its.
const READ_TARGETS = [...TARGETS, 'ceiling'];
// Keys posted to the ceiling at a time.
const CEILING_KEYS_PER_POST = 10000;
// Draws per scenario, read in turn across its warm-ups and rounds (and again from the start past the end): more than
// a scenario sends at the rates seen here, so that no round replays another's sequence.
const DRAWS = 1 << 21;
const DRAW_SEED = 0x5eed;
// Seeding writes an audit event per write; the relay publishes them in the background, and the rounds should not pay
// for that backlog.
const OUTBOX_DRAIN_TIMEOUT_MS = 300000;
// The memory measurement's second service: a cache that holds nothing, and the load it runs.
const EMPTY_CACHE_ENV = { CLIENT_CACHE_MB: '0' };
const MEMORY_LOAD = 'fleet-uniform';
const EMPTY_CACHE_RSS_LIMIT_MB = 150;

const SCENARIOS = [
  { name: 'fleet-zipf', fleet: 'fleet', law: 'zipf' },
  { name: 'fleet-uniform', fleet: 'fleet', law: 'uniform' },
  // One request in fifty adds a configuration to a client drawn uniformly: that client's cached answer is invalidated.
  { name: 'fleet-mix', fleet: 'fleet', law: 'zipf', writeEvery: 50 },
  { name: 'fleet-large-uniform', fleet: 'large', law: 'uniform' },
];

const progress = (message) => process.stderr.write(`[bench] ${message}\n`);

function readParams(env = process.env) {
  const params = {
    enabled: env.BENCH_FLEET !== '0',
    only: env.BENCH_FLEET_ONLY === '1',
    clients: Number(env.BENCH_FLEET_CLIENTS || 20000),
    largeClients: Number(env.BENCH_LARGE_FLEET_CLIENTS || 100000),
    seedConcurrency: Number(env.BENCH_FLEET_SEED_CONCURRENCY || SEED_CONCURRENCY),
    memory: env.BENCH_FLEET_MEMORY !== '0',
    // Long enough for the cache to reach its steady state: with 2 s, a Zipf fleet's first round still paid its tail's
    // first reads (92% from the cache against 99% in the next rounds), which a service that has been up for a minute
    // no longer does.
    warmupSeconds: Number(env.BENCH_FLEET_WARMUP || 10),
    roundWarmupSeconds: Number(env.BENCH_FLEET_ROUND_WARMUP ?? 3),
    scenarioNames: env.BENCH_FLEET_SCENARIOS ? env.BENCH_FLEET_SCENARIOS.split(',') : SCENARIOS.map(({ name }) => name),
  };
  if (!(params.clients >= 1 && params.largeClients >= params.clients)) {
    throw new Error('BENCH_FLEET_CLIENTS must be >= 1 and BENCH_LARGE_FLEET_CLIENTS >= BENCH_FLEET_CLIENTS');
  }
  const unknown = params.scenarioNames.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
  if (unknown.length > 0) throw new Error(`unknown fleet scenario(s): ${unknown.join(', ')}`);
  return params;
}

async function drainOutbox(backlog) {
  const { waiting, waitedMs } = await eventDelay.awaitEmptyOutbox(backlog, OUTBOX_DRAIN_TIMEOUT_MS);
  if (waiting === undefined) return { waitedMs };
  progress(
    waiting > 0
      ? `WARNING: fleet: ${waiting} outbox entries still unpublished after ${Math.round(waitedMs)} ms, going on`
      : `fleet: outbox empty after ${Math.round(waitedMs)} ms`,
  );
  return { waitedMs, stillWaiting: waiting };
}

/** The service's Prometheus text, as { 'name{labels}': value }; undefined when it cannot be read. */
async function scrapeMetrics(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) return undefined;
    const values = {};
    for (const line of (await response.text()).split('\n')) {
      const match = /^([A-Za-z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
      if (match) values[match[1] + (match[2] ?? '')] = Number(match[3]);
    }
    return values;
  } catch {
    return undefined;
  }
}

/** A gauge's value: unlabelled if so exposed, else the sum of its series; undefined when the build has none. */
function gauge(values, name) {
  if (name in values) return values[name];
  const series = Object.keys(values).filter((key) => key.startsWith(`${name}{`));
  return series.length > 0 ? series.reduce((total, key) => total + values[key], 0) : undefined;
}

/** The cache's size gauges, each undefined when the build has none. */
function cacheSize(values) {
  return {
    bytes: gauge(values, 'client_cache_bytes'),
    entries: gauge(values, 'client_cache_entries'),
    budgetBytes: gauge(values, 'client_cache_budget_bytes'),
  };
}

/**
 * The cache's hits and misses over one round (counter deltas), and its size at the round's end. The counters count
 * lookups, and one request may look up more than once (the guard, then the answer): fromCache, 1 - misses / requests,
 * is the share of the round's requests answered without the database.
 */
function cacheDuring(before, after, requests) {
  if (!before || !after) return undefined;
  // A labelled counter has no series until its first increment: absent before, it was 0.
  const delta = (key) => (key in after ? after[key] - (before[key] ?? 0) : undefined);
  const hits = delta('client_cache_hits_total{kind="found"}');
  const misses = delta('client_cache_misses_total');
  return {
    hits,
    misses,
    hitRatio: hits + misses > 0 ? hits / (hits + misses) : undefined,
    fromCache: requests > 0 && misses !== undefined ? 1 - misses / requests : undefined,
    ...cacheSize(after),
  };
}

/**
 * Per kind of request ('get' or 'add'), the answers' statuses and latencies (ms, all statuses). autocannon's own figures
 * mix both kinds; the kind is what setupRequest put in the connection's context, still there when the answer comes
 * (pipelining 1: the next request is set up after the 'response' event).
 */
function kindRecorder() {
  const kinds = {};
  return {
    onResponse(client, statusCode, _bytes, ms) {
      const kind = client.requestIterator.context.kind ?? 'get';
      const k = (kinds[kind] ??= { answers: 0, statusCodes: {}, latencies: new Float64Array(1 << 16) });
      if (k.answers === k.latencies.length) {
        const bigger = new Float64Array(k.latencies.length * 2);
        bigger.set(k.latencies);
        k.latencies = bigger;
      }
      k.latencies[k.answers++] = ms;
      k.statusCodes[statusCode] = (k.statusCodes[statusCode] ?? 0) + 1;
    },
    /** rps: autocannon's (all kinds), shared out by each kind's part of the answers. */
    summary(rps) {
      const total = Object.values(kinds).reduce((sum, k) => sum + k.answers, 0);
      return Object.fromEntries(
        Object.entries(kinds).map(([kind, k]) => {
          const sorted = k.latencies.subarray(0, k.answers).sort();
          const nearestRank = (q) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
          const non2xx = Object.entries(k.statusCodes).reduce((sum, [code, n]) => sum + (code >= 200 && code < 300 ? 0 : n), 0);
          return [
            kind,
            {
              answers: k.answers,
              rps: (rps * k.answers) / total,
              p50: nearestRank(0.5),
              p99: nearestRank(0.99),
              non2xx,
              statusCodes: k.statusCodes,
            },
          ];
        }),
      );
    },
  };
}

/** autocannon options for one run; `draws` holds the scenario's cursors, so that each run goes on where the last stopped. */
function requestOptions(keys, draws, writeEvery) {
  return {
    method: 'POST',
    requests: [
      {
        setupRequest(request, context) {
          const n = draws.next++;
          // New headers objects: autocannon's are shared with the request template.
          if (writeEvery && n % writeEvery === writeEvery - 1) {
            context.kind = 'add';
            request.path = ADD_PATH;
            request.headers = { ...WRITE_HEADERS, secretKey: keys[draws.writeKeys[draws.writes++ % DRAWS]] };
            request.body = WRITE_BODY;
          } else {
            context.kind = 'get';
            request.headers = { secretKey: keys[draws.getKeys[n % DRAWS]] };
          }
          return request;
        },
      },
    ],
  };
}

/** One run against target; its cache's figures when context.metricsUrls has its /metrics (a service's). */
async function runOnce(context, scenario, target, seconds) {
  const { autocannon, params, urls, pids } = context;
  const metricsUrl = context.metricsUrls[target];
  const recorder = kindRecorder();
  const metricsBefore = metricsUrl ? await scrapeMetrics(metricsUrl) : undefined;
  const countCpu = cpu.startCounting({ target: pids[target], mariadb: pids.mariadb, rabbitmq: pids.rabbitmq });
  const start = monotonicMicros();
  const result = await runLoad(autocannon, {
    url: urls[target] + GET_PATH,
    connections: params.connections,
    seconds,
    options: requestOptions(scenario.keys, scenario.draws, scenario.writeEvery),
    onResponse: recorder.onResponse,
  });
  // The profiled run counts the samples inside the measured rounds only (lib/profile.js).
  if (params.cpuProfile) result.window = [start, monotonicMicros()];
  result.cpuMicrosPerAnswer = countCpu(result.completed);
  result.kinds = recorder.summary(result.rps);
  if (metricsUrl) {
    const requests = Object.values(result.kinds).reduce((sum, kind) => sum + kind.answers, 0);
    result.cache = cacheDuring(metricsBefore, await scrapeMetrics(metricsUrl), requests);
  }
  return result;
}

function roundProgress(name, label, target, { rps, kinds: { get, add }, cache, errors }) {
  const share = (value) => (value === undefined ? 'n/a' : `${(value * 100).toFixed(1)}%`);
  const hits = cache ? `, hit ratio ${share(cache.hitRatio)}, from cache ${share(cache.fromCache)}` : '';
  const writes = add ? `, writes ${add.answers} (non-2xx ${add.non2xx}), all ${Math.round(rps)} req/s` : '';
  return (
    `${name} ${label} ${target}: get-client ${Math.round(get?.rps ?? 0)} req/s, p50 ${get?.p50?.toFixed(1)} ms, ` +
    `p99 ${get?.p99?.toFixed(1)} ms, non-2xx ${get?.non2xx ?? 0}${writes}, connection errors ${errors}${hits}`
  );
}

/** One target's rounds: get-client medians (what the table shows), overall medians, failures summed. */
function summarizeTarget(results) {
  const of = (pick) => median(results.map(pick));
  const cpuNames = Object.keys(results[0]?.cpuMicrosPerAnswer ?? {});
  const sum = (pick) => results.reduce((total, result) => total + (pick(result) ?? 0), 0);
  return {
    get: {
      rps: of((r) => r.kinds.get?.rps),
      p50: of((r) => r.kinds.get?.p50),
      p99: of((r) => r.kinds.get?.p99),
      non2xx: sum((r) => r.kinds.get?.non2xx),
    },
    all: { rps: of((r) => r.rps), p50: of((r) => r.p50), p99: of((r) => r.p99) },
    writes: results.some((r) => r.kinds.add)
      ? { answers: sum((r) => r.kinds.add?.answers), non2xx: sum((r) => r.kinds.add?.non2xx) }
      : undefined,
    errors: sum((r) => r.errors),
    cpuMicrosPerAnswer: Object.fromEntries(cpuNames.map((name) => [name, of((r) => r.cpuMicrosPerAnswer[name])])),
    cacheHitRatio: of((r) => r.cache?.hitRatio),
    cacheFromCache: of((r) => r.cache?.fromCache),
    cacheBytes: of((r) => r.cache?.bytes),
    cacheEntries: of((r) => r.cache?.entries),
    cacheBudgetBytes: of((r) => r.cache?.budgetBytes),
  };
}

function targetsOf(definition) {
  return definition.writeEvery ? TARGETS : READ_TARGETS;
}

/**
 * Teaches the ceiling the answers of keys[from..]: the service's answer for the first key of each shape (one
 * configuration, two), with each other key of that shape written in its place.
 */
async function teachCeiling(urls, keys, from) {
  for (let shape = 0; shape < 2; shape++) {
    const templateKey = keys[from + shape];
    const response = await fetch(urls.service + GET_PATH, { method: 'POST', headers: { secretKey: templateKey } });
    if (response.status !== 200) throw new Error(`the ceiling's template: the service answered ${response.status}`);
    const template = await response.text();
    const shaped = keys.slice(from).filter((_, i) => configsOf(from + i) === configsOf(from + shape));
    for (let at = 0; at < shaped.length; at += CEILING_KEYS_PER_POST) {
      const body = JSON.stringify({ template, templateKey, keys: shaped.slice(at, at + CEILING_KEYS_PER_POST) });
      const taught = await fetch(urls.ceiling + '/bench/answers', { method: 'POST', headers: WRITE_HEADERS, body });
      if (!taught.ok) throw new Error(`the ceiling refused the fleet's answers: ${taught.status} ${await taught.text()}`);
    }
  }
}

/** A scenario's draws over n clients, from the start of its seeded sequence. */
function newDraws(definition, n) {
  return {
    next: 0,
    writes: 0,
    getKeys: drawIndexes({ n, law: definition.law, count: DRAWS, seed: DRAW_SEED }),
    writeKeys: definition.writeEvery ? drawIndexes({ n, law: 'uniform', count: DRAWS, seed: DRAW_SEED + 1 }) : undefined,
  };
}

async function runScenario(context, definition, keys) {
  const { params } = context;
  const n = keys.length;
  const draws = newDraws(definition, n);
  const drawn = describeDraws(draws.getKeys, n);
  const writes = definition.writeEvery ? `, 1 request in ${definition.writeEvery} an add-sms-config` : '';
  progress(
    `${definition.name}: ${n} clients, ${definition.law} keys (${drawn.distinct} distinct in ${DRAWS} draws, ` +
      `busiest ${(drawn.busiestShare * 100).toFixed(2)}%)${writes}`,
  );
  const scenario = { ...definition, keys, draws };
  const targets = targetsOf(definition);
  const warmup = {};
  for (const target of targets) {
    warmup[target] = await runOnce(context, scenario, target, context.fleetParams.warmupSeconds);
    progress(roundProgress(definition.name, 'warm-up', target, warmup[target]));
  }
  const rounds = Object.fromEntries(targets.map((target) => [target, []]));
  for (let round = 1; round <= params.rounds; round++) {
    for (const target of targetsInRound(targets, round, params.rounds)) {
      // Idle while the others ran, a service finds a third of its entries past their 45–60 s: serving without a pause,
      // as in production, it refreshes them as they come due, not all at once in the round.
      if (context.fleetParams.roundWarmupSeconds > 0) await runOnce(context, scenario, target, context.fleetParams.roundWarmupSeconds);
      const result = await runOnce(context, scenario, target, params.durationSeconds);
      rounds[target].push(result);
      progress(roundProgress(definition.name, `round ${round}`, target, result));
    }
  }
  const medians = Object.fromEntries(targets.map((target) => [target, summarizeTarget(rounds[target])]));
  const halfMedians = halvesOf(params.rounds).map(([from, to]) =>
    Object.fromEntries(targets.map((target) => [target, summarizeTarget(rounds[target].slice(from, to))])),
  );
  const { service, baseline, ceiling } = medians;
  return {
    clients: n,
    law: definition.law,
    writeEvery: definition.writeEvery,
    draws: { count: DRAWS, ...drawn },
    warmup,
    rounds,
    medians,
    ratio: service.get.rps / baseline.get.rps,
    ceilingRatio: ceiling ? service.get.rps / ceiling.get.rps : undefined,
    halves: halfMedians.map((m) => ({
      ratio: m.service.get.rps / m.baseline.get.rps,
      ceilingRatio: m.ceiling ? m.service.get.rps / m.ceiling.get.rps : undefined,
    })),
    p99NotWorse: service.get.p99 <= baseline.get.p99,
    // The cache's size read with the RSS: after fleet-large-uniform, what a full cache costs (measureMemory).
    memory: { ...children.residentMemory(context.pids.service), cache: cacheSize((await scrapeMetrics(context.metricsUrl)) ?? {}) },
  };
}

/**
 * A second service (context.startServiceCopy: same build, env and database, its own port) with a cache that holds
 * nothing: its warm-up and one round of the MEMORY_LOAD load over the fleet, then its VmRSS and VmHWM. Beside it, the
 * first service's after fleet-large-uniform, its cache at its budget. The check is on the RSS after the round.
 */
async function measureMemory(context, keys, scenarios) {
  const { params, fleetParams } = context;
  const definition = SCENARIOS.find(({ name }) => name === MEMORY_LOAD);
  const target = 'emptyCacheService';
  const copy = await context.startServiceCopy('service-empty-cache', EMPTY_CACHE_ENV);
  let emptyCache;
  try {
    const copyContext = {
      ...context,
      urls: { ...context.urls, [target]: copy.url },
      pids: { ...context.pids, [target]: copy.handle.child.pid },
      metricsUrls: { [target]: `${copy.url}/metrics` },
    };
    const n = fleetParams.clients;
    const scenario = { ...definition, keys: keys.slice(0, n), draws: newDraws(definition, n) };
    const label = `memory (${Object.entries(EMPTY_CACHE_ENV)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ')})`;
    const warmup = await runOnce(copyContext, scenario, target, fleetParams.warmupSeconds);
    progress(roundProgress(MEMORY_LOAD, `${label} warm-up`, 'service', warmup));
    const round = await runOnce(copyContext, scenario, target, params.durationSeconds);
    progress(roundProgress(MEMORY_LOAD, `${label} round`, 'service', round));
    emptyCache = {
      env: EMPTY_CACHE_ENV,
      load: MEMORY_LOAD,
      clients: n,
      startMs: copy.startMs,
      ...children.residentMemory(copy.handle.child.pid),
      cache: round.cache,
      warmup,
      round,
      log: copy.handle.logFile,
    };
  } finally {
    await children.stopChild(copy.handle);
  }
  const large = scenarios['fleet-large-uniform'];
  const fullCache = large && { scenario: 'fleet-large-uniform', clients: large.clients, ...large.memory };
  progress(
    `memory: cache empty ${emptyCache.rssMB.toFixed(1)} MB (peak ${emptyCache.peakRssMB.toFixed(1)}), full cache ` +
      (fullCache ? `${fullCache.rssMB.toFixed(1)} MB (peak ${fullCache.peakRssMB.toFixed(1)})` : 'not measured (no fleet-large-uniform)'),
  );
  return {
    emptyCache,
    fullCache,
    check: {
      name: 'RSS under load with an empty cache',
      value: emptyCache.rssMB,
      limit: `<= ${EMPTY_CACHE_RSS_LIMIT_MB} MB`,
      pass: emptyCache.rssMB <= EMPTY_CACHE_RSS_LIMIT_MB,
    },
  };
}

/**
 * Seeds the fleet (and, when a scenario needs it, the large fleet) and runs the scenarios in order. context: autocannon,
 * params (run.js's: connections, durations, rounds, warm-up), fleetParams (readParams()), urls and pids of service and
 * baseline (pids.mariadb, pids.rabbitmq too), metricsUrl (the service's GET /metrics), databaseUrl, clientNumbers.
 */
async function runFleet(fleetContext) {
  const context = { ...fleetContext, metricsUrls: { service: fleetContext.metricsUrl } };
  const { params, fleetParams, urls, databaseUrl, clientNumbers } = context;
  const backlog = eventDelay.outboxBacklog(databaseUrl);
  const keys = [];
  const seeding = [];
  const grow = async (size) => {
    if (keys.length >= size) return;
    const from = keys.length;
    const { pids } = context;
    const seeded = await seedFleet(
      {
        baseUrl: urls.service,
        pids: { service: pids.service, mariadb: pids.mariadb, rabbitmq: pids.rabbitmq },
        concurrency: fleetParams.seedConcurrency,
      },
      keys,
      size - from,
      clientNumbers,
    );
    seeded.answersChecked = await checkAnswers(urls, keys, from);
    await teachCeiling(urls, keys, from);
    seeded.outbox = await drainOutbox(backlog);
    seeding.push(seeded);
  };
  const scenarios = {};
  for (const definition of SCENARIOS.filter(({ name }) => fleetParams.scenarioNames.includes(name))) {
    const size = definition.fleet === 'large' ? fleetParams.largeClients : fleetParams.clients;
    await grow(size);
    await drainOutbox(backlog); // the writes of the scenario before (fleet-mix) publish their events too
    scenarios[definition.name] = await runScenario(context, definition, keys.slice(0, size));
    const { rssMB } = scenarios[definition.name].memory;
    progress(`${definition.name}: service RSS ${rssMB.toFixed(1)} MB`);
  }
  // Not under the profiler: it slows the service it runs in, and the second would run without it.
  let memory;
  if (fleetParams.memory && !params.cpuProfile) {
    try {
      await grow(fleetParams.clients);
      memory = await measureMemory(context, keys, scenarios);
    } catch (error) {
      progress(`ERROR: fleet memory not measured: ${error.message}`);
      memory = { error: error.message };
    }
  }
  return {
    params: { ...fleetParams, draws: DRAWS, drawSeed: DRAW_SEED },
    seeding,
    scenarios,
    ...(memory && { memory }),
  };
}

/** The fleet scenarios, or the reason they could not be measured: the rest is printed and written either way. */
async function runFleetSafely(context) {
  try {
    return await runFleet(context);
  } catch (error) {
    progress(`ERROR: fleet scenarios not measured: ${error.message}`);
    return { error: error.message };
  }
}

/**
 * What must fail the bench (errors) and what must be seen (warnings): any get-client answer of the service but a 200
 * (warm-ups included), or a connection error or timeout; the baseline's failures and the writes' refusals are reported.
 */
function problemsOf({ error, scenarios = {}, memory }) {
  const errors = error ? [`not measured: ${error}`] : [];
  const warnings = [];
  if (memory?.error) warnings.push(`memory not measured: ${memory.error}`);
  // The second service is the service too: its answers must all be 200s.
  for (const run of memory?.emptyCache ? [memory.emptyCache.warmup, memory.emptyCache.round] : []) {
    const notOk = Object.entries(run.kinds.get?.statusCodes ?? {}).reduce((sum, [code, n]) => sum + (code === '200' ? 0 : n), 0);
    if (notOk > 0)
      errors.push(`memory: the service with an empty cache answered ${notOk} get-client requests with a status other than 200`);
    if (run.errors > 0) errors.push(`memory: the service with an empty cache: ${run.errors} connection errors or timeouts`);
  }
  if (memory?.emptyCache?.cache?.bytes > 0)
    warnings.push(`memory: CLIENT_CACHE_MB=0, yet client_cache_bytes ${memory.emptyCache.cache.bytes}`);
  for (const [name, { warmup, rounds }] of Object.entries(scenarios)) {
    for (const target of Object.keys(rounds)) {
      const runs = [warmup[target], ...rounds[target]];
      const notOk = (statusCodes = {}) => Object.entries(statusCodes).reduce((sum, [code, n]) => sum + (code === '200' ? 0 : n), 0);
      const get = runs.reduce((sum, run) => sum + notOk(run.kinds.get?.statusCodes), 0);
      const writes = runs.reduce((sum, run) => sum + (run.kinds.add?.non2xx ?? 0), 0);
      const connectionErrors = runs.reduce((sum, run) => sum + run.errors, 0);
      const codes = [...new Set(runs.flatMap((run) => Object.keys(run.kinds.get?.statusCodes ?? {})))].join(', ');
      const lines = target === 'service' ? errors : warnings;
      if (get > 0)
        lines.push(`${name}: ${target} answered ${get} get-client requests with a status other than 200 (statuses seen: ${codes})`);
      if (connectionErrors > 0) lines.push(`${name}: ${target}: ${connectionErrors} connection errors or timeouts`);
      if (writes > 0) warnings.push(`${name}: ${target} refused ${writes} add-sms-config writes (non-2xx)`);
    }
  }
  return { errors, warnings };
}

// GET_PATH, newDraws and requestOptions: compare-builds.js sends the same fleet requests to two builds.
module.exports = { SCENARIOS, GET_PATH, readParams, newDraws, requestOptions, runFleetSafely, problemsOf };
