import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { ROOT, UNCONFIGURED, developmentAdminKey, runCommand } from '../helpers/doc-scripts';
import { ServiceProcess } from '../helpers/service-process';

/** What the service is started with in DISPATCHER_API_KEYS and the example is given as DISPATCHER_KEY. */
const DISPATCHER_KEY = 'docs-dispatcher-key-7d41b0c9e25f8a3316c2';
const ISO_UTC = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';
const actorOf = (role: 'admin' | 'dispatcher', key: string) => `${role}:${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;

/** The output docs/dispatching.md shows, its one time made a pattern. */
function documentedOutput(): RegExp[] {
  const page = readFileSync(join(ROOT, 'docs', 'dispatching.md'), 'utf8');
  const block = /```text\n([\s\S]*?)```/.exec(page)![1].trimEnd();
  const escape = (line: string) => line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return block.split('\n').map((line) => new RegExp(`^${escape(line).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\\\.\d{3}Z/, ISO_UTC)}$`));
}

describe('The dispatch example (scripts/dispatch-example.js)', () => {
  let service: ServiceProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-dispatch-example-'));
    service = await ServiceProcess.start({
      ...UNCONFIGURED,
      DATA_DIR: dataDir,
      DISPATCHER_API_KEYS: DISPATCHER_KEY,
      ALLOW_PRIVATE_PROVIDER_HOSTS: 'true',
    });
  });
  afterAll(() => service.stop());

  it('should fail over, skip the unhealthy provider, price at the destination, report receipts and codes, refuse one outside the client’s, stop at the day’s limit, and print what the docs show', async () => {
    const run = await runCommand('node', ['scripts/dispatch-example.js'], {
      DATA_DIR: dataDir,
      BASE_URL: service.url,
      DISPATCHER_KEY,
      ADMIN_KEY: undefined,
      MESSAGES: undefined,
    });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = run.stdout.trimEnd().split('\n');
    const documented = documentedOutput();
    expect(lines).toHaveLength(documented.length);
    lines.forEach((line, index) => expect(line).toMatch(documented[index]));

    // Each report debited sent × steady-sms's price at +447700900123: its longest prefix, 447 (0.04), not 44 (0.045) nor
    // the flat 0.05. The provider's own figure, which billed 0.05 a message, then replaced the registry's count.
    let sentThroughSteady = 0;
    // Each report also carries a receipt per message sent and the codes entered, two of every three: none moves a balance.
    const steadyReports = lines.flatMap((line) => {
      const report =
        /^report steady-sms \+447700900123: sent (\d+), failed 0 \(delivered (\d+), codes entered (\d+) of (\d+)\) -> balance ([\d.]+), healthy$/.exec(
          line,
        );
      if (report === null) return [];
      const [sent, delivered, verified, codesSent, balance] = report.slice(1);
      sentThroughSteady += Number(sent);
      expect({ delivered, codesSent }).toEqual({ delivered: sent, codesSent: sent });
      expect(Number(verified)).toBe(Math.ceil((Number(sent) * 2) / 3));
      return [{ balance, expected: String((25_000_000 - 40_000 * sentThroughSteady) / 1_000_000) }];
    });
    expect(steadyReports).toHaveLength(4);
    const [beforeSet, afterSet] = [steadyReports.slice(0, 3), steadyReports[3]];
    expect(beforeSet.map(({ balance }) => balance)).toEqual(beforeSet.map(({ expected }) => expected));
    // The provider's figure (0.05 a message for the first 9) replaced the count; the eleventh message is debited from it.
    expect(lines).toContain('balance of steady-sms set from the provider: 24.55');
    expect(afterSet.balance).toBe('24.51');
    // A message outside the two countries the admin kept the client to: route refuses it, and the example goes on.
    expect(lines).toContain('message 10: refused: 403 destination +12025550123 is not allowed for this client');
    // At the daily limit of 10 messages, route skips every configuration, whatever its price or health.
    expect(lines.at(-1)).toBe('message 12: not sent (tried: nothing; skipped: budget-sms sms-limit, steady-sms sms-limit)');

    const adminKey = developmentAdminKey(dataDir);
    const clients = await fetch(`${service.url}/api/v1/clients?appName=dispatch-example-`, { headers: { 'x-api-key': adminKey } });
    const clientsAnswer = (await clients.json()).results.items as Array<Record<string, unknown>>;
    expect(
      clientsAnswer.map(({ allowedDestinations, dailySmsLimit, sentToday, spentToday }) => ({
        allowedDestinations,
        dailySmsLimit,
        sentToday,
        spentToday,
      })),
    ).toEqual([{ allowedDestinations: ['44', '33'], dailySmsLimit: 10, sentToday: 10, spentToday: 0.4 }]);

    // The crossings it caused, audited once each under the dispatcher's name: the receipts and codes raise no pumping
    // suspicion (10 messages and 10 codes to the range, under the floor of 20, and most codes entered).
    const audit = await fetch(`${service.url}/api/v1/audit-events?limit=200`, { headers: { 'x-api-key': adminKey } });
    const entries = (await audit.json()).results.items as Array<{ action: string; actor: string; changed: string[] }>;
    const dispatchEntries = entries.filter((entry) => entry.actor === actorOf('dispatcher', DISPATCHER_KEY)).map((entry) => entry.action);
    expect(dispatchEntries.filter((action) => action !== 'sms-config.credentials-resolved').reverse()).toEqual([
      'sms-config.unhealthy',
      'sms-config.balance-low',
      'sms-config.balance-set',
      'client.daily-limit-reached',
    ]);
    // One resolution per configuration: the example keeps resolved credentials, as a dispatcher should.
    expect(dispatchEntries.filter((action) => action === 'sms-config.credentials-resolved')).toHaveLength(2);
    // The admin's steps are the admin's: keeping the client to its destinations is a client.updated under the admin's name.
    const adminEntries = entries
      .filter((entry) => entry.actor === actorOf('admin', adminKey))
      .map(({ action, changed }) => ({ action, changed }))
      .reverse();
    expect(adminEntries).toEqual([
      { action: 'client.created', changed: [] },
      { action: 'provider-host.approved', changed: ['host', 'note'] },
      { action: 'client.updated', changed: ['allowedDestinations'] },
      { action: 'client.updated', changed: ['dailySmsLimit'] },
    ]);
  });

  it('should stop with exit code 1 and the service’s error when the dispatcher key is not one', async () => {
    const run = await runCommand('node', ['scripts/dispatch-example.js'], {
      DATA_DIR: dataDir,
      BASE_URL: service.url,
      DISPATCHER_KEY: 'not-a-dispatcher-key',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('dispatch-example: POST /api/v1/dispatch/route answered 401: x-api-key is not valid\n');
  });
});
