import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceProcess } from '../helpers/service-process';

/** What the service reads; unset here, as on a machine where nobody configured anything. */
const UNCONFIGURED = { ADMIN_API_KEYS: '', ENCRYPTION_KEYS: '', DATABASE_URL: '', NODE_ENV: '' };

/**
 * The README's start command runs `node dist/main.js` with no configuration: embedded SQLite, generated
 * development secrets, the broker optional. This is that, from an empty directory.
 */
describe('Starting with no configuration', () => {
  let service: ServiceProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-fresh-'));
    service = await ServiceProcess.start({ ...UNCONFIGURED, DATA_DIR: dataDir });
  });
  afterAll(() => service.stop());

  it('should serve /health on an embedded SQLite database', async () => {
    const answer = await service.request('GET', '/health');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 200, results: { database: 'up', broker: expect.stringMatching(/^(up|down)$/) } });
    expect(statSync(join(dataDir, 'registry.sqlite')).isFile()).toBe(true);
  });

  it('should keep generated development secrets in DATA_DIR with mode 0600, never log the admin key, and print it with npm run keys', async () => {
    const file = join(dataDir, 'development-secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { adminApiKey } = JSON.parse(readFileSync(file, 'utf8')) as { adminApiKey: string };
    const log = service.logs().join('\n');
    // The first line says it, before anything else the start writes.
    expect(JSON.parse(service.logs()[0])).toMatchObject({
      level: 40,
      context: 'Startup',
      msg: expect.stringContaining(`Generated development secrets in ${file}: not for production`),
    });
    expect(log).not.toContain(adminApiKey);
    const printed = execFileSync('npm', ['run', '--silent', 'keys'], {
      cwd: join(__dirname, '..', '..'),
      env: { ...process.env, DATA_DIR: dataDir },
    });
    expect(printed.toString()).toBe(`${adminApiKey}\n`);

    const created = await service.post('/api/client/add', {
      headers: { 'x-api-key': adminApiKey },
      body: { appName: 'fresh', appUrl: 'https://fresh.example.com', isHost: false },
    });
    expect(created.status).toBe(200);
  });

  it('should list the five operations, every action of the lifecycle, scoped keys, dispatch, provider hosts and the pumping lift at /docs', async () => {
    expect((await service.request('GET', '/docs')).status).toBe(200);
    const document = (await service.request('GET', '/docs-json')).body as { paths: Record<string, { post?: unknown }> };
    const operations = Object.entries(document.paths)
      .filter(([, item]) => item.post)
      .map(([path]) => path);
    expect(operations.sort()).toEqual(
      [
        '/api/client/add',
        '/api/client/get/secretKey',
        '/api/sms-config/add',
        '/api/sms-config/get-all-by-client-id',
        '/api/v1/rabbitmq/exchanges',
        '/api/v1/client/secret-key/rotate',
        '/api/v1/clients/{clientId}/secret-key/rotate',
        '/api/v1/client/keys',
        '/api/v1/clients/{clientId}/keys',
        '/api/v1/sms-configs/resolve',
        '/api/v1/sms-configs/{smsConfigId}/verify-api-key',
        '/api/v1/dispatch/route',
        '/api/v1/dispatch/outcomes',
        '/api/v1/provider-hosts',
        '/api/v1/pumping-ranges/{pumpingRangeId}/lift',
      ].sort(),
    );
  });
});

describe('Starting in production without secrets', () => {
  it('should refuse to start and name the missing variables', async () => {
    await expect(
      ServiceProcess.start({ ...UNCONFIGURED, NODE_ENV: 'production', DATA_DIR: mkdtempSync(join(tmpdir(), 'registry-prod-')) }),
    ).rejects.toThrow(/ADMIN_API_KEYS and ENCRYPTION_KEYS must be set when NODE_ENV=production/);
  });

  it('should refuse a bad variable and name it', async () => {
    await expect(ServiceProcess.start({ PORT: 'abc' })).rejects.toThrow(/PORT must/);
  });
});
