'use strict';
// The fleet scenarios' markdown (lib/fleet.js): one line per scenario, A beside B, then the details per target.
const { markdownTable } = require('./report');

const LABELS = { service: 'A service', baseline: 'B baseline', ceiling: 'C ceiling' };

// The fleet's targets: reads against the ceiling or the baseline, and no read's p99 above the baseline's.
const RATIO_CHECKS = [
  { scenario: 'fleet-zipf', ratio: 'ceilingRatio', against: 'ceiling', limit: 0.6 },
  { scenario: 'fleet-uniform', ratio: 'ceilingRatio', against: 'ceiling', limit: 0.6 },
  { scenario: 'fleet-mix', ratio: 'ratio', against: 'baseline', limit: 3 },
  { scenario: 'fleet-large-uniform', ratio: 'ratio', against: 'baseline', limit: 3 },
];

const round = (value) => (Number.isFinite(value) ? String(Math.round(value)) : 'n/a');
const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const percent = (value) => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : 'n/a');

function cpuTotal(c) {
  const parts = [c.target, c.mariadb, c.rabbitmq, c.loadGenerator].filter(Number.isFinite);
  return parts.length > 0 ? parts.reduce((sum, value) => sum + value, 0) : undefined;
}

const cpuCell = (c) => `${round(c.target)} / ${round(cpuTotal(c))}`;

function cacheCell({ cacheEntries, cacheBytes, cacheBudgetBytes }) {
  if (!Number.isFinite(cacheEntries) && !Number.isFinite(cacheBytes)) return 'n/a';
  const budget = Number.isFinite(cacheBudgetBytes) ? ` of ${fixed(cacheBudgetBytes / 2 ** 20)}` : '';
  return `${round(cacheEntries)} / ${fixed(cacheBytes / 2 ** 20)}${budget} MB`;
}

function keysCell({ law, writeEvery }) {
  return writeEvery ? `${law}, 1 in ${writeEvery} a write` : law;
}

function summaryRows(scenarios) {
  return Object.entries(scenarios).map(([name, s]) => {
    const { service: a, baseline: b } = s.medians;
    return [
      name,
      s.clients,
      keysCell(s),
      round(a.get.rps),
      round(b.get.rps),
      round(s.medians.ceiling?.get.rps),
      `${fixed(s.ratio, 2)}x`,
      Number.isFinite(s.ceilingRatio) ? `${fixed(s.ceilingRatio, 2)}x` : 'n/a',
      fixed(a.get.p99),
      fixed(b.get.p99),
      s.p99NotWorse ? 'yes' : 'NO',
      percent(a.cacheHitRatio),
      percent(a.cacheFromCache),
      cacheCell(a),
      cpuCell(a.cpuMicrosPerAnswer),
      cpuCell(b.cpuMicrosPerAnswer),
      fixed(s.memory.rssMB),
    ];
  });
}

function detailRows(scenarios) {
  const rows = [];
  for (const [name, s] of Object.entries(scenarios)) {
    for (const [target, m] of Object.entries(s.medians)) {
      const c = m.cpuMicrosPerAnswer;
      const cpu = [round(c.target), round(c.mariadb), round(c.rabbitmq), round(c.loadGenerator), round(cpuTotal(c))];
      const get = [round(m.get.rps), fixed(m.get.p50), fixed(m.get.p99), m.get.non2xx];
      if (!m.writes) {
        rows.push([name, LABELS[target], 'get-client', ...get, m.errors, ...cpu]);
        continue;
      }
      rows.push([name, LABELS[target], 'get-client', ...get, '', ...cpu.map(() => '')]);
      rows.push([name, LABELS[target], `add-sms-config (${m.writes.answers} sent)`, '', '', '', m.writes.non2xx, '', ...cpu.map(() => '')]);
      rows.push([name, LABELS[target], 'all', round(m.all.rps), fixed(m.all.p50), fixed(m.all.p99), '', m.errors, ...cpu]);
    }
  }
  return rows;
}

const halvesOf = (s, ratio) => s.halves.map((half) => `${fixed(half[ratio], 2)}x`).join(' / ');

/** The checks of the scenarios that ran: each ratio as the median over rounds, with each half's beside it. */
function checkRows(scenarios) {
  const rows = [];
  for (const { scenario, ratio, against, limit } of RATIO_CHECKS) {
    const s = scenarios[scenario];
    if (!s) continue;
    const value = s[ratio];
    rows.push([
      `${scenario} req/s, service / ${against}`,
      `${fixed(value, 2)}x`,
      halvesOf(s, ratio),
      `>= ${limit}x`,
      value >= limit ? 'PASS' : 'FAIL',
    ]);
  }
  for (const [name, s] of Object.entries(scenarios)) {
    const { service: a, baseline: b } = s.medians;
    rows.push([
      `${name} get-client p99, service / baseline`,
      `${fixed(a.get.p99)} / ${fixed(b.get.p99)} ms`,
      '',
      '<=',
      s.p99NotWorse ? 'PASS' : 'FAIL',
    ]);
  }
  return rows;
}

function seedingLine({ clients, smsConfigs, seconds, writesPerSecond, concurrency, outbox }) {
  const drain = outbox?.waitedMs >= 100 ? `, then ${fixed(outbox.waitedMs / 1000)} s until the outbox was empty` : '';
  return (
    `${clients} clients + ${smsConfigs} SMS configurations in ${fixed(seconds)} s ` +
    `(${round(writesPerSecond)} writes/s, ${concurrency} at a time${drain})`
  );
}

const megabytes = (bytes) => fixed(bytes / 2 ** 20);

function cacheBytesCell(cache = {}) {
  if (!Number.isFinite(cache.bytes)) return 'n/a';
  const budget = Number.isFinite(cache.budgetBytes) ? ` of ${megabytes(cache.budgetBytes)}` : '';
  return `${megabytes(cache.bytes)}${budget} MB (${round(cache.entries)} entries)`;
}

/** The memory table (lib/fleet.js measureMemory) and its check; a line saying why when it was not measured. */
function memoryLines(memory, runParams) {
  if (!memory) return [];
  if (memory.error) return ['', `Memory: not measured: ${memory.error}`];
  const { emptyCache: empty, fullCache: full, check } = memory;
  const env = Object.entries(empty.env)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  const rows = [
    [
      `RSS under load, cache empty (${env}): a second service, after ${runParams.durationSeconds} s of ${empty.load} over ${empty.clients} clients`,
      fixed(empty.rssMB),
      fixed(empty.peakRssMB),
      cacheBytesCell(empty.cache),
      round(empty.round.kinds.get?.rps),
    ],
    full
      ? [
          `RSS with a full cache: the service after ${full.scenario} (${full.clients} clients)`,
          fixed(full.rssMB),
          fixed(full.peakRssMB),
          cacheBytesCell(full.cache),
          '',
        ]
      : ['RSS with a full cache: not measured (fleet-large-uniform did not run)', 'n/a', 'n/a', 'n/a', ''],
  ];
  return [
    '',
    "Memory (the service as the image runs it: the Dockerfile's NODE_OPTIONS; VmRSS when read, VmHWM the process's peak):",
    '',
    markdownTable(['memory', 'VmRSS MB', 'peak VmHWM MB', 'client_cache_bytes', 'get-client req/s'], rows, 1),
    '',
    markdownTable(
      ['check', 'value', 'limit', 'result'],
      [[check.name, `${fixed(check.value)} MB`, check.limit, check.pass ? 'PASS' : 'FAIL']],
      1,
    ),
  ];
}

function toMarkdown({ error, params, seeding = [], scenarios = {}, memory }, runParams, problems) {
  if (error && Object.keys(scenarios).length === 0) return `Fleet scenarios: not measured: ${error}`;
  const lines = [
    'Fleet scenarios: get-client for a fleet of clients, the key of each request drawn by the law shown (Zipf s = 1 ' +
      `over ranks given to clients in a random order, or uniform); ${runParams.rounds} x ${runParams.durationSeconds} s ` +
      `per target, interleaved A B C (C, the ceiling, in the reads only; the second half of the rounds in the reverse order); ${runParams.connections} connections, pipelining 1; warm-up ` +
      `${params.warmupSeconds} s per target per scenario, and ${params.roundWarmupSeconds ?? 0} s before each of its rounds. req/s, latencies, hit ratio and CPU are medians over ` +
      'rounds; req/s and latencies are those of the get-client answers (latencies: nearest rank over all of them). ' +
      'Hit ratio: client_cache_hits_total{kind="found"} / (hits + client_cache_misses_total) over each round of A (in ' +
      'fleet-mix, the key lookups of the writes count too). A from cache: 1 - client_cache_misses_total / requests of ' +
      'the round, the share of requests answered without the database (the counters count lookups, and a request may ' +
      'look up more than once). A cache: client_cache_entries / client_cache_bytes (of ' +
      'client_cache_budget_bytes) after the round, n/a when the build does not expose them. CPU per answer (of any ' +
      "kind), µs: target process / all (target, MariaDB, RabbitMQ, load generator). RSS: the service's after the " +
      'scenario.',
    '',
    markdownTable(
      [
        'scenario',
        'clients',
        'keys',
        'A req/s',
        'B req/s',
        'C req/s',
        'A/B',
        'A/C',
        'A p99 ms',
        'B p99 ms',
        'A p99 ≤ B p99',
        'A hit ratio',
        'A from cache',
        'A cache',
        'A CPU µs/answer',
        'B CPU µs/answer',
        'A RSS MB',
      ],
      summaryRows(scenarios),
      3,
    ),
    '',
    `Checks (medians over all rounds; the halves: rounds 1–${Math.ceil(runParams.rounds / 2)} in the order A B C, the rest ` +
      'in the order C B A):',
    '',
    markdownTable(['check', 'value', 'halves', 'limit', 'result'], checkRows(scenarios), 1),
    ...memoryLines(memory, runParams),
    '',
    'Per target (medians over rounds; non-2xx and connection errors summed over the measured rounds):',
    '',
    markdownTable(
      [
        'scenario',
        'target',
        'requests',
        'req/s',
        'p50 ms',
        'p99 ms',
        'non-2xx',
        'conn. errors',
        'CPU target',
        'MariaDB',
        'RabbitMQ',
        'load generator',
        'total',
      ],
      detailRows(scenarios),
      3,
    ),
    '',
    `Seeding through the service's API (${params.clients} clients, then up to ${params.largeClients}; one SMS configuration ` +
      `for every other client, two for the rest): ${seeding.map(seedingLine).join('; ') || 'none'}.`,
  ];
  if (error) lines.push('', `ERROR: the fleet scenarios stopped: ${error}`);
  for (const line of problems.errors) lines.push('', `ERROR: ${line}`);
  for (const line of problems.warnings) lines.push('', `WARNING: ${line}`);
  return lines.join('\n');
}

module.exports = { toMarkdown };
