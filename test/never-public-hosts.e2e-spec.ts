import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { NEVER_PUBLIC_SUFFIXES } from '../src/common/validation/never-public-names';
import { loadAppConfig } from '../src/config/load-app-config';
import { buildDataSourceOptions } from '../src/database/database-options';
import { registryDataSource } from '../src/database/registry-data-source';
import { ENTITIES } from '../src/entities';
import { ProviderHostApproval } from '../src/provider-host/provider-host-approval';
import {
  ADMIN_API_KEY,
  DISPATCHER_API_KEY,
  KEY_A,
  MYSQL_SERVER_URL,
  TEST_DATABASE_PREFIX,
  TestApp,
  startTestApp,
  validSmsConfig,
} from './helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };
const DISPATCHER = { 'x-api-key': DISPATCHER_API_KEY };
const FORMS =
  'host must be a DNS name (api.provider.com), *. and a DNS name (*.provider.com) or an IP address, without scheme, port or path';
const PRIVATE = 'must not name a private, loopback or link-local host (set ALLOW_PRIVATE_PROVIDER_HOSTS=true to allow)';
const URL_FIELDS = ['smsApi', 'providerUrl', 'balanceUrl'];
/** Each listed suffix as the name itself and as a name under it. */
const NEVER_PUBLIC_NAMES = NEVER_PUBLIC_SUFFIXES.flatMap((suffix) => [suffix, `sms.${suffix}`]);
/** The names added after the first list: two special-use domains and four more wildcard-DNS services. */
const ADDED_NAMES = ['onion', 'alt', 'localhost.direct', 'traefik.me', 'local.gd', '1u.ms'];
/** Reserved by RFC 6761 too, but resolving nowhere: accepted. */
const ACCEPTED_NAMES = ['sms.example', 'sms.test', 'sms.invalid'];

describe('Names that can never be public, as provider hosts and in provider URLs', () => {
  let t: TestApp;
  const approve = (host: string) => t.post('/api/v1/provider-hosts', { headers: ADMIN, body: { host } });
  const addSmsConfig = (secretKey: string, overrides: Record<string, unknown>) =>
    t.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig(overrides) });
  const hostCount = async () => (await t.dataSource.query('SELECT id FROM provider_host')).length as number;
  const smsConfigCount = async () => (await t.dataSource.query('SELECT id FROM sms_config')).length as number;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterEach(async () => {
    await t.reset();
    await t.dataSource.query('DELETE FROM provider_host');
  });
  afterAll(() => t.close());

  it('should list exactly the suffixes of the decision, example, test and invalid not among them', () => {
    expect([...NEVER_PUBLIC_SUFFIXES].sort()).toEqual(
      [
        'localhost',
        'internal',
        'local',
        'localdomain',
        'home.arpa',
        'arpa',
        'svc',
        'cluster.local',
        'lan',
        'intranet',
        'corp',
        'nip.io',
        'sslip.io',
        'xip.io',
        'lvh.me',
        'vcap.me',
        'localtest.me',
        ...ADDED_NAMES,
      ].sort(),
    );
  });

  it.each(ADDED_NAMES)('should refuse %s, itself and a name under it, as a provider host and in every provider URL', async (suffix) => {
    expect((await approve(`sms.${suffix}`)).body).toEqual({ status: 400, error: `host ${PRIVATE}` });
    expect((await approve(`*.sms.${suffix}`)).body).toEqual({ status: 400, error: `host ${PRIVATE}` });
    expect((await approve(suffix)).body).toEqual({ status: 400, error: suffix.includes('.') ? `host ${PRIVATE}` : FORMS });
    expect(await hostCount()).toBe(0);
    const secretKey = await t.addClient();
    for (const field of URL_FIELDS) {
      for (const name of [suffix, `10.0.0.1.${suffix}`]) {
        const answer = await addSmsConfig(secretKey, { [field]: `https://${name}/send` });
        expect({ field, name, body: answer.body }).toEqual({ field, name, body: { status: 400, error: `${field} ${PRIVATE}` } });
      }
    }
    expect(await smsConfigCount()).toBe(0);
  });

  it.each(NEVER_PUBLIC_NAMES)('should refuse the provider host %s with 400, and list nothing', async (name) => {
    const answer = await approve(name);
    expect(answer.status).toBe(400);
    // A name of one label is no DNS name a provider has, whatever its suffix.
    expect(answer.body).toEqual({ status: 400, error: name.includes('.') ? `host ${PRIVATE}` : FORMS });
    expect(await hostCount()).toBe(0);
  });

  it.each(NEVER_PUBLIC_SUFFIXES.map((suffix) => [`*.sms.${suffix}`]))('should refuse the wildcard %s with 400', async (host) => {
    expect((await approve(host)).body).toEqual({ status: 400, error: `host ${PRIVATE}` });
  });

  it.each(URL_FIELDS.flatMap((field) => NEVER_PUBLIC_NAMES.map((name) => [field, name])))(
    'should refuse %s on %s with 400 naming the field, and store nothing',
    async (field, name) => {
      const secretKey = await t.addClient();
      const answer = await addSmsConfig(secretKey, { [field]: `https://${name}/send` });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 400, error: `${field} ${PRIVATE}` });
      expect(await smsConfigCount()).toBe(0);
    },
  );

  it('should refuse a never-public name in a PATCH of a provider URL, upper case included', async () => {
    const secretKey = await t.addClient();
    const added = await addSmsConfig(secretKey, { password: 'p', apiKey: 'k' });
    expect(added.status).toBe(200);
    const [{ id }] = await t.dataSource.query('SELECT id FROM sms_config');
    for (const smsApi of ['https://SMS.Cluster.Local/send', 'https://10.0.0.1.nip.io/send']) {
      const answer = await t.send('PATCH', `/api/v1/sms-configs/${id}`, {
        headers: { secretKey },
        body: { smsApi, password: 'p', apiKey: 'k' },
      });
      expect(answer.body).toEqual({ status: 400, error: `smsApi ${PRIVATE}` });
    }
  });

  it.each(ACCEPTED_NAMES)('should accept %s as a provider host and in every provider URL', async (name) => {
    const approved = await approve(name);
    expect(approved.status).toBe(200);
    expect(approved.body.results.host).toBe(name);
    const secretKey = await t.addClient();
    const answer = await addSmsConfig(secretKey, {
      smsApi: `https://${name}/send`,
      providerUrl: `https://${name}`,
      balanceUrl: `https://${name}/balance`,
    });
    expect(answer.status).toBe(200);
  });

  it.each([
    ['smsApi', 'https:api.twilio.com/x'],
    ['providerUrl', 'http:twilio.com'],
    ['balanceUrl', 'HTTPS:api.twilio.com/balance'],
  ])('should refuse %s %s, which has no scheme://host form, with 400', async (field, url) => {
    const secretKey = await t.addClient();
    const answer = await addSmsConfig(secretKey, { [field]: url });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: `${field} must be an absolute http(s) URL` });
    expect(await smsConfigCount()).toBe(0);
  });

  it('should refuse an appUrl without the scheme://host form too', async () => {
    const answer = await t.post('/api/client/add', {
      headers: ADMIN,
      body: { appName: 'a', appUrl: 'https:a.example.com', isHost: false },
    });
    expect(answer.body).toEqual({ status: 400, error: 'appUrl must be an absolute http(s) URL' });
  });

  it('should never approve a stored URL on a never-public name, nor one without scheme://host, whatever the list says', async () => {
    const secretKey = await t.addClient();
    for (let index = 0; index < 3; index++)
      expect((await addSmsConfig(secretKey, { smsApi: 'https://api.twilio.com/send' })).status).toBe(200);
    const ids = (await t.dataSource.query('SELECT id FROM sms_config ORDER BY id')).map((row: { id: number }) => row.id) as number[];
    // Stored and listed by an earlier release, which took them.
    await t.dataSource.query('UPDATE sms_config SET sms_api = ?, provider_url = NULL, balance_url = NULL WHERE id = ?', [
      'https://sms.internal/send',
      ids[0],
    ]);
    await t.dataSource.query('UPDATE sms_config SET sms_api = ?, provider_url = NULL, balance_url = NULL WHERE id = ?', [
      'https://127.0.0.1.nip.io/send',
      ids[1],
    ]);
    await t.dataSource.query('UPDATE sms_config SET sms_api = ?, provider_url = NULL, balance_url = NULL WHERE id = ?', [
      'https:api.twilio.com/send',
      ids[2],
    ]);
    for (const host of ['sms.internal', '*.nip.io', 'api.twilio.com']) {
      await t.dataSource.query("INSERT INTO provider_host (host, note, created_at) VALUES (?, NULL, '2026-11-01 00:00:00')", [host]);
    }
    const approval = t.app.get(ProviderHostApproval);
    approval.changed();
    await approval.current();
    const routed = await t.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey } });
    expect(routed.body.results.candidates).toEqual([]);
    expect(routed.body.results.skipped).toEqual(ids.map((smsConfigId) => ({ smsConfigId, reason: 'unapproved' })));
    for (const id of ids) {
      expect((await t.get(`/api/v1/sms-configs/${id}`, { secretKey })).body.results.destinationApproved).toBe(false);
    }
  });

  it('should never approve a stored URL on one of the added names, listed by an earlier release', async () => {
    const secretKey = await t.addClient();
    for (const suffix of ADDED_NAMES) {
      expect((await addSmsConfig(secretKey, { smsApi: 'https://api.twilio.com/send' })).status).toBe(200);
      await t.dataSource.query('UPDATE sms_config SET sms_api = ?, provider_url = NULL, balance_url = NULL WHERE sms_api = ?', [
        `https://sms.${suffix}/send`,
        'https://api.twilio.com/send',
      ]);
      await t.dataSource.query("INSERT INTO provider_host (host, note, created_at) VALUES (?, NULL, '2026-11-01 00:00:00')", [
        `sms.${suffix}`,
      ]);
    }
    const approval = t.app.get(ProviderHostApproval);
    approval.changed();
    await approval.current();
    const routed = await t.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey } });
    expect(routed.body.results.candidates).toEqual([]);
    expect(routed.body.results.skipped).toHaveLength(ADDED_NAMES.length);
    expect(new Set(routed.body.results.skipped.map((skip: { reason: string }) => skip.reason))).toEqual(new Set(['unapproved']));
  });
});

// Its own app, started once the other is closed.
describe('Names that can never be public, with ALLOW_PRIVATE_PROVIDER_HOSTS=true', () => {
  let permissive: TestApp;

  beforeAll(async () => {
    permissive = await startTestApp({ ALLOW_PRIVATE_PROVIDER_HOSTS: 'true' });
  });
  afterAll(() => permissive.close());

  it.each(ADDED_NAMES)('should approve sms.%s and take it in every provider URL', async (suffix) => {
    const approved = await permissive.post('/api/v1/provider-hosts', { headers: ADMIN, body: { host: `sms.${suffix}` } });
    expect(approved.status).toBe(200);
    const secretKey = await permissive.addClient();
    const urls = {
      smsApi: `https://sms.${suffix}/send`,
      providerUrl: `https://sms.${suffix}`,
      balanceUrl: `https://sms.${suffix}/balance`,
    };
    const answer = await permissive.post('/api/sms-config/add', { headers: { secretKey }, body: validSmsConfig(urls) });
    expect(answer.status).toBe(200);
    const routed = await permissive.post('/api/v1/dispatch/route', { headers: { ...DISPATCHER, secretKey } });
    expect(routed.body.results.candidates).toHaveLength(1);
  });
});

/** A database nobody has touched yet. */
async function emptyDatabaseUrl(label: string): Promise<string> {
  if (process.env.TEST_DATABASE !== 'mysql') return `sqlite:${join(mkdtempSync(join(tmpdir(), 'registry-migrate-')), 'registry.sqlite')}`;
  const database = `${TEST_DATABASE_PREFIX}_${label}_${process.env.JEST_WORKER_ID ?? '0'}`;
  const connection = await createConnection(MYSQL_SERVER_URL);
  await connection.query(`DROP DATABASE IF EXISTS ${database}`);
  await connection.query(`CREATE DATABASE ${database}`);
  await connection.end();
  return `${MYSQL_SERVER_URL}/${database}`;
}

describe('The upgrade that brings the never-public names', () => {
  it('should remove the listed hosts on them (names and wildcards), each audited once by system, and keep the others', async () => {
    const url = await emptyDatabaseUrl('migrate_never_public');
    const config = loadAppConfig({ DATABASE_URL: url, ADMIN_API_KEYS: ADMIN_API_KEY, ENCRYPTION_KEYS: KEY_A });
    const options = buildDataSourceOptions(config.database);
    const migrations = options.migrations as Array<new () => { name?: string }>;
    const before = new DataSource({ ...options, migrations: migrations.filter((m) => Number(new m().name!.slice(-13)) < 1798000000012) });
    await before.initialize();
    try {
      await before.runMigrations();
      for (const host of [
        'api.twilio.com',
        'sms.internal',
        '*.nip.io',
        'sms.example',
        'router.lan',
        '*.provider.example',
        'localtest.me',
      ]) {
        await before.query("INSERT INTO provider_host (host, note, created_at) VALUES (?, 'present at upgrade', '2026-11-01 00:00:00')", [
          host,
        ]);
      }
    } finally {
      await before.destroy();
    }

    const after = await registryDataSource({ ...options, entities: ENTITIES }).initialize();
    try {
      await after.runMigrations();
      const hosts = await after.query<Array<{ host: string }>>('SELECT host FROM provider_host ORDER BY host');
      expect(hosts.map((row) => row.host)).toEqual(['*.provider.example', 'api.twilio.com', 'sms.example']);
      const entries = await after.query<Array<Record<string, unknown>>>(
        'SELECT action, actor, client_id, sms_config_id, request_id, changed, details, source_address, user_agent, unpublished FROM audit_event ORDER BY id',
      );
      expect(entries.map((entry) => ({ ...entry, unpublished: Number(entry.unpublished) }))).toEqual(
        ['sms.internal', '*.nip.io', 'router.lan', 'localtest.me'].map((host) => ({
          action: 'provider-host.removed',
          actor: 'system',
          client_id: null,
          sms_config_id: null,
          request_id: null,
          changed: '["host"]',
          details: JSON.stringify({ host }),
          source_address: null,
          user_agent: null,
          unpublished: 1,
        })),
      );
    } finally {
      await after.destroy();
    }
  }, 60000);

  it('should remove, at the next upgrade, the listed hosts on the names added since, each audited once by system', async () => {
    const url = await emptyDatabaseUrl('migrate_added_names');
    const config = loadAppConfig({ DATABASE_URL: url, ADMIN_API_KEYS: ADMIN_API_KEY, ENCRYPTION_KEYS: KEY_A });
    const options = buildDataSourceOptions(config.database);
    const migrations = options.migrations as Array<new () => { name?: string }>;
    const before = new DataSource({ ...options, migrations: migrations.filter((m) => Number(new m().name!.slice(-13)) < 1798000000014) });
    await before.initialize();
    const removed = ['sms.onion', '*.sms.alt', 'a.localhost.direct', '*.traefik.me', 'local.gd', '10.0.0.1.1u.ms'];
    try {
      await before.runMigrations();
      for (const host of ['api.twilio.com', ...removed, 'sms.notonion', 'alt.example.com']) {
        await before.query("INSERT INTO provider_host (host, note, created_at) VALUES (?, 'present at upgrade', '2026-11-01 00:00:00')", [
          host,
        ]);
      }
    } finally {
      await before.destroy();
    }

    const after = await registryDataSource({ ...options, entities: ENTITIES }).initialize();
    try {
      await after.runMigrations();
      const hosts = await after.query<Array<{ host: string }>>('SELECT host FROM provider_host ORDER BY host');
      expect(hosts.map((row) => row.host)).toEqual(['alt.example.com', 'api.twilio.com', 'sms.notonion']);
      const entries = await after.query<Array<Record<string, unknown>>>(
        'SELECT action, actor, client_id, request_id, changed, details, unpublished FROM audit_event ORDER BY id',
      );
      expect(entries.map((entry) => ({ ...entry, unpublished: Number(entry.unpublished) }))).toEqual(
        removed.map((host) => ({
          action: 'provider-host.removed',
          actor: 'system',
          client_id: null,
          request_id: null,
          changed: '["host"]',
          details: JSON.stringify({ host }),
          unpublished: 1,
        })),
      );
    } finally {
      await after.destroy();
    }
  }, 60000);
});
