'use strict';
// Medians, ratios, PASS/FAIL checks and the markdown printed at the end.
const TARGET_LABELS = {
  service: 'A service',
  baseline: 'B baseline',
  ceiling: 'C ceiling',
  operationsCeiling: 'D ceiling + operations',
};

function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const sum = (values) => values.reduce((total, value) => total + value, 0);

/** One target's measured rounds reduced to medians and summed errors. */
function summarizeRounds(rounds) {
  return {
    rps: median(rounds.map((round) => round.rps)),
    p50: median(rounds.map((round) => round.p50)),
    p99: median(rounds.map((round) => round.p99)),
    errors: sum(rounds.map((round) => round.failed)),
    cpuMicrosPerAnswer: Object.fromEntries(
      Object.keys(rounds[0]?.cpuMicrosPerAnswer ?? {}).map((name) => [name, median(rounds.map((round) => round.cpuMicrosPerAnswer[name]))]),
    ),
  };
}

function ratios(medians) {
  const ratio = (other) => (medians.service && medians[other] ? medians.service.rps / medians[other].rps : undefined);
  return {
    serviceToBaseline: ratio('baseline'),
    serviceToCeiling: ratio('ceiling'),
    serviceToOperationsCeiling: ratio('operationsCeiling'),
    operationsCeilingToCeiling:
      medians.operationsCeiling && medians.ceiling ? medians.operationsCeiling.rps / medians.ceiling.rps : undefined,
  };
}

/** The targets' order in round `round` (from 1) of `rounds`: reversed in the second half, so none always follows another. */
function targetsInRound(targets, round, rounds) {
  return round <= Math.ceil(rounds / 2) ? targets : [...targets].reverse();
}

/** Each half's rounds as [from, to) indexes: the first half the rounds run in order, the second those run reversed. */
function halvesOf(rounds) {
  const firstHalf = Math.ceil(rounds / 2);
  return rounds > 1
    ? [
        [0, firstHalf],
        [firstHalf, rounds],
      ]
    : [[0, rounds]];
}

// halves: the value in each half of the rounds, shown beside the median of all.
function check(name, value, limit, pass, format, halves) {
  const shown = halves ? `${format(value)} (halves ${halves.map(format).join(' / ')})` : format(value);
  return { name, value, limit, pass: Boolean(pass), shown };
}

const times = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a');
const ms = (value) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'n/a');
const mb = (value) => (Number.isFinite(value) ? `${value.toFixed(1)} MB` : 'n/a');

function evaluateTargets({ scenarios, memory, sqliteStartMs }) {
  const get = scenarios['get-client'];
  const add = scenarios['add-client'];
  const ratioOf = (name) => scenarios[name]?.ratios.serviceToBaseline;
  const halfRatios = (scenario, ratio) => scenario?.halves?.map((half) => half[ratio]);
  const p99NotAbove = (scenario) => scenario?.medians.service.p99 <= scenario?.medians.baseline.p99;
  const p99s = (scenario) => `${ms(scenario?.medians.service.p99)} / ${ms(scenario?.medians.baseline.p99)}`;
  return [
    check('get-client rps vs baseline', get?.ratios.serviceToBaseline, '>= 3x', get?.ratios.serviceToBaseline >= 3, times),
    check(
      'get-client rps vs ceiling',
      get?.ratios.serviceToCeiling,
      '>= 0.6x',
      get?.ratios.serviceToCeiling >= 0.6,
      times,
      halfRatios(get, 'serviceToCeiling'),
    ),
    check('get-client p99 (service)', get?.medians.service.p99, '<= 15 ms', get?.medians.service.p99 <= 15, ms),
    check('get-client p99, service / baseline', get?.medians.service.p99, "<= baseline's", p99NotAbove(get), () => p99s(get)),
    check('get-client errors (service)', get?.medians.service.errors, '0', get?.medians.service.errors === 0, String),
    check(
      'add-client rps vs baseline',
      ratioOf('add-client'),
      '>= 0.5x',
      ratioOf('add-client') >= 0.5,
      times,
      halfRatios(add, 'serviceToBaseline'),
    ),
    check('add-client p99, service / baseline', add?.medians.service.p99, "<= baseline's", p99NotAbove(add), () => p99s(add)),
    check('add-sms-config rps vs baseline', ratioOf('add-sms-config'), '>= 0.8x', ratioOf('add-sms-config') >= 0.8, times),
    check('service RSS after bench', memory?.rssMB, '<= 150 MB', memory?.rssMB <= 150, mb),
    check('SQLite start to /health (median of 3)', sqliteStartMs, '<= 1500 ms', sqliteStartMs <= 1500, ms),
  ];
}

/** textColumns: how many leading columns are text (left-aligned); the rest are numbers. */
function markdownTable(header, rows, textColumns) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const alignment = header.map((_, i) => (i < textColumns ? '---' : '---:'));
  return [line(header), line(alignment), ...rows.map(line)].join('\n');
}

function scenarioRows(scenarios) {
  const rows = [];
  for (const [name, scenario] of Object.entries(scenarios)) {
    for (const [target, m] of Object.entries(scenario.medians)) {
      rows.push([name, TARGET_LABELS[target], Math.round(m.rps), m.p50.toFixed(1), m.p99.toFixed(1), m.errors]);
    }
  }
  return rows;
}

const micros = (value) => (Number.isFinite(value) ? String(Math.round(value)) : 'n/a');

function cpuRows(scenarios) {
  const rows = [];
  for (const [name, scenario] of Object.entries(scenarios)) {
    for (const [target, { cpuMicrosPerAnswer: c }] of Object.entries(scenario.medians)) {
      const total = sum([c.target, c.mariadb, c.rabbitmq, c.loadGenerator].filter(Number.isFinite));
      rows.push([
        name,
        TARGET_LABELS[target],
        micros(c.target),
        micros(c.mariadb),
        micros(c.rabbitmq),
        micros(c.loadGenerator),
        micros(total),
      ]);
    }
  }
  return rows;
}

function ratioRows(scenarios) {
  const rows = [];
  for (const [name, { ratios: r }] of Object.entries(scenarios)) {
    if (r.serviceToBaseline !== undefined) rows.push([`${name} A/B (service/baseline)`, times(r.serviceToBaseline)]);
    if (r.serviceToCeiling !== undefined) rows.push([`${name} A/C (service/ceiling)`, times(r.serviceToCeiling)]);
    if (r.serviceToOperationsCeiling !== undefined)
      rows.push([`${name} A/D (service/ceiling + operations)`, times(r.serviceToOperationsCeiling)]);
    if (r.operationsCeilingToCeiling !== undefined)
      rows.push([`${name} D/C (ceiling + operations/ceiling)`, times(r.operationsCeilingToCeiling)]);
  }
  return rows;
}

function toMarkdown({ params, scenarios, targets, memory, startup }) {
  return [
    `Rounds: ${params.rounds} x ${params.durationSeconds} s per target, interleaved; ` +
      `${params.connections} connections, pipelining 1; warm-up ${params.warmupSeconds} s per target. ` +
      'req/s, p50 and p99 are medians over rounds; errors are summed over rounds (connection errors + non-2xx).',
    '',
    markdownTable(['scenario', 'target', 'req/s', 'p50 ms', 'p99 ms', 'errors'], scenarioRows(scenarios), 2),
    '',
    markdownTable(['ratio', 'value'], ratioRows(scenarios), 1),
    '',
    'CPU per answer, µs (medians over rounds; all threads of each process; the load generator is autocannon in the bench):',
    '',
    markdownTable(['scenario', 'target', 'target process', 'MariaDB', 'RabbitMQ', 'load generator', 'total'], cpuRows(scenarios), 2),
    '',
    `Service start to /health 200: MySQL ${ms(startup.mysqlMs)} (fresh database, migrations included); ` +
      `SQLite ${ms(startup.sqliteMedianMs)} median of [${startup.sqliteMs.map(Math.round).join(', ')}] ms. ` +
      `Service RSS after bench: ${mb(memory?.rssMB)} (peak ${mb(memory?.peakRssMB)}).`,
    '',
    markdownTable(
      ['check', 'value', 'limit', 'result'],
      targets.map((t) => [t.name, t.shown, t.limit, t.pass ? 'PASS' : 'FAIL']),
      1,
    ),
  ].join('\n');
}

module.exports = { median, summarizeRounds, ratios, evaluateTargets, markdownTable, toMarkdown, targetsInRound, halvesOf };
