'use strict';
// Child processes of the bench: started with their output in a log file (never
// the console), waited on until ready, and always killed when the bench ends.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const running = new Set();

function baseEnv() {
  const env = { PATH: process.env.PATH };
  for (const name of ['HOME', 'TMPDIR', 'LANG']) {
    if (process.env[name]) env[name] = process.env[name];
  }
  return env;
}

function startNodeChild(name, scriptArgs, { cwd, env }) {
  const logFile = path.join(os.tmpdir(), `bench-${name}-${process.pid}.log`);
  const logFd = fs.openSync(logFile, 'w');
  const startedAt = performance.now();
  const child = spawn(process.execPath, scriptArgs, {
    cwd,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', logFd, logFd],
  });
  fs.closeSync(logFd);
  const handle = { name, child, logFile, startedAt, exitCode: undefined };
  handle.exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      handle.exitCode = code ?? signal;
      running.delete(handle);
      resolve();
    });
  });
  running.add(handle);
  return handle;
}

function logTail(handle, lines = 30) {
  try {
    return fs.readFileSync(handle.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function failIfExited(handle) {
  if (handle.exitCode === undefined) return;
  throw new Error(
    `${handle.name} exited (${handle.exitCode}) before it was ready. ` + `Last lines of ${handle.logFile}:\n${logTail(handle)}`,
  );
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function answers200(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

function acceptsConnections(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitUntil(handle, isReady, what, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    failIfExited(handle);
    if (await isReady()) return performance.now() - handle.startedAt;
    await sleep(20);
  }
  failIfExited(handle);
  throw new Error(`${handle.name}: ${what} not ready after ${timeoutMs} ms. ` + `Last lines of ${handle.logFile}:\n${logTail(handle)}`);
}

/** Resolves with the milliseconds from spawn to the first 200 from url. */
function waitForHttp200(handle, url, timeoutMs = 30000) {
  return waitUntil(handle, () => answers200(url), `GET ${url}`, timeoutMs);
}

function waitForPort(handle, port, timeoutMs = 30000) {
  return waitUntil(handle, () => acceptsConnections(port), `port ${port}`, timeoutMs);
}

async function assertPortFree(port) {
  if (await acceptsConnections(port)) {
    throw new Error(`port ${port} is already in use: stop whatever listens there and retry`);
  }
}

async function stopChild(handle) {
  if (handle.exitCode !== undefined) return;
  handle.child.kill('SIGTERM');
  const killed = await Promise.race([handle.exited.then(() => true), sleep(5000)]);
  if (!killed) handle.child.kill('SIGKILL');
  await handle.exited;
}

function stopAllChildren() {
  return Promise.all([...running].map(stopChild));
}

function killAllChildrenNow() {
  for (const handle of running) handle.child.kill('SIGKILL');
}

/** Makes sure no child outlives the bench, whatever way it ends. */
function installCleanup() {
  process.on('exit', killAllChildrenNow);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping children`);
      void stopAllChildren().finally(() => process.exit(130));
    });
  }
}

function residentMemory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rssMB: kib('VmRSS') / 1024, peakRssMB: kib('VmHWM') / 1024 };
}

module.exports = {
  startNodeChild,
  waitForHttp200,
  waitForPort,
  assertPortFree,
  stopChild,
  stopAllChildren,
  installCleanup,
  residentMemory,
};
