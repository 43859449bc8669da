import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, Service } from '../helpers/service-process';

/**
 * The README's start command runs `node dist/main.js` with no configuration: embedded SQLite, generated
 * development secrets, the broker optional. This is that, from an empty directory.
 */
describe('Starting with no configuration', () => {
  let service: Service;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-fresh-'));
    service = await startService({ env: { DATA_DIR: dataDir }, inheritConfig: false });
  });
  afterAll(() => service.stop());

  it('should serve /health on an embedded SQLite database', async () => {
    const answer = await fetch(`${service.url}/health`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 200, results: { database: 'up', broker: expect.stringMatching(/^(up|down)$/) } });
    expect(statSync(join(dataDir, 'registry.sqlite')).isFile()).toBe(true);
  });

  it('should keep generated development secrets in DATA_DIR with mode 0600 and log the admin key once', async () => {
    const file = join(dataDir, 'development-secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { adminApiKey } = JSON.parse(readFileSync(file, 'utf8')) as { adminApiKey: string };
    expect(service.output().split(adminApiKey).length - 1).toBe(1);

    const created = await fetch(`${service.url}/api/client/add`, {
      method: 'POST',
      headers: { 'x-api-key': adminApiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ appName: 'fresh', appUrl: 'https://fresh.example.com', isHost: false }),
    });
    expect(created.status).toBe(200);
  });

  it('should list all five operations at /docs', async () => {
    expect((await fetch(`${service.url}/docs`)).status).toBe(200);
    const document = (await (await fetch(`${service.url}/docs-json`)).json()) as { paths: Record<string, { post?: unknown }> };
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
      ].sort(),
    );
  });
});

describe('Starting in production without secrets', () => {
  it('should refuse to start and name the missing variables', async () => {
    await expect(
      startService({ env: { NODE_ENV: 'production', DATA_DIR: mkdtempSync(join(tmpdir(), 'registry-prod-')) }, inheritConfig: false }),
    ).rejects.toThrow(/ADMIN_API_KEYS and ENCRYPTION_KEYS must be set when NODE_ENV=production/);
  });

  it('should refuse a bad variable and name it', async () => {
    await expect(startService({ env: { PORT: 'abc' }, inheritConfig: false })).rejects.toThrow(/PORT must/);
  });
});
