'use strict';
// One key against many in one process: a service seeded with a fleet through its API (as npm run bench's fleet is),
// then get-client for a while with keys drawn uniformly, by Zipf, or one key only, one phase after another. Each phase
// gives req/s, p99, CPU per answer of the service and MariaDB, and with --trace-gc its young and old collections; with
// KEYS_CPU_PROFILE=1 the service runs under --cpu-prof and each phase's samples are shared out by the part of a hit in
// their stack (lib/profile.js, partsOf). What one process went through (the seeding's writes) applies to every phase alike, so
// the phases differ only by the keys drawn (BENCHMARKS.md, What a hit costs over many keys).
//   npm run bench:keys
//   env: KEYS_CLIENTS (20000), KEYS_PHASES (uniform,one,zipf,uniform,one,zipf), KEYS_SECONDS (15 a phase),
//        KEYS_CPU_PROFILE=1, KEYS_TRACE_GC=0 (without --trace-gc), BENCH_SERVICE_ENTRY (another build's main.js),
//        BENCH_SERVICE_ENV ('NAME=value ...' more for the service), BENCH_DATABASE (registry_keys), BENCH_PORT (3130)
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const children = require('./lib/children');
const cpu = require('./lib/cpu');
const { recreateDatabase } = require('./lib/database');
const { seedFleet } = require('./lib/fleet-seed');
const { drawIndexes } = require('./lib/key-draws');
const { runLoad } = require('./lib/load');
const { monotonicMicros, nodeFlags, partsOf, readProfile } = require('./lib/profile');
const { markdownTable } = require('./lib/report');
const seed = require('./lib/seed');
const { envListOf, serviceEnv } = require('./lib/service');

const ROOT = path.resolve(__dirname, '..');
const CLIENTS = Number(process.env.KEYS_CLIENTS || 20000);
const PHASES = (process.env.KEYS_PHASES || 'uniform,one,zipf,uniform,one,zipf').split(',');
const SECONDS = Number(process.env.KEYS_SECONDS || 15);
const PROFILE = process.env.KEYS_CPU_PROFILE === '1';
const TRACE_GC = process.env.KEYS_TRACE_GC !== '0';
const ENTRY = path.resolve(process.env.BENCH_SERVICE_ENTRY || path.join(ROOT, 'dist/main.js'));
const DATABASE = process.env.BENCH_DATABASE || 'registry_keys';
const PORT = Number(process.env.BENCH_PORT || 3130);
const URL = `http://127.0.0.1:${PORT}`;
const GET_PATH = '/api/client/get/secretKey';
const DRAWS = 1 << 21;
const CONNECTIONS = 50;
const WARMUP_SECONDS = 10;

const progress = (message) => process.stderr.write(`[keys] ${message}\n`);

/** Young and old collections in a slice of --trace-gc output: count and milliseconds of pause of each kind. */
function collectionsIn(text) {
  const kinds = {};
  for (const [, kind, pauseMs] of text.matchAll(/ms: (Scavenge|Mark-Compact|Mark-sweep)\S* [^,]*, ([\d.]+) \//g)) {
    const k = (kinds[kind] ??= { count: 0, pauseMs: 0 });
    k.count++;
    k.pauseMs += Number(pauseMs);
  }
  return kinds;
}

async function main() {
  children.installCleanup();
  if (!fs.existsSync(ENTRY)) throw new Error(`no build at ${ENTRY}: run npx nest build first`);
  await recreateDatabase({ serverUrl: 'mysql://root@127.0.0.1:3306', database: DATABASE });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-data-'));
  const profileDir = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'keys-profile-')) : undefined;
  const flags = [...(TRACE_GC ? ['--trace-gc'] : []), ...(profileDir ? nodeFlags(profileDir) : [])];
  const env = serviceEnv({
    port: PORT,
    encryptionKey: crypto.randomBytes(32).toString('base64'),
    dataDir,
    DATABASE_URL: `mysql://root@127.0.0.1:3306/${DATABASE}`,
    SHUTDOWN_DELAY_MS: '0',
    ...envListOf('BENCH_SERVICE_ENV'),
  });
  const service = children.startNodeChild('keys-service', [...flags, ENTRY], { cwd: ROOT, env });
  try {
    await children.waitForHttp200(service, `${URL}/health`, 60000);
    await seed.approveProviderHosts(URL);
    const pids = { service: service.child.pid, mariadb: cpu.findPid('mariadbd', 'mysqld') };
    const keys = [];
    await seedFleet({ baseUrl: URL, pids }, keys, CLIENTS, seed.clientNumbering(0));
    const draws = {
      uniform: drawIndexes({ n: CLIENTS, law: 'uniform', count: DRAWS, seed: 7 }),
      zipf: drawIndexes({ n: CLIENTS, law: 'zipf', count: DRAWS, seed: 7 }),
      one: new Uint32Array(DRAWS),
    };
    const cursors = { uniform: 0, zipf: 0, one: 0 };
    const load = (law, seconds) =>
      runLoad(require('autocannon'), {
        url: URL + GET_PATH,
        connections: CONNECTIONS,
        seconds,
        options: {
          method: 'POST',
          requests: [
            {
              setupRequest(request) {
                request.headers = { secretKey: keys[draws[law][cursors[law]++ % DRAWS]] };
                return request;
              },
            },
          ],
        },
      });
    await load('uniform', WARMUP_SECONDS);
    const phases = [];
    for (const law of PHASES) {
      const logFrom = fs.statSync(service.logFile).size;
      const countCpu = cpu.startCounting(pids);
      const start = monotonicMicros();
      const result = await load(law, SECONDS);
      const window = [start, monotonicMicros()];
      const perAnswer = countCpu(result.completed);
      const log = fs.readFileSync(service.logFile, 'utf8').slice(logFrom);
      phases.push({ law, result, window, perAnswer, collections: collectionsIn(log) });
      progress(`${law}: ${Math.round(result.rps)} req/s, service ${perAnswer.service.toFixed(1)} µs an answer, failed ${result.failed}`);
    }
    const rss = children.residentMemory(pids.service);
    await children.stopChild(service);
    printReport(phases, rss, profileDir && readProfile(profileDir));
    if (phases.some(({ result }) => result.failed > 0)) process.exitCode = 4;
  } finally {
    await children.stopAllChildren();
  }
}

function printReport(phases, rss, profile) {
  const fixed = (value) => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');
  const collection = (phase, kind) => {
    const k = phase.collections[kind];
    return k ? `${k.count} (${fixed((k.pauseMs * 1000) / phase.result.completed)})` : TRACE_GC ? '0' : 'n/a';
  };
  console.log(
    `${CLIENTS} clients seeded through the API, then get-client in phases of ${SECONDS} s, ${CONNECTIONS} connections; ` +
      `CPU per answer from /proc; collections: how many in the phase (µs of pause an answer).\n`,
  );
  const rows = phases.map((phase) => [
    phase.law,
    Math.round(phase.result.rps),
    fixed(phase.result.p99),
    fixed(phase.perAnswer.service),
    fixed(phase.perAnswer.mariadb),
    collection(phase, 'Scavenge'),
    collection(phase, 'Mark-Compact'),
  ]);
  console.log(markdownTable(['keys', 'req/s', 'p99 ms', 'service µs', 'MariaDB µs', 'scavenges', 'mark-compacts'], rows, 1));
  console.log(`\nService RSS after the phases: ${fixed(rss.rssMB)} MB (peak ${fixed(rss.peakRssMB)} MB).`);
  if (!profile) return;
  const parts = phases.map((phase) => partsOf(profile, phase.window, phase.result.completed));
  const names = [...new Set(parts.flatMap((part) => Object.keys(part)))].sort((a, b) => (parts[0][b] ?? 0) - (parts[0][a] ?? 0));
  console.log('\nWhere a hit goes, µs an answer on the main thread (the innermost part of a hit in each sample’s stack):\n');
  console.log(
    markdownTable(
      ['part', ...phases.map(({ law }) => law)],
      names.map((name) => [name, ...parts.map((part) => fixed(part[name] ?? 0))]),
      1,
    ),
  );
}

main().catch((error) => {
  console.error(error);
  children.killAllChildrenNow();
  process.exit(2);
});
