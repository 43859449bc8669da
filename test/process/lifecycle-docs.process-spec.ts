import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ScriptRun, UNCONFIGURED, developmentAdminKey, runScript, stepsOf } from '../helpers/doc-scripts';
import { ServiceProcess } from '../helpers/service-process';
import { ADMIN_API_KEY } from '../helpers/test-app';

const LIFECYCLE = 'scripts/lifecycle-walkthrough.sh';
const RUNBOOK = 'scripts/key-rotation-runbook.sh';

/** What the service is started with in DISPATCHER_API_KEYS and the scripts are given as DISPATCHER_KEY. */
const DISPATCHER_KEY = 'docs-dispatcher-key-5c2e8a1f9b7d3064e0a1';

const SECRET_KEY = /^sk_[A-Za-z0-9_-]{43}$/;
const TOKEN = /^[A-Za-z0-9_-]{64,}$/;
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** `bash <script>` without the keys a test does not give it, whatever the environment running the tests holds. */
const runDocScript = (script: string, env: Record<string, string | undefined>) =>
  runScript(script, { DISPATCHER_KEY: undefined, ADMIN_KEY: undefined, ...env });

/** How the audit log names the holder of a key: the first 8 hex digits of its SHA-256. */
const actorOf = (role: 'admin' | 'dispatcher', key: string) => `${role}:${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;

/** The exit code with stderr beside it, so that a failing run shows why. */
const outcome = (run: ScriptRun) => ({ code: run.code, stderr: run.stderr });

/** A fresh service as `npm start` runs it on a new clone, with a dispatcher key configured. */
async function freshService(): Promise<{ service: ServiceProcess; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-lifecycle-docs-'));
  const service = await ServiceProcess.start({ ...UNCONFIGURED, DATA_DIR: dataDir, DISPATCHER_API_KEYS: DISPATCHER_KEY });
  return { service, dataDir };
}

describe('The lifecycle walkthrough (scripts/lifecycle-walkthrough.sh)', () => {
  let service: ServiceProcess;
  let dataDir: string;

  beforeAll(async () => ({ service, dataDir } = await freshService()));
  afterAll(() => service.stop());

  it('should take a client and its SMS configuration through every step against a fresh start, and exit 0', async () => {
    const run = await runDocScript(LIFECYCLE, { DATA_DIR: dataDir, BASE_URL: service.url, DISPATCHER_KEY });

    expect(outcome(run)).toEqual({ code: 0, stderr: expect.any(String) });
    const steps = stepsOf(run.stdout);
    expect(steps.map(({ step }) => step)).toEqual([
      'Add client (admin key): answers its secretKey, the only time the key is ever shown',
      'Find it (admin key): clients whose appName starts with the one given, a page of {items, nextCursor}',
      'Change it (admin key): only the fields sent; answers the client as stored',
      'Disable it (admin key): isActive false',
      'Its key is refused on every route (secretKey): 403 Client is disabled',
      'Enable it (admin key): isActive true',
      'Its key works again: get client by secret key',
      'Add SMS configuration (secretKey): password and apiKey are sealed; answers a verifyApiKey for the dispatcher',
      "List the client's SMS configurations (secretKey): each with its smsConfigId",
      'Read it (secretKey): never the password or apiKey',
      'Change it (secretKey): a new apiKey replaces the sealed one; answers the configuration and a fresh verifyApiKey',
      'Resolve the first verifyApiKey (dispatcher key): 409, stale since the apiKey was replaced',
      'Issue a fresh verifyApiKey (secretKey): nothing stored changes',
      'Resolve it (dispatcher key): the configuration with its password and apiKey (their values hidden here)',
      'Resolve it with the admin key: 403, only a dispatcher key may',
      'Rotate the secret key (secretKey): the new key works at once, the previous one until previousKeyExpiresAt',
      'The previous key still opens the client until then',
      'But it may not rotate: 403, only the current key may',
      'Delete the SMS configuration (secretKey)',
      'Resolve its verifyApiKey (dispatcher key): 404, the configuration is gone',
      'Delete the client (admin key): with any configurations it still has',
      'Its current key is unknown: get client answers 404',
      'So is its previous key',
      'The audit log keeps every change (admin key): newest first, the names of the fields changed, never a value',
    ]);
    const [
      added,
      found,
      changed,
      disabled,
      refused,
      enabled,
      servedAgain,
      addedConfig,
      listed,
      read,
      changedConfig,
      stale,
      reissued,
      resolved,
      adminResolving,
      rotated,
      previousServed,
      previousRotating,
      deletedConfig,
      resolvingDeleted,
      deletedClient,
      currentUnknown,
      previousUnknown,
      audit,
    ] = steps.map(({ answer }) => answer);

    expect(added).toMatchObject({ status: 200, results: { secretKey: expect.stringMatching(SECRET_KEY), smsConfig: null } });
    const firstKey = added.results.secretKey as string;
    expect(found.results).toEqual({
      items: [expect.objectContaining({ clientId: expect.any(Number), appName: expect.stringMatching(/^lifecycle-/), isActive: true })],
      nextCursor: null,
    });
    const clientId = found.results.items[0].clientId as number;
    expect(changed).toMatchObject({
      status: 200,
      results: { clientId, appDescription: 'Invoices and reminders', preferredSmsGateway: 'twilio', isActive: true },
    });
    expect(disabled).toMatchObject({ status: 200, results: { clientId, isActive: false } });
    expect(refused).toEqual({ status: 403, error: 'Client is disabled' });
    expect(enabled).toMatchObject({ status: 200, results: { clientId, isActive: true } });
    expect(servedAgain).toMatchObject({ status: 200, results: { secretKey: firstKey, appDescription: 'Invoices and reminders' } });

    expect(addedConfig).toEqual({ status: 200, results: { verifyApiKey: expect.stringMatching(TOKEN) } });
    expect(listed).toEqual({ status: 200, results: [expect.objectContaining({ smsConfigId: expect.any(Number), senderId: 'ACME' })] });
    const smsConfigId = listed.results[0].smsConfigId as number;
    expect(read).toEqual({ status: 200, results: listed.results[0] });
    expect(read.results).not.toHaveProperty('password');
    expect(read.results).not.toHaveProperty('apiKey');
    expect(changedConfig).toEqual({
      status: 200,
      results: { ...read.results, senderId: 'ACME2', verifyApiKey: expect.stringMatching(TOKEN) },
    });
    expect(stale).toEqual({ status: 409, error: 'verifyApiKey is stale' });
    expect(reissued).toEqual({ status: 200, results: { verifyApiKey: expect.stringMatching(TOKEN) } });
    // The dispatcher gets both secrets; the script prints their names only.
    expect(resolved).toEqual({
      status: 200,
      results: { ...read.results, senderId: 'ACME2', clientId, password: '(hidden)', apiKey: '(hidden)' },
    });
    expect(run.stdout).not.toContain('"p4ss"');
    expect(run.stdout).not.toContain('"k3y-2"');
    expect(adminResolving).toEqual({ status: 403, error: 'x-api-key is an admin key; only a dispatcher key may resolve credentials' });

    expect(rotated).toEqual({
      status: 200,
      results: { secretKey: expect.stringMatching(SECRET_KEY), previousKeyExpiresAt: expect.stringMatching(ISO_UTC) },
    });
    expect(rotated.results.secretKey).not.toBe(firstKey);
    expect(Date.parse(rotated.results.previousKeyExpiresAt) - Date.now()).toBeGreaterThan(3_500_000);
    expect(previousServed).toMatchObject({ status: 200, results: { secretKey: firstKey } });
    expect(previousRotating).toEqual({ status: 403, error: 'Only the current secretKey may rotate; this is the previous one' });

    expect(deletedConfig).toEqual({ status: 200, results: { smsConfigId, deleted: true } });
    expect(resolvingDeleted).toEqual({ status: 404, error: 'SMS configuration not found' });
    expect(deletedClient).toEqual({ status: 200, results: { clientId, deleted: true } });
    expect(currentUnknown).toEqual({ status: 404, error: 'No client matches the secretKey' });
    expect(previousUnknown).toEqual({ status: 404, error: 'No client matches the secretKey' });

    const admin = actorOf('admin', developmentAdminKey(dataDir));
    const client = `client:${clientId}`;
    expect(audit.results.nextCursor).toBeNull();
    expect(audit.results.items.map(({ action, actor, changed }: any) => ({ action, actor, changed }))).toEqual([
      { action: 'client.deleted', actor: admin, changed: [] },
      { action: 'sms-config.deleted', actor: client, changed: [] },
      { action: 'client.secret-key.rotated', actor: client, changed: ['secretKey'] },
      { action: 'sms-config.credentials-resolved', actor: actorOf('dispatcher', DISPATCHER_KEY), changed: [] },
      { action: 'sms-config.updated', actor: client, changed: expect.arrayContaining(['apiKey', 'senderId']) },
      { action: 'sms-config.created', actor: client, changed: [] },
      { action: 'client.enabled', actor: admin, changed: ['isActive'] },
      { action: 'client.disabled', actor: admin, changed: ['isActive'] },
      { action: 'client.updated', actor: admin, changed: expect.arrayContaining(['appDescription', 'preferredSmsGateway']) },
      { action: 'client.created', actor: admin, changed: [] },
    ]);
    expect(audit.results.items.find(({ action }: any) => action === 'sms-config.updated').changed).toHaveLength(2);
  });

  it('should never print the admin key or the dispatcher key', async () => {
    const run = await runDocScript(LIFECYCLE, { DATA_DIR: dataDir, BASE_URL: service.url, DISPATCHER_KEY });

    expect(outcome(run)).toEqual({ code: 0, stderr: expect.any(String) });
    expect(`${run.stdout}${run.stderr}`).not.toContain(developmentAdminKey(dataDir));
    expect(`${run.stdout}${run.stderr}`).not.toContain(DISPATCHER_KEY);
  });

  it('should stop at the first answer it did not expect, with that answer, and exit non-zero', async () => {
    const run = await runDocScript(LIFECYCLE, {
      DATA_DIR: dataDir,
      BASE_URL: service.url,
      DISPATCHER_KEY: 'not-a-dispatcher-key-of-this-service',
    });

    expect(run.code).not.toBe(0);
    const steps = stepsOf(run.stdout);
    expect(steps[steps.length - 1]).toEqual({
      step: 'Resolve the first verifyApiKey (dispatcher key): 409, stale since the apiKey was replaced',
      answer: { status: 401, error: 'x-api-key is not valid' },
    });
    expect(run.stderr).toContain('expected HTTP 409, got 401');
  });

  it('should refuse to start without DISPATCHER_KEY, saying what it needs', async () => {
    const run = await runDocScript(LIFECYCLE, { DATA_DIR: dataDir, BASE_URL: service.url });

    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('set DISPATCHER_KEY to a key the service was started with in DISPATCHER_API_KEYS');
  });
});

describe('The key-rotation runbook (scripts/key-rotation-runbook.sh)', () => {
  const RUNBOOK_STEPS = [
    'Rehearsal: add a client to rotate (admin key)',
    'Routine 1. Rotate with the current key (secretKey): the new key works at once, the old one until previousKeyExpiresAt',
    'Routine 2. Deploy the new key to the caller, and check it: get client by secret key',
    'Meanwhile the old key still works, for the instances of the caller not moved yet',
    'Routine 3. At previousKeyExpiresAt the old key stops: get client answers 404',
    'Leaked 1. Find the client (admin key): by the start of its appName',
    'Leaked 2. Rotate it (admin key) with graceSeconds 0: the leaked key is revoked at once',
    'Leaked 3. The audit log shows the rotation (admin key): by whom, in which request',
    'Leaked 4. The leaked key is unknown: get client answers 404',
    "Leaked 5. The new key works: hand it to the client's owners",
    'Rehearsal: delete the client (admin key)',
    'Check the admin key: a list of audit events (a key not in ADMIN_API_KEYS answers 401)',
    'Check the dispatcher key: a token that is no token answers 400 (a key not in DISPATCHER_API_KEYS answers 401)',
  ];

  /** The runbook's outcomes, whichever admin key it ran with. */
  function expectRunbookOutcomes(run: ScriptRun, adminKey: string, graceSeconds: number): void {
    expect(outcome(run)).toEqual({ code: 0, stderr: expect.any(String) });
    const steps = stepsOf(run.stdout);
    expect(steps.map(({ step }) => step)).toEqual(RUNBOOK_STEPS);
    const [
      added,
      rotated,
      newServed,
      oldServed,
      oldStopped,
      found,
      revoked,
      audit,
      leakedUnknown,
      replacementServed,
      deleted,
      adminCheck,
      dispatcherCheck,
    ] = steps.map(({ answer }) => answer);

    const oldKey = added.results.secretKey as string;
    expect(oldKey).toMatch(SECRET_KEY);
    expect(rotated).toEqual({
      status: 200,
      results: { secretKey: expect.stringMatching(SECRET_KEY), previousKeyExpiresAt: expect.stringMatching(ISO_UTC) },
    });
    const newKey = rotated.results.secretKey as string;
    const expiresAt = Date.parse(rotated.results.previousKeyExpiresAt);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() - 1000);
    expect(newServed).toMatchObject({ status: 200, results: { secretKey: newKey } });
    expect(oldServed).toMatchObject({ status: 200, results: { secretKey: oldKey } });
    expect(oldStopped).toEqual({ status: 404, error: 'No client matches the secretKey' });

    expect(found.results.items).toEqual([
      expect.objectContaining({ appName: expect.stringMatching(/^key-rotation-/), secretKeyRotatedAt: expect.stringMatching(ISO_UTC) }),
    ]);
    const clientId = found.results.items[0].clientId as number;
    // The grace period the runbook asked for: rotated at, plus GRACE_SECONDS.
    expect(Math.abs(expiresAt - graceSeconds * 1000 - Date.parse(found.results.items[0].secretKeyRotatedAt))).toBeLessThan(1000);
    expect(revoked).toEqual({ status: 200, results: { secretKey: expect.stringMatching(SECRET_KEY), previousKeyExpiresAt: null } });
    const replacement = revoked.results.secretKey as string;
    expect(replacement).not.toBe(newKey);
    expect(audit.results.items).toEqual([
      expect.objectContaining({
        action: 'client.secret-key.rotated',
        actor: actorOf('admin', adminKey),
        clientId,
        requestId: expect.any(String),
        changed: ['secretKey'],
      }),
    ]);
    expect(leakedUnknown).toEqual({ status: 404, error: 'No client matches the secretKey' });
    expect(replacementServed).toMatchObject({ status: 200, results: { secretKey: replacement } });
    expect(deleted).toEqual({ status: 200, results: { clientId, deleted: true } });
    expect(adminCheck).toMatchObject({
      status: 200,
      results: { items: [expect.objectContaining({ action: 'client.deleted', clientId })] },
    });
    expect(dispatcherCheck).toEqual({ status: 400, error: 'verifyApiKey is not valid' });
    expect(`${run.stdout}${run.stderr}`).not.toContain(adminKey);
  }

  describe('against a fresh start', () => {
    let service: ServiceProcess;
    let dataDir: string;

    beforeAll(async () => ({ service, dataDir } = await freshService()));
    afterAll(() => service.stop());

    it('should rotate with a grace period, revoke a leaked key at once, check both keys, and exit 0', async () => {
      const run = await runDocScript(RUNBOOK, { DATA_DIR: dataDir, BASE_URL: service.url, DISPATCHER_KEY });

      expectRunbookOutcomes(run, developmentAdminKey(dataDir), 5);
    }, 60_000);
  });

  describe('halfway through rotating the admin and dispatcher keys (new and old keys listed)', () => {
    const NEW_ADMIN_KEY = 'docs-new-admin-key-0b6d2f7a9c1e4835';
    const NEW_DISPATCHER_KEY = 'docs-new-dispatcher-key-e3a90c5b7f21d648';
    let service: ServiceProcess;

    beforeAll(async () => {
      service = await ServiceProcess.start({
        ADMIN_API_KEYS: `${NEW_ADMIN_KEY},${ADMIN_API_KEY}`,
        DISPATCHER_API_KEYS: `${NEW_DISPATCHER_KEY},${DISPATCHER_KEY}`,
        DATABASE_URL: undefined,
      });
    });
    afterAll(() => service.stop());

    it('should run the whole runbook with the new keys given as ADMIN_KEY and DISPATCHER_KEY', async () => {
      const run = await runDocScript(RUNBOOK, {
        BASE_URL: service.url,
        ADMIN_KEY: NEW_ADMIN_KEY,
        DISPATCHER_KEY: NEW_DISPATCHER_KEY,
        GRACE_SECONDS: '1',
      });

      expectRunbookOutcomes(run, NEW_ADMIN_KEY, 1);
    }, 60_000);

    it('should stop at the dispatcher key check, 401, when DISPATCHER_KEY is not one of the service', async () => {
      const run = await runDocScript(RUNBOOK, {
        BASE_URL: service.url,
        ADMIN_KEY: NEW_ADMIN_KEY,
        DISPATCHER_KEY: 'not-a-dispatcher-key-of-this-service',
        GRACE_SECONDS: '1',
      });

      expect(run.code).not.toBe(0);
      const steps = stepsOf(run.stdout);
      expect(steps.map(({ step }) => step)).toEqual(RUNBOOK_STEPS);
      expect(steps[steps.length - 1].answer).toEqual({ status: 401, error: 'x-api-key is not valid' });
      expect(run.stderr).toContain('expected HTTP 400, got 401');
    }, 60_000);
  });
});

describe('The docs', () => {
  it.each([
    ['docs/lifecycle.md', LIFECYCLE],
    ['docs/key-rotation.md', RUNBOOK],
  ])('%s should show %s byte for byte, and say how to run it', (doc, script) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    const start = text.indexOf('```bash\n#!/usr/bin/env bash\n');
    expect(start).toBeGreaterThanOrEqual(0);
    const shown = text.slice(start + '```bash\n'.length, text.indexOf('\n```\n', start) + 1);

    expect(shown).toBe(readFileSync(join(ROOT, script), 'utf8'));
    expect(text.indexOf('```bash\n#!/usr/bin/env bash\n', start + 1)).toBe(-1);
    expect(text).toContain(`bash ${script}`);
    expect(text).toContain('DISPATCHER_API_KEYS');
  });

  it('should be linked from the README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

    for (const doc of ['docs/lifecycle.md', 'docs/key-rotation.md', 'docs/key-retirement.md']) expect(readme).toContain(`](${doc})`);
  });
});
