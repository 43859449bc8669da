import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { ROOT, UNCONFIGURED, developmentAdminKey, runCommand } from '../helpers/doc-scripts';
import { ServiceProcess } from '../helpers/service-process';

/** What the service is started with in DISPATCHER_API_KEYS and the example is given as DISPATCHER_KEY. */
const DISPATCHER_KEY = 'docs-dispatcher-key-7d41b0c9e25f8a3316c2';
const ISO_UTC = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';

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

  it('should fail over from the failing provider, skip it once unhealthy, and print what docs/dispatching.md shows', async () => {
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

    // The crossings it caused, audited once each under the dispatcher's name.
    const actor = `dispatcher:${createHash('sha256').update(DISPATCHER_KEY).digest('hex').slice(0, 8)}`;
    const audit = await fetch(`${service.url}/api/v1/audit-events?limit=200`, { headers: { 'x-api-key': developmentAdminKey(dataDir) } });
    const dispatchEntries = ((await audit.json()).results.items as Array<{ action: string; actor: string }>)
      .filter((entry) => entry.actor === actor)
      .map((entry) => entry.action);
    expect(dispatchEntries.filter((action) => action !== 'sms-config.credentials-resolved').reverse()).toEqual([
      'sms-config.unhealthy',
      'sms-config.balance-low',
      'sms-config.balance-set',
    ]);
    // One resolution per configuration: the example keeps resolved credentials, as a dispatcher should.
    expect(dispatchEntries.filter((action) => action === 'sms-config.credentials-resolved')).toHaveLength(2);
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
