'use strict';
// Two builds of the service against each other, on one MariaDB database: did a change make the service slower?
//   node bench/compare-builds.js <before/dist/main.js> [<after/dist/main.js>, default dist/main.js]
//   env: ROUNDS (4), BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_SCENARIOS (all by default),
//        BENCH_DATABASE (registry_compare), BENCH_PORT (3110: one build, +1 the other),
//        COMPARE_BEFORE_ENV / COMPARE_AFTER_ENV ('NAME=value,...': variables for one side only, e.g. to compare a setting)
// The two builds run at once; each round loads one, then the other, in alternating order. The whole comparison runs
// twice with the builds' places swapped (which process started first, which one the seeding went through), because
// two processes of one build differ by a few percent on this machine: the ratio reported is the mean of both halves.
// Run the same build on both sides to see the noise floor: a change is only a change beyond it.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const children = require('./lib/children');
const { recreateDatabase } = require('./lib/database');
const { KeyPool } = require('./lib/key-pool');
const { SCENARIOS, requestOptions, runLoad } = require('./lib/load');
const { median } = require('./lib/report');
const seed = require('./lib/seed');
const { serviceEnv } = require('./lib/service');

const ROOT = path.resolve(__dirname, '..');
const DATABASE = process.env.BENCH_DATABASE || 'registry_compare';
const BASE_PORT = Number(process.env.BENCH_PORT || 3110);
const KEY_USES = 95; // under the limit of 100 configurations per client, with a margin for requests in flight
const RESOLVE_CLIENTS = 250; // resolve: 2 configurations each, requested in turns over the clients
const params = {
  rounds: Number(process.env.ROUNDS || 4),
  seconds: Number(process.env.BENCH_DURATION || 10),
  warmupSeconds: Number(process.env.BENCH_WARMUP || 2),
  scenarioNames: process.env.BENCH_SCENARIOS ? process.env.BENCH_SCENARIOS.split(',') : SCENARIOS.map(({ name }) => name),
};
const progress = (message) => process.stderr.write(`[compare] ${message}\n`);

/** COMPARE_BEFORE_ENV / COMPARE_AFTER_ENV as an object. */
function sideEnv(name) {
  const text = process.env[`COMPARE_${name.toUpperCase()}_ENV`] || '';
  return Object.fromEntries(
    text
      .split(',')
      .filter(Boolean)
      .map((pair) => pair.split('=')),
  );
}

async function startBuild(name, entry, port, encryptionKey) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-data-'));
  const env = serviceEnv({ port, encryptionKey, dataDir, DATABASE_URL: `mysql://root@127.0.0.1:3306/${DATABASE}`, ...sideEnv(name) });
  const handle = children.startNodeChild(name, [entry], { cwd: ROOT, env });
  await children.waitForHttp200(handle, `http://127.0.0.1:${port}/health`);
  return { name, handle, url: `http://127.0.0.1:${port}` };
}

/** One half: the builds in the given places, every scenario, interleaved rounds. Answers req/s per build per scenario. */
async function compareOnce(autocannon, [first, second]) {
  await recreateDatabase({ serverUrl: 'mysql://root@127.0.0.1:3306', database: DATABASE });
  const encryptionKey = crypto.randomBytes(32).toString('base64');
  const targets = [await startBuild(first.name, first.entry, BASE_PORT, encryptionKey)];
  targets.push(await startBuild(second.name, second.entry, BASE_PORT + 1, encryptionKey));
  try {
    const [getClientKey] = await seed.addClients(targets[0].url, 0, 1);
    await seed.addSmsConfig(targets[0].url, getClientKey);
    await seed.addSmsConfig(targets[0].url, getClientKey);
    const keyPool = new KeyPool(KEY_USES);
    let clientNumber = 1;
    const results = {};
    let resolveTokens;
    for (const scenario of SCENARIOS.filter(({ name }) => params.scenarioNames.includes(name))) {
      if (scenario.name === 'resolve') {
        // Both builds share the encryption key, so either opens the tokens the first one issued.
        const keys = await seed.addClients(targets[0].url, clientNumber, RESOLVE_CLIENTS);
        clientNumber += RESOLVE_CLIENTS;
        resolveTokens = await seed.addSmsConfigTokens(targets[0].url, keys, 2);
      }
      const rps = Object.fromEntries(targets.map(({ name }) => [name, []]));
      for (let round = 0; round <= params.rounds; round++) {
        const order = round % 2 === 0 ? targets : [...targets].reverse();
        for (const target of order) {
          const seconds = round === 0 ? params.warmupSeconds : params.seconds;
          if (scenario.name === 'add-sms-config') {
            // Enough unused keys for the fastest rate either build could reach, twice over.
            const missing = Math.ceil((6000 * seconds - keyPool.remaining()) / KEY_USES);
            if (missing > 0) keyPool.add(await seed.addClients(targets[0].url, clientNumber, missing));
            clientNumber += Math.max(0, missing);
          }
          const result = await runLoad(autocannon, {
            url: target.url + scenario.path,
            connections: 50,
            seconds,
            options: requestOptions(scenario.name, { getClientKey, keyPool, resolveTokens }),
          });
          if (result.failed > 0) throw new Error(`${scenario.name} on ${target.name}: ${result.failed} failed answers`);
          if (round > 0) rps[target.name].push(result.rps);
        }
        if (round > 0)
          progress(`${scenario.name} round ${round}: ${targets.map(({ name }) => `${name} ${Math.round(rps[name].at(-1))}`).join(', ')}`);
      }
      results[scenario.name] = rps;
    }
    return results;
  } finally {
    for (const target of targets) await children.stopChild(target.handle);
  }
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

  console.log(
    `Rounds: 2 x ${params.rounds} x ${params.seconds} s per build and scenario, interleaved, places swapped between halves; 50 connections.\n`,
  );
  console.log('| scenario | before req/s | after req/s | after/before, first half | second half (swapped) | mean |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const name of Object.keys(halves[0])) {
    const ratioOf = (half) => median(half[name].after.map((after, i) => after / half[name].before[i]));
    const [first, second] = halves.map(ratioOf);
    const all = (build) => halves.flatMap((half) => half[name][build]);
    console.log(
      `| ${name} | ${Math.round(median(all('before')))} | ${Math.round(median(all('after')))} | ${first.toFixed(3)}x | ${second.toFixed(3)}x | ${((first + second) / 2).toFixed(3)}x |`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
