import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, UNCONFIGURED, developmentAdminKey, runScript, stepsOf } from '../helpers/doc-scripts';
import { ServiceProcess, waitUntil } from '../helpers/service-process';

const WALKTHROUGH = join(ROOT, 'scripts', 'walkthrough.sh');

describe('The README walkthrough (scripts/walkthrough.sh)', () => {
  let service: ServiceProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-walkthrough-'));
    service = await ServiceProcess.start({ ...UNCONFIGURED, DATA_DIR: dataDir });
    // The exchange step needs the broker, which the service connects to in the background.
    await waitUntil('broker connected', async () => (await service.request('GET', '/health')).body?.results?.broker === 'up', 20000);
  });
  afterAll(() => service.stop());

  it('should run every operation against a fresh start with the generated admin key and exit 0', async () => {
    const run = await runScript('scripts/walkthrough.sh', { DATA_DIR: dataDir, BASE_URL: service.url });

    expect(run.code).toBe(0);
    const steps = stepsOf(run.stdout);
    expect(steps.map(({ step }) => step)).toEqual([
      'Add client (admin key): answers the client with its new secretKey',
      'Get client by secret key: the client and its SMS configurations (404 for an unknown key)',
      'Add SMS configuration (secretKey): password and apiKey are stored encrypted and never returned',
      'Get SMS configurations by client (secretKey): ordered by smsConfigId',
      'Create exchange (admin key): durable; again with the same type is fine, another type is 409',
      'Readiness',
    ]);
    const [added, got, addedConfig, listed, exchange, health] = steps.map(({ answer }) => answer);
    const client = {
      appUrl: 'https://billing.example.com',
      appDescription: 'Invoices',
      preferredSmsGateway: 'twilio',
      preferredEmailGateway: null,
      preferredPushNotificationGateway: null,
      isHost: false,
      secretKey: expect.stringMatching(/^sk_[A-Za-z0-9_-]{43}$/),
      smsConfig: null,
    };
    expect(added).toEqual({ status: 200, results: client });
    // The key the script read out of the first answer is the one it authenticated with.
    expect(got).toEqual({ status: 200, results: { ...client, secretKey: added.results.secretKey } });
    expect(addedConfig).toEqual({ status: 200, results: { verifyApiKey: expect.stringMatching(/^[A-Za-z0-9_-]{64,}$/) } });
    expect(listed).toEqual({
      status: 200,
      results: [
        {
          smsConfigId: expect.any(Number),
          providerName: 'twilio',
          providerUrl: 'https://twilio.com',
          username: 'acme',
          senderId: 'ACME',
          smsType: 'Transactional',
          smsApi: 'https://api.twilio.com/send',
          balanceUrl: 'https://api.twilio.com/balance',
          balance: 12.5,
          perSmsCost: 0.0125,
          isActive: true,
        },
      ],
    });
    expect(exchange).toEqual({
      status: 200,
      message: 'Exchange notifications.sms declared',
      exchangeDetails: { name: 'notifications.sms', type: 'topic' },
    });
    expect(health).toEqual({ status: 200, results: { database: 'up', broker: 'up' } });
  });

  it('should never print the admin key', async () => {
    const run = await runScript('scripts/walkthrough.sh', { DATA_DIR: dataDir, BASE_URL: service.url });
    const adminApiKey = developmentAdminKey(dataDir);

    expect(run.code).toBe(0);
    expect(`${run.stdout}${run.stderr}`).not.toContain(adminApiKey);
  });

  it('should stop at the first refused request with its error, and exit non-zero', async () => {
    // Another DATA_DIR: `npm run keys` generates another admin key there, which this service refuses.
    const run = await runScript('scripts/walkthrough.sh', {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'registry-other-')),
      BASE_URL: service.url,
    });

    expect(run.code).not.toBe(0);
    expect(stepsOf(run.stdout)).toEqual([
      { step: 'Add client (admin key): answers the client with its new secretKey', answer: { status: 401, error: expect.any(String) } },
    ]);
    expect(run.stderr).toContain('401');
  });
});

describe('The README', () => {
  it('should show scripts/walkthrough.sh byte for byte', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const script = readFileSync(WALKTHROUGH, 'utf8');
    const start = readme.indexOf('```bash\n#!/usr/bin/env bash\n');
    expect(start).toBeGreaterThanOrEqual(0);
    const shown = readme.slice(start + '```bash\n'.length, readme.indexOf('\n```\n', start) + 1);

    expect(shown).toBe(script);
    expect(readme).toContain('bash scripts/walkthrough.sh');
  });
});
