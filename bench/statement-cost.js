'use strict';
// What one statement costs the service's process, by the way it is sent: TypeORM's query builder (with entity
// hydration), TypeORM's manager.query() with the same SQL, and mysql2's prepared statement straight on a pool. The
// figures behind docs/architecture.md's list of the SQL kept. CPU µs per statement in this process (what limits
// throughput on a shared 2-core machine), and wall µs, one statement at a time, after a warm-up.
//   node bench/statement-cost.js   (after npm run build; env: BENCH_DATABASE (registry_statement_cost), STATEMENTS (3000))
const mysql = require('mysql2');
const { recreateDatabase } = require('./lib/database');

const { registryDataSource, withStatementHooks } = require('../dist/database/registry-data-source');
const { StatementTally } = require('../dist/database/statement-tally');
const { buildDataSourceOptions, withStatementTimeout } = require('../dist/database/database-options');
const { runMigrationsUnderLock } = require('../dist/database/run-migrations');
const { ENTITIES } = require('../dist/entities');
const { SmsConfig } = require('../dist/sms-config/sms-config.entity');
const { AuditEvent } = require('../dist/audit/audit-event.entity');

const SERVER = 'mysql://root@127.0.0.1:3306';
const DATABASE = process.env.BENCH_DATABASE || 'registry_statement_cost';
const STATEMENTS = Number(process.env.STATEMENTS || 3000);
const CONCURRENCY = 50;

async function measure(name, statement) {
  for (let i = 0; i < 300; i++) await statement(i);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < STATEMENTS; i++) await statement(i);
  const wallUs = Number(process.hrtime.bigint() - started) / 1000 / STATEMENTS;
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / STATEMENTS;
  return { name, cpuUs, wallUs };
}

/** The same, CONCURRENCY statements in flight at once, as a loaded service sends them: per statement, CPU and wall. */
async function measureConcurrent(name, statement) {
  const runAll = async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < STATEMENTS) await statement(next++);
      }),
    );
  };
  await runAll();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await runAll();
  const wallUs = Number(process.hrtime.bigint() - started) / 1000 / STATEMENTS;
  const used = process.cpuUsage(cpu);
  return { name: `${name}, ${CONCURRENCY} at once`, cpuUs: (used.user + used.system) / STATEMENTS, wallUs };
}

async function main() {
  await recreateDatabase({ serverUrl: SERVER, database: DATABASE });
  const url = `${SERVER}/${DATABASE}`;
  const options = withStatementTimeout(buildDataSourceOptions({ type: 'mariadb', url, poolSize: 10 }, ENTITIES));
  // With the service's statement hooks, whose cost its statements pay.
  const dataSource = await registryDataSource(withStatementHooks(options, new StatementTally())).initialize();
  await runMigrationsUnderLock(dataSource);
  const pool = mysql.createPool({ uri: url, connectionLimit: 10, timezone: 'Z' });
  try {
    await dataSource.query(
      "INSERT INTO client (app_name, app_url, secret_key_digest, is_host, created_at) VALUES ('a', 'https://a', REPEAT('a', 64), 0, NOW())",
    );
    await dataSource.query(
      "INSERT INTO sms_config (client_id, provider_name, sms_api, password_sealed, api_key_sealed, created_at) VALUES (1, 'p', 'https://p', 'k:x', 'k:y', NOW())",
    );
    const resolveSql = `SELECT s.id AS smsConfigId, s.client_id AS clientId, c.is_active AS clientIsActive, s.provider_name AS providerName,
      s.provider_url AS providerUrl, s.username, s.sender_id AS senderId, s.sms_type AS smsType, s.sms_api AS smsApi,
      s.balance_url AS balanceUrl, s.balance, s.per_sms_cost AS perSmsCost, s.is_active AS isActive,
      s.password_sealed AS passwordSealed, s.api_key_sealed AS apiKeySealed
      FROM sms_config s JOIN client c ON c.id = s.client_id WHERE s.id = ? AND s.client_id = ?`;
    const insertSql =
      'INSERT INTO audit_event (event_id, occurred_at, action, actor, client_id, sms_config_id, request_id, changed, unpublished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';
    const auditValues = (i) => [
      `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      new Date(),
      'sms-config.credentials-resolved',
      'client:1',
      1,
      1,
      'req',
      '[]',
      0,
    ];
    const { GetClientRepository } = require('../dist/client/get-client.repository');
    const getClientSql = new GetClientRepository({}, dataSource).withSmsConfigsSql.get(1);
    const digest = 'a'.repeat(64);
    let run = 0;
    const fresh = (i) => auditValues(++run * 100000 + i);
    const results = [
      await measureConcurrent('get-client read, manager.query', () => dataSource.manager.query(getClientSql, [digest, digest])),
      await measureConcurrent('get-client read, mysql2 prepared statement on a pool', () =>
        pool.promise().execute(getClientSql, [digest, digest]),
      ),
      await measureConcurrent('resolve read, manager.query', () => dataSource.manager.query(resolveSql, [1, 1])),
      await measureConcurrent('resolve read, mysql2 prepared statement on a pool', () => pool.promise().execute(resolveSql, [1, 1])),
      await measure('read, query builder (join, hydrated)', () =>
        dataSource.manager
          .getRepository(SmsConfig)
          .createQueryBuilder('s')
          .select(['s.id', 's.clientId', 's.providerName', 's.providerUrl', 's.username', 's.senderId', 's.smsType', 's.smsApi'])
          .addSelect(['s.balanceUrl', 's.balance', 's.perSmsCost', 's.isActive', 's.passwordSealed', 's.apiKeySealed'])
          .innerJoin('s.client', 'c')
          .addSelect(['c.id', 'c.isActive'])
          .where({ id: 1, clientId: 1 })
          .getOne(),
      ),
      await measure('read, manager.query (same SQL as written)', () => dataSource.manager.query(resolveSql, [1, 1])),
      await measure('read, mysql2 prepared statement on a pool', () => pool.promise().execute(resolveSql, [1, 1])),
      await measure('insert, query builder', (i) => {
        const [eventId, occurredAt, action, actor, clientId, smsConfigId, requestId, changed] = fresh(i);
        return dataSource.manager
          .createQueryBuilder()
          .insert()
          .into(AuditEvent)
          .values({ eventId, occurredAt, action, actor, clientId, smsConfigId, requestId, changed, unpublished: false })
          .updateEntity(false)
          .execute();
      }),
      await measure('insert, manager.query', (i) => dataSource.manager.query(insertSql, fresh(i))),
      await measure('insert, mysql2 prepared statement on a pool', (i) => pool.promise().execute(insertSql, fresh(i))),
    ];
    console.log(`${STATEMENTS} statements each, one at a time, MariaDB on 127.0.0.1\n`);
    console.log('| statement | CPU µs in the process | wall µs |');
    console.log('| --- | ---: | ---: |');
    for (const { name, cpuUs, wallUs } of results) console.log(`| ${name} | ${cpuUs.toFixed(0)} | ${wallUs.toFixed(0)} |`);
  } finally {
    await new Promise((resolve) => pool.end(resolve));
    await dataSource.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
