'use strict';
// The relay's scan with millions of published entries kept in the audit log: with the index on (unpublished, id), and
// without it (IGNORE INDEX), on one MariaDB database made by the service's own migrations.
//   node bench/outbox-scan.js          (after a build: it runs dist/migrate.js)
//   env: OUTBOX_SCAN_ROWS (2000000 published entries), OUTBOX_SCAN_WAITING (200 unpublished), OUTBOX_SCAN_REPEATS (20),
//        OUTBOX_SCAN_REUSE=1 (measure the database an earlier run filled, without writing it again), BENCH_DATABASE
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const mysql = require('mysql2/promise');
const { recreateDatabase } = require('./lib/database');

const SERVER_URL = 'mysql://root@127.0.0.1:3306';
const DATABASE = process.env.BENCH_DATABASE || 'registry_outbox_scan';
const ROWS = Number(process.env.OUTBOX_SCAN_ROWS || 2_000_000);
const WAITING = Number(process.env.OUTBOX_SCAN_WAITING || 200);
// A scan without the index reads every entry: few repeats, or the run takes minutes.
const REPEATS = Number(process.env.OUTBOX_SCAN_REPEATS || 20);
const RELAY_SCAN = (hint) =>
  `SELECT id, event_id, occurred_at, action, actor, client_id, sms_config_id, request_id, changed
   FROM audit_event ${hint} WHERE unpublished = 1 ORDER BY id LIMIT 200`;
const BACKLOG = (hint) => `SELECT COUNT(*) AS n FROM audit_event ${hint} WHERE unpublished = 1`;

async function timed(connection, sql) {
  const times = [];
  for (let i = 0; i < REPEATS; i++) {
    const started = process.hrtime.bigint();
    await connection.query(sql);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(REPEATS / 2)] };
}

/** A new database, migrated by the service, with ROWS published entries and WAITING unpublished ones. */
async function fill() {
  await recreateDatabase({ serverUrl: SERVER_URL, database: DATABASE });
  execFileSync(process.execPath, [path.join(__dirname, '..', 'dist', 'migrate.js')], {
    env: { ...process.env, DATABASE_URL: `${SERVER_URL}/${DATABASE}`, NODE_ENV: 'development', LOG_LEVEL: 'warn' },
    stdio: 'inherit',
  });
  const connection = await mysql.createConnection({ uri: `${SERVER_URL}/${DATABASE}` });
  try {
    process.stderr.write(`[outbox-scan] writing ${ROWS} published entries and ${WAITING} unpublished ones\n`);
    const insert = (
      count,
    ) => `INSERT INTO audit_event (event_id, occurred_at, action, actor, client_id, request_id, changed, unpublished, published_at)
      SELECT UUID(), NOW(3), 'client.updated', 'admin:00000000', seq % 50000, NULL, '["appUrl"]', ?, ?
      FROM seq_1_to_${count}`;
    for (let written = 0; written < ROWS; written += 100_000) {
      await connection.query(insert(Math.min(ROWS - written, 100_000)), [0, new Date()]);
    }
    await connection.query(insert(WAITING), [1, null]);
  } finally {
    await connection.end();
  }
}

async function main() {
  if (process.env.OUTBOX_SCAN_REUSE !== '1') await fill();
  const connection = await mysql.createConnection({ uri: `${SERVER_URL}/${DATABASE}` });
  try {
    await connection.query('ANALYZE TABLE audit_event');
    const results = {};
    for (const [name, hint] of [
      ['with the index', ''],
      ['without it', 'IGNORE INDEX (IDX_audit_event_unpublished)'],
    ]) {
      const [[plan]] = await connection.query(`EXPLAIN ${RELAY_SCAN(hint)}`);
      results[name] = {
        'relay scan p50 ms': (await timed(connection, RELAY_SCAN(hint))).p50.toFixed(2),
        'backlog count p50 ms': (await timed(connection, BACKLOG(hint))).p50.toFixed(2),
        'plan key': plan.key,
      };
    }
    const [[{ total }]] = await connection.query('SELECT COUNT(*) AS total FROM audit_event');
    console.log(`audit_event: ${total} entries, ${WAITING} unpublished`);
    console.table(results);
  } finally {
    await connection.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
