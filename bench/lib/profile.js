'use strict';
// BENCH_CPU_PROFILE: where each request's time goes, service against baseline. The service and the baseline run
// under `node --cpu-prof`; only the samples inside the measured rounds count, and each component's time is divided
// by the requests answered in those rounds, so the two columns are microseconds per request, side by side.
const fs = require('node:fs');
const path = require('node:path');

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
  // dist/, or the bench's private build .bench-dist/
  const serviceFile = /\/(?:\.bench-)?dist\/([^/]+)/.exec(url);
  if (serviceFile) return `service: ${serviceFile[1].replace(/\.js$/, '')}`;
  if (url.includes('/bench/')) return 'baseline';
  if (url.startsWith('node:'))
    return url
      .slice('node:'.length)
      .replace(/^internal\//, '')
      .split('/')[0];
  return functionName || '(native)';
}

/** Microseconds spent in each component during the windows ([start, end] pairs). */
function timeByComponent(profile, windows) {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map();
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i];
    const next = i + 1 < profile.samples.length ? time + profile.timeDeltas[i + 1] : profile.endTime;
    if (!windows.some(([start, end]) => time >= start && time < end)) continue;
    const component = componentOf(byNode.get(profile.samples[i]).callFrame);
    totals.set(component, (totals.get(component) ?? 0) + (next - time));
  }
  return totals;
}

/** Per-request microseconds by component for each target: { target: Map(component => µs) }. */
function perRequest(profilesByTarget, roundsByTarget) {
  const result = {};
  for (const [target, profile] of Object.entries(profilesByTarget)) {
    const rounds = roundsByTarget[target];
    const requests = rounds.reduce((total, round) => total + round.completed, 0);
    const totals = timeByComponent(
      profile,
      rounds.map((round) => round.window),
    );
    result[target] = new Map([...totals].map(([component, micros]) => [component, micros / requests]));
  }
  return result;
}

/** Markdown: the components sorted by how far the service and the baseline differ on them, either way. */
function toMarkdown(scenarioName, { service, baseline }, rows = 20) {
  const at = (map, component) => map.get(component) ?? 0;
  const difference = (component) => Math.abs(at(service, component) - at(baseline, component));
  const components = [...new Set([...service.keys(), ...baseline.keys()])].sort((a, b) => difference(b) - difference(a));
  const total = (map) => [...map.values()].reduce((sum, micros) => sum + micros, 0);
  const busy = (map) => total(map) - at(map, '(idle)');
  const format = (micros) => micros.toFixed(1);
  const lines = [
    `| ${scenarioName}: µs per request | A service | B baseline | A − B |`,
    '| --- | ---: | ---: | ---: |',
    ...components
      .slice(0, rows)
      .map((c) => `| ${c} | ${format(at(service, c))} | ${format(at(baseline, c))} | ${format(at(service, c) - at(baseline, c))} |`),
    `| all other components | ${format(sumOf(components.slice(rows), service))} | ${format(sumOf(components.slice(rows), baseline))} | |`,
    `| **busy (all but idle)** | ${format(busy(service))} | ${format(busy(baseline))} | ${format(busy(service) - busy(baseline))} |`,
    `| **wall time** | ${format(total(service))} | ${format(total(baseline))} | ${format(total(service) - total(baseline))} |`,
  ];
  return lines.join('\n');
}

function sumOf(components, map) {
  return components.reduce((sum, component) => sum + (map.get(component) ?? 0), 0);
}

module.exports = { monotonicMicros, nodeFlags, readProfile, perRequest, toMarkdown };
