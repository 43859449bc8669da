'use strict';
// BENCH_CPU_PROFILE: where each request's time goes, service against baseline. The service and the baseline run
// under `node --cpu-prof`; only the samples inside the measured rounds count, and each component's time is divided
// by the requests answered in those rounds, so the two columns are microseconds per request, side by side.
const fs = require('node:fs');
const { SourceMap } = require('node:module');
const path = require('node:path');
const { fileURLToPath } = require('node:url');

const ROOT = path.resolve(__dirname, '../..');
const GC = '(garbage collector)';
const IDLE = '(idle)';

/** Now on the clock V8 stamps its profile samples with (CLOCK_MONOTONIC, microseconds). */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

const nodeFlags = (dir) => ['--cpu-prof', `--cpu-prof-dir=${dir}`];

/** The one profile a child wrote into its own directory when it exited. */
function readProfile(dir) {
  const [file] = fs.readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${dir}: did the process exit cleanly?`);
  return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
}

/**
 * What a sample's function belongs to: an npm package, a folder of the service (`service: client`), a Node module,
 * or V8's own entries ((garbage collector), (idle): waiting in epoll, including the kernel's work on the sockets).
 * Native functions are kept by name: writev is the answer's send, writeBuffer mysql2's, writeString a log line's.
 */
function componentOf({ url, functionName }) {
  const nodeModule = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nodeModule) return nodeModule[1];
  // dist/, or a private build of the bench's (.bench-dist/, .bench-prof/, …)
  const serviceFile = /\/(?:dist|\.bench-[^/]+)\/([^/]+)/.exec(url);
  if (serviceFile) return `service: ${serviceFile[1].replace(/\.js$/, '')}`;
  if (url.includes('/bench/')) return 'baseline';
  if (url.startsWith('node:'))
    return url
      .slice('node:'.length)
      .replace(/^internal\//, '')
      .split('/')[0];
  return functionName || '(native)';
}

/**
 * componentOf's components in a few groups, for the totals: the service's own code, npm packages, Node's modules,
 * native functions (the socket writes, mostly), and V8's entries as they are.
 */
function groupOf(callFrame) {
  const component = componentOf(callFrame);
  if (component.startsWith('service: ')) return "service's own code (service: *)";
  if (component.startsWith('(')) return component;
  if (component === 'baseline') return "baseline's own code (bench/)";
  if (/node_modules\//.test(callFrame.url)) return 'npm packages';
  if (callFrame.url.startsWith('node:')) return 'node internals (node:*)';
  return callFrame.url ? 'other' : 'native functions (writeBuffer, writev, …)';
}

/** Calls visit(node, µs) for each sample inside the windows ([start, end] pairs), with the time until the next one. */
function forEachSampleIn(profile, windows, visit) {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i];
    const next = i + 1 < profile.samples.length ? time + profile.timeDeltas[i + 1] : profile.endTime;
    if (!windows.some(([start, end]) => time >= start && time < end)) continue;
    visit(byNode.get(profile.samples[i]), next - time);
  }
}

/** Microseconds spent in each component (or what keyOf names) during the windows ([start, end] pairs). */
function timeByComponent(profile, windows, keyOf = componentOf) {
  const totals = new Map();
  forEachSampleIn(profile, windows, (node, micros) => {
    const component = keyOf(node.callFrame);
    totals.set(component, (totals.get(component) ?? 0) + micros);
  });
  return totals;
}

const requestsOf = (rounds) => rounds.reduce((total, round) => total + round.completed, 0);

/** Per-request microseconds by component (by group with groupOf) for each target: { target: Map(component => µs) }. */
function perRequest(profilesByTarget, roundsByTarget, keyOf = componentOf) {
  const result = {};
  for (const [target, profile] of Object.entries(profilesByTarget)) {
    const rounds = roundsByTarget[target];
    const requests = requestsOf(rounds);
    const totals = timeByComponent(
      profile,
      rounds.map((round) => round.window),
      keyOf,
    );
    result[target] = new Map([...totals].map(([component, micros]) => [component, micros / requests]));
  }
  return result;
}

/**
 * Where a function is, as a person reads it: the service's own functions at their line in src/ (through the build's
 * source map: the profile names the compiled file, whose lines are not the source's), others relative to the checkout.
 */
function sourceLocator() {
  const maps = new Map();
  const mapOf = (file) => {
    if (!maps.has(file)) {
      try {
        maps.set(file, new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8'))));
      } catch {
        maps.set(file, undefined);
      }
    }
    return maps.get(file);
  };
  return ({ url, lineNumber, columnNumber }) => {
    if (!url) return '';
    if (!url.startsWith('file:')) return `${url}:${lineNumber + 1}`;
    const file = fileURLToPath(url);
    const entry = mapOf(file)?.findEntry(lineNumber, columnNumber);
    if (entry?.originalSource) {
      return `${path.relative(ROOT, path.resolve(path.dirname(file), entry.originalSource))}:${entry.originalLine + 1}`;
    }
    return `${path.relative(ROOT, file)}:${lineNumber + 1}`;
  };
}

// The parts of a get-client hit, by where their code is: the innermost one in a sample's stack names the sample.
const HIT_PARTS = [
  [
    'miss: database read (mysql2, the statement)',
    ({ url, functionName }) => /node_modules\/mysql2|\/database\/|get-client\.repository/.test(url) || functionName === 'writeBuffer',
  ],
  ["miss: entry built (the answer's JSON)", ({ url }) => /client-answer|common\/(exact-amount|answer-fields)/.test(url)],
  ["key's SHA-256 and shape", ({ url }) => /\/auth\/(digest|scoped-key|secret-key)\./.test(url)],
  ['cache lookup (map, sketch, LRU, age)', ({ url }) => /\/client-cache\//.test(url)],
  ['rate limit', ({ url }) => /\/rate-limit\//.test(url)],
  ['key usage noted', ({ url }) => /\/key-usage\//.test(url)],
  ['metrics (duration histogram)', ({ url }) => /prom-client|\/metrics\//.test(url)],
  ['access log', ({ url }) => /\/http\/access-log|\/logging\/|node_modules\/pino/.test(url)],
  [
    "answer: Fastify's send, the socket write",
    ({ url, functionName }) =>
      /fastify\/lib\/reply|_http_outgoing|stream_base_commons|node:net/.test(url) ||
      functionName === 'writev' ||
      functionName === 'writeUtf8String',
  ],
  [
    "request in: HTTP parse, Fastify's routing",
    ({ url }) => /_http_server|_http_common|_http_incoming|node_modules\/(fastify|find-my-way)/.test(url),
  ],
  ['edge: request id, headers, deadline', ({ url }) => /\/(http|client|auth)\//.test(url)],
];

/** µs per request of each part of a hit (HIT_PARTS, the collector on its own, the rest as other) within the window. */
function partsOf(profile, window, requests) {
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
  const totals = {};
  forEachSampleIn(profile, [window], (node, micros) => {
    if (node.callFrame.functionName === IDLE) return;
    let part = node.callFrame.functionName === GC ? 'garbage collector' : undefined;
    for (let frame = node; !part && frame; frame = parentOf.get(frame.id)) {
      part = HIT_PARTS.find(([, isIn]) => isIn(frame.callFrame))?.[0];
    }
    part ??= 'other (event loop, microtasks, Node internals)';
    totals[part] = (totals[part] ?? 0) + micros / requests;
  });
  totals.busy = Object.values(totals).reduce((sum, micros) => sum + micros, 0);
  return totals;
}

/** The functions with the most self time in the rounds' windows: [{ name, location, component, micros (per request) }]. */
function topFunctions(profile, rounds, count = 15) {
  const totals = new Map();
  forEachSampleIn(
    profile,
    rounds.map((round) => round.window),
    (node, micros) => {
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      const key = `${functionName}\n${url}\n${lineNumber}\n${columnNumber}`;
      const entry = totals.get(key) ?? { callFrame: node.callFrame, micros: 0 };
      entry.micros += micros;
      totals.set(key, entry);
    },
  );
  const locate = sourceLocator();
  const requests = requestsOf(rounds);
  return [...totals.values()]
    .filter(({ callFrame }) => callFrame.functionName !== IDLE)
    .sort((a, b) => b.micros - a.micros)
    .slice(0, count)
    .map(({ callFrame, micros }) => ({
      name: callFrame.functionName || '(anonymous)',
      location: locate(callFrame),
      component: componentOf(callFrame),
      micros: micros / requests,
    }));
}

/**
 * Markdown: the components sorted by how far the service and the baseline differ on them, either way: the `rows` that
 * differ most, and any among either target's busiest `rows / 2` (one both spend much on, as mysql2, may differ little).
 */
function toMarkdown(scenarioName, { service, baseline }, rows = 20) {
  const at = (map, component) => map.get(component) ?? 0;
  const difference = (component) => Math.abs(at(service, component) - at(baseline, component));
  const components = [...new Set([...service.keys(), ...baseline.keys()])].sort((a, b) => difference(b) - difference(a));
  const busiest = (map) => [...map.keys()].sort((a, b) => at(map, b) - at(map, a)).slice(0, rows / 2);
  const picked = new Set([...components.slice(0, rows), ...busiest(service), ...busiest(baseline)]);
  const shown = components.filter((c) => picked.has(c));
  const others = components.filter((c) => !picked.has(c));
  const total = (map) => [...map.values()].reduce((sum, micros) => sum + micros, 0);
  const busy = (map) => total(map) - at(map, IDLE);
  const format = (micros) => micros.toFixed(1);
  const gcShare = (map) => (busy(map) > 0 ? `${((100 * at(map, GC)) / busy(map)).toFixed(1)}%` : 'n/a');
  const lines = [
    `| ${scenarioName}: µs per request | A service | B baseline | A − B |`,
    '| --- | ---: | ---: | ---: |',
    ...shown.map((c) => `| ${c} | ${format(at(service, c))} | ${format(at(baseline, c))} | ${format(at(service, c) - at(baseline, c))} |`),
    ...(others.length > 0 ? [`| all other components | ${format(sumOf(others, service))} | ${format(sumOf(others, baseline))} | |`] : []),
    `| **busy (all but idle)** | ${format(busy(service))} | ${format(busy(baseline))} | ${format(busy(service) - busy(baseline))} |`,
    `| **wall time** | ${format(total(service))} | ${format(total(baseline))} | ${format(total(service) - total(baseline))} |`,
    `| ${GC}, share of busy | ${gcShare(service)} | ${gcShare(baseline)} | |`,
  ];
  return lines.join('\n');
}

/** Markdown: topFunctions()'s rows. */
function topFunctionsMarkdown(title, functions) {
  return [
    `| ${title}: functions by self time | file:line | component | µs per request |`,
    '| --- | --- | --- | ---: |',
    ...functions.map(({ name, location, component, micros }) => `| ${name} | ${location} | ${component} | ${micros.toFixed(2)} |`),
  ].join('\n');
}

function sumOf(components, map) {
  return components.reduce((sum, component) => sum + (map.get(component) ?? 0), 0);
}

module.exports = { monotonicMicros, nodeFlags, readProfile, groupOf, perRequest, partsOf, topFunctions, toMarkdown, topFunctionsMarkdown };
