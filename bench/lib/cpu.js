'use strict';
// CPU time per answer, for each process that takes part in a round: the target, the database, the broker and the
// load generator (this process). On 2 shared cores they all compete, so a target is as fast as the whole sum allows.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');

const TICK_MICROS = 1e6 / 100; // USER_HZ: utime and stime in /proc/<pid>/stat count hundredths of a second

/** User + system CPU of a process, all threads, in microseconds; undefined once it is gone. */
function processMicros(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS;
  } catch {
    return undefined;
  }
}

/** The pid of a local server process by program name, if one runs here (MariaDB's mariadbd, RabbitMQ's beam.smp). */
function findPid(...names) {
  for (const name of names) {
    try {
      const [pid] = execFileSync('pgrep', ['-o', '-x', name], { encoding: 'utf8' }).trim().split('\n');
      if (pid) return Number(pid);
    } catch {
      // not running under this name
    }
  }
  return undefined;
}

/** Starts counting; the returned function gives µs per answer for each process, given how many answers there were. */
function startCounting(pids) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, pid && processMicros(pid)]));
  const loadBefore = process.cpuUsage();
  return (answers) => {
    const perAnswer = (micros) => (Number.isFinite(micros) && answers > 0 ? micros / answers : undefined);
    const load = process.cpuUsage(loadBefore);
    const result = { loadGenerator: perAnswer(load.user + load.system) };
    for (const [name, pid] of Object.entries(pids)) {
      const after = pid && processMicros(pid);
      result[name] = perAnswer(after - before[name]);
    }
    return result;
  };
}

module.exports = { findPid, startCounting };
