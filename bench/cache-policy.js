'use strict';
// Hit ratio and speed of the client cache's eviction policies on Zipf traces of SHA-256 keys, entries weighed in bytes:
// lru-cache (LRU bounded by maxSize/sizeCalculation, what the service uses today) against WeightedTinyLfuCache (W-TinyLFU),
// and against the library `transitory` (W-TinyLFU with a weigher) when it can be resolved.
//   npm run build && node bench/cache-policy.js
//   or, without a build: npx tsc src/client-cache/weighted-cache.ts --outDir /tmp/wc --target es2022 --module commonjs
//                         CACHE_POLICY_MODULE=/tmp/wc/weighted-cache.js node bench/cache-policy.js
//   env: CACHE_POLICY_REQUESTS (600000 a trace), NODE_PATH=/tmp/cachelibs/node_modules to include transitory
// Each request is what the service does: get, and on a miss set. Hit ratios are counted after the first 20% (warm-up).
// Speed is measured in a child process per policy, so that no policy runs on call sites another one made polymorphic.
const { execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const path = require('node:path');
const { LRUCache } = require('lru-cache');

const MODULE = process.env.CACHE_POLICY_MODULE || path.join(__dirname, '..', 'dist', 'client-cache', 'weighted-cache.js');
const { WeightedTinyLfuCache } = require(MODULE);
const REQUESTS = Number(process.env.CACHE_POLICY_REQUESTS || 600_000);
const MB = 1024 * 1024;
const BUDGETS_MB = [4, 8, 16, 32];
/** A scan of the tail every SCAN_EVERY requests: SCAN_LENGTH keys from the colder half, each asked once. */
const SCAN_EVERY = 100_000;
const SCAN_LENGTH = 10_000;
const WARM_UP_SHARE = 0.2;

function optionalRequire(name) {
  try {
    return require(name);
  } catch {
    return undefined;
  }
}
const transitory = optionalRequire('transitory');
const { seededRandom, zipfSampler } = require('./lib/key-draws');

/** Keys (hex SHA-256 digests) and their values' weights: mostly 600–2000 B, 1% of 20–60 KB. */
function makeClients(count) {
  const random = seededRandom(count);
  const keys = [];
  const values = [];
  for (let i = 0; i < count; i++) {
    keys.push(crypto.createHash('sha256').update(`client-${count}-${i}`).digest('hex'));
    const bytes = random() < 0.01 ? 20_000 + Math.floor(random() * 40_000) : 600 + Math.floor(random() * 1400);
    values.push({ bytes });
  }
  return { keys, values };
}

/** Client indexes drawn from Zipf(s) over `count` ranks (rank i is client i), with scans of the tail when asked. */
function makeTrace(count, s, withScans) {
  const random = seededRandom(count + 1000 * s + (withScans ? 1 : 0));
  const rank = zipfSampler(count, s, random);
  const trace = [];
  let scanCursor = 0;
  const tailStart = Math.floor(count / 2);
  for (let i = 0; i < REQUESTS; i++) {
    if (withScans && i > 0 && i % SCAN_EVERY === 0) {
      for (let j = 0; j < SCAN_LENGTH; j++) trace.push(tailStart + (scanCursor++ % (count - tailStart)));
    }
    trace.push(rank());
  }
  return Int32Array.from(trace);
}

/** Each policy behind the same three calls: get, set (bytes given), and the weight held. */
const policies = [
  {
    name: 'LRU (lru-cache)',
    make: (maxBytes, clients) => {
      const cache = new LRUCache({ max: clients, maxSize: maxBytes, sizeCalculation: (value) => value.bytes });
      return { get: (key) => cache.get(key), set: (key, value) => cache.set(key, value), bytes: () => cache.calculatedSize };
    },
  },
  {
    name: 'W-TinyLFU (ours)',
    make: (maxBytes) => {
      const cache = new WeightedTinyLfuCache({ maxBytes });
      return { get: (key) => cache.get(key), set: (key, value) => cache.set(key, value, value.bytes), bytes: () => cache.bytes };
    },
  },
];
if (transitory) {
  policies.push({
    name: `transitory ${require('transitory/package.json').version}`,
    make: (maxBytes) => {
      const cache = new transitory.BoundedCache({ maxSize: maxBytes, weigher: (_key, value) => value.bytes });
      return {
        get: (key) => cache.getIfPresent(key) ?? undefined,
        set: (key, value) => cache.set(key, value),
        bytes: () => cache.weightedSize,
        // Its deferred maintenance is a timer: cleared, so the process ends.
        dispose: () => cache.clear(),
      };
    },
  });
}

function hitRatio(policy, { keys, values }, trace, maxBytes) {
  const cache = policy.make(maxBytes, keys.length);
  const countFrom = Math.floor(trace.length * WARM_UP_SHARE);
  let hits = 0;
  let peak = 0;
  for (let i = 0; i < trace.length; i++) {
    const client = trace[i];
    if (cache.get(keys[client]) !== undefined) {
      if (i >= countFrom) hits++;
    } else {
      cache.set(keys[client], values[client]);
      peak = Math.max(peak, cache.bytes());
    }
  }
  cache.dispose?.();
  return { hitRatio: hits / (trace.length - countFrom), peakShare: peak / maxBytes };
}

/** Requests a second, get and set on a miss, best of 3 passes over the trace on a cache warmed by a first pass. */
function throughput(policy, { keys, values }, trace, maxBytes) {
  const cache = policy.make(maxBytes, keys.length);
  let best = 0;
  for (let pass = 0; pass < 4; pass++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < trace.length; i++) {
      const key = keys[trace[i]];
      if (cache.get(key) === undefined) cache.set(key, values[trace[i]]);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (pass > 0) best = Math.max(best, trace.length / seconds);
  }
  cache.dispose?.();
  return best;
}

const percent = (ratio) => `${(100 * ratio).toFixed(1)}%`;
const millions = (rate) => `${(rate / 1e6).toFixed(2)} M/s`;
const THROUGHPUT_CASES = [
  { clientCount: 20_000, s: 1.0, budget: 32 },
  { clientCount: 100_000, s: 0.9, budget: 16 },
];
const traceLabel = (clientCount, s, withScans) => `Zipf s=${s.toFixed(1)}, ${clientCount / 1000}k keys${withScans ? ', scans' : ''}`;

function printHitRatios() {
  const peaks = new Map(policies.map((policy) => [policy.name, 0]));
  console.log(`### Hit ratio (${REQUESTS} requests a trace, after a 20% warm-up; scans: ${SCAN_LENGTH} tail keys every ${SCAN_EVERY})\n`);
  console.log(`| trace | budget | ${policies.map((policy) => policy.name).join(' | ')} |`);
  console.log(`| --- | ---: | ${policies.map(() => '---:').join(' | ')} |`);
  for (const clientCount of [20_000, 100_000]) {
    const clients = makeClients(clientCount);
    for (const s of [0.9, 1.0]) {
      for (const withScans of [false, true]) {
        const trace = makeTrace(clientCount, s, withScans);
        for (const budget of BUDGETS_MB) {
          const cells = policies.map((policy) => {
            const result = hitRatio(policy, clients, trace, budget * MB);
            peaks.set(policy.name, Math.max(peaks.get(policy.name), result.peakShare));
            return percent(result.hitRatio);
          });
          console.log(`| ${traceLabel(clientCount, s, withScans)} | ${budget} MB | ${cells.join(' | ')} |`);
        }
      }
    }
  }
  console.log(
    `\nPeak weight held / budget: ${policies.map((policy) => `${policy.name} ${peaks.get(policy.name).toFixed(3)}`).join(', ')}\n`,
  );
}

function printThroughputs() {
  console.log('### Requests a second (get, and set on a miss; best of 3 passes over the trace, after a warm-up pass)\n');
  console.log(`| trace | budget | ${policies.map((policy) => policy.name).join(' | ')} |`);
  console.log(`| --- | ---: | ${policies.map(() => '---:').join(' | ')} |`);
  THROUGHPUT_CASES.forEach(({ clientCount, s, budget }, caseIndex) => {
    const cells = policies.map((_policy, policyIndex) => {
      const output = execFileSync(process.execPath, [__filename, '--throughput', String(policyIndex), String(caseIndex)], {
        encoding: 'utf8',
      });
      return millions(Number(output));
    });
    console.log(`| ${traceLabel(clientCount, s, false)} | ${budget} MB | ${cells.join(' | ')} |`);
  });
}

if (process.argv[2] === '--throughput') {
  const policy = policies[Number(process.argv[3])];
  const { clientCount, s, budget } = THROUGHPUT_CASES[Number(process.argv[4])];
  process.stdout.write(String(throughput(policy, makeClients(clientCount), makeTrace(clientCount, s, false), budget * MB)));
} else {
  const started = Date.now();
  printHitRatios();
  printThroughputs();
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s, node ${process.version})`);
}
