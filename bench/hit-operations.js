'use strict';
// What each operation the service owes every answer costs a cached get-client, in isolation and together: the
// service's own code from its build, called in this process as a hit calls it, over keys drawn by Zipf's law from
// HIT_OPERATIONS_KEYS made-up keys (20,000), yielding to the event loop every 16 calls as a loaded service's turns do
// (so the log's writes happen as they would). Rounds interleave the operations; each figure is the median of its
// rounds less the same loop doing nothing. Answers the service's CPU, not its throughput: over HTTP, single
// operations of 1-4 µs drown in this machine's noise (docs: BENCHMARKS.md, Where the time of a hit goes).
//   npm run bench:hit-operations
//   env: ROUNDS (7), HIT_OPERATIONS_CALLS (100000 a round), HIT_OPERATIONS_BEFORE_DIR (another build, e.g. the one
//        before a change: each operation is then measured on both, in the same rounds)
const path = require('node:path');
const { drawIndexes } = require('./lib/key-draws');
const { median } = require('./lib/report');

const KEYS = Number(process.env.HIT_OPERATIONS_KEYS || 20_000);
const ROUNDS = Number(process.env.ROUNDS || 7);
const CALLS = Number(process.env.HIT_OPERATIONS_CALLS || 100_000);
const CALLS_PER_TURN = 16;

const GET_CLIENT_ROUTE = '/api/client/get/secretKey';

/** One hit's share of each operation, done by the code of the build in dir, as its edge does it. */
function operationsOf(dir) {
  const service = (file) => require(path.join(path.resolve(dir), file));
  const { createRequestId } = service('common/request-id');
  const { logAnswer } = service('http/access-log');
  const { timeAnswer } = service('http/edge');
  const { createLoggers } = service('logging/logger-options');
  const { REQUEST_DURATION } = service('metrics/http-metrics');
  const { FixedWindowThrottlerStorage } = service('rate-limit/fixed-window.storage');
  const { credentialTracker, THROTTLER_NAME } = service('rate-limit/credential');
  const { KeyUsageNotes } = service('key-usage/key-usage-notes');
  const { sha256Hex } = service('auth/digest');
  const { Histogram, Registry } = require('prom-client');

  // At the default level, on a file as LOG_FILE writes it: /dev/null keeps the write(2) and drops the bytes.
  // get-client quiet, as the service's edge declares it (older builds ignore the third argument).
  const logged = logAnswer(createLoggers({ level: 'info', pretty: false, file: '/dev/null' }).access, () => false, [GET_CLIENT_ROUTE]);
  const timed = timeAnswer(new Histogram({ ...REQUEST_DURATION, registers: [new Registry()] }));
  const rateLimit = new FixedWindowThrottlerStorage();
  const keyUsage = new KeyUsageNotes();
  const done = () => undefined;
  const request = {
    id: createRequestId(),
    method: 'POST',
    url: GET_CLIENT_ROUTE,
    raw: { headers: {} },
    routeOptions: { url: GET_CLIENT_ROUTE },
  };
  const reply = { statusCode: 200, elapsedTime: 0.42 };

  return {
    'request id': () => createRequestId(),
    'access log line': () => logged(request, reply, done),
    'duration histogram': () => timed(request, reply, done),
    "key's SHA-256": (key) => sha256Hex(key),
    'key usage noted': (_key, digest) => keyUsage.note(digest, 'root', '127.0.0.1'),
    'rate limit counted': (_key, digest) =>
      rateLimit.hit(FixedWindowThrottlerStorage.keyOf(THROTTLER_NAME, credentialTracker(digest)), 60_000, 5_000_000, 60_000),
  };
}

async function timeCalls(operation, keys, digests, draws, offset) {
  const started = process.hrtime.bigint();
  for (let call = 0; call < CALLS; call++) {
    const index = draws[(offset + call) % draws.length];
    operation(keys[index], digests[index]);
    if (call % CALLS_PER_TURN === CALLS_PER_TURN - 1) await new Promise(setImmediate);
  }
  return Number(process.hrtime.bigint() - started) / CALLS;
}

async function main() {
  const builds = [{ label: 'now', dir: process.env.CEILING_SERVICE_DIR || path.join(__dirname, '..', 'dist') }];
  if (process.env.HIT_OPERATIONS_BEFORE_DIR) builds.unshift({ label: 'before', dir: process.env.HIT_OPERATIONS_BEFORE_DIR });
  const { sha256Hex } = require(path.join(path.resolve(builds.at(-1).dir), 'auth/digest'));
  const keys = Array.from({ length: KEYS }, (_, index) => `sk_${String(index).padStart(43, 'k')}`);
  const digests = keys.map(sha256Hex);
  const draws = drawIndexes({ n: KEYS, law: 'zipf', count: 1 << 20, seed: KEYS });

  const measured = [{ build: '', name: 'the loop alone', operation: () => undefined }];
  for (const { label, dir } of builds) {
    const operations = operationsOf(dir);
    const all = Object.values(operations);
    measured.push(...Object.entries(operations).map(([name, operation]) => ({ build: label, name, operation })));
    measured.push({ build: label, name: 'all of them', operation: (key, digest) => all.forEach((each) => each(key, digest)) });
  }
  for (const entry of measured) entry.rounds = [];
  let offset = 0;
  for (let round = 0; round <= ROUNDS; round++) {
    for (let step = 0; step < measured.length; step++) {
      const entry = measured[(round + step) % measured.length];
      const nanoseconds = await timeCalls(entry.operation, keys, digests, draws, (offset += CALLS));
      // Round 0 warms every operation up and is not counted.
      if (round > 0) entry.rounds.push(nanoseconds);
    }
  }
  console.log(toMarkdown(measured, builds));
}

function toMarkdown(measured, builds) {
  const loop = median(measured[0].rounds);
  const cost = (entry) => Math.max(0, median(entry.rounds) - loop);
  const names = [...new Set(measured.slice(1).map(({ name }) => name))];
  const figure = (name, build) => measured.find((entry) => entry.name === name && entry.build === build);
  const header = builds.map(({ label }) => `ns a hit, ${label}`);
  const rows = names.map((name) => `| ${name} | ${builds.map(({ label }) => cost(figure(name, label)).toFixed(0)).join(' | ')} |`);
  return [
    `Per-answer operations of a cached get-client, ${KEYS} keys by Zipf, median of ${ROUNDS} rounds of ${CALLS} calls, less the loop (${loop.toFixed(0)} ns)`,
    '',
    `| operation | ${header.join(' | ')} |`,
    `| --- | ${builds.map(() => '---:').join(' | ')} |`,
    ...rows,
  ].join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
