import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ScriptRun, UNCONFIGURED, developmentAdminKey, runScript, stepsOf } from '../helpers/doc-scripts';
import { ServiceProcess } from '../helpers/service-process';
import { ADMIN_API_KEY } from '../helpers/test-app';

const LIFECYCLE = 'scripts/lifecycle-walkthrough.sh';
const RUNBOOK = 'scripts/key-rotation-runbook.sh';
const REISSUE = 'scripts/reissue-verify-api-keys.sh';

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
      "Approve the provider's host (admin key): the dispatcher is offered only approved hosts (409: approved before)",
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
      approvedHost,
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

    expect(approvedHost).toEqual({
      status: 200,
      results: { providerHostId: expect.any(Number), host: 'api.twilio.com', note: 'Twilio', createdAt: expect.stringMatching(ISO_UTC) },
    });
    expect(addedConfig).toEqual({ status: 200, results: { verifyApiKey: expect.stringMatching(TOKEN) } });
    expect(listed).toEqual({ status: 200, results: [expect.objectContaining({ smsConfigId: expect.any(Number), senderId: 'ACME' })] });
    const smsConfigId = listed.results[0].smsConfigId as number;
    // The v1 read also shows lowBalanceThreshold, destinationApproved and destinationPrices, which the seed's list never does.
    expect(read).toMatchObject({
      status: 200,
      results: { ...listed.results[0], lowBalanceThreshold: null, destinationApproved: true, destinationPrices: null },
    });
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
      // Resolve never shows the prices (toEqual takes undefined as absent).
      results: { ...read.results, destinationPrices: undefined, senderId: 'ACME2', clientId, password: '(hidden)', apiKey: '(hidden)' },
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
    expect(previousRotating).toEqual({ status: 403, error: 'secretKey does not have the scope root' });

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
    'Check the admin key: a list of audit events (a key not in ADMIN_API_KEYS answers 401)',
    'Check the dispatcher key: a token that is no token answers 400 (a key not in DISPATCHER_API_KEYS answers 401)',
    'Rehearsal: add a client to rotate (admin key)',
    "Rehearsal: approve its provider's host (admin key): only approved hosts resolve (409: approved before)",
    "Rehearsal: give it an SMS configuration (secretKey): the answer's verifyApiKey is the dispatcher's token",
    'Routine 1. Rotate with the current key (secretKey): the new key works at once, the old one until previousKeyExpiresAt',
    'Routine 2. Deploy the new key to the caller, and check it: get client by secret key',
    'Routine 3. Re-issue every verifyApiKey with the new key, for the dispatcher: scripts/reissue-verify-api-keys.sh',
    'Meanwhile the old key still works, for the instances of the caller not moved yet',
    'Meanwhile the old verifyApiKey still resolves (dispatcher key), until the dispatcher has the re-issued one',
    'Routine 4. At previousKeyExpiresAt the old key stops: get client answers 404',
    'And so does the verifyApiKey it obtained (dispatcher key): 409, issued under a key that is no longer valid',
    'The re-issued verifyApiKey resolves (dispatcher key)',
    'Leaked 1. Find the client (admin key): by the start of its appName',
    'Leaked 2. Rotate it (admin key) with graceSeconds 0: the leaked key is revoked at once',
    'Leaked 3. The audit log shows the rotation (admin key): by whom, in which request',
    'Leaked 4. The leaked key is unknown: get client answers 404',
    'Leaked 5. A verifyApiKey obtained with the leaked key no longer resolves (dispatcher key): 409',
    "Leaked 6. The new key works: hand it to the client's owners",
    'Leaked 7. They re-issue every verifyApiKey with it, for the dispatcher: scripts/reissue-verify-api-keys.sh',
    'Rehearsal: delete the client (admin key)',
  ];

  /** The runbook's outcomes, whichever admin key it ran with. */
  function expectRunbookOutcomes(run: ScriptRun, adminKey: string, graceSeconds: number): void {
    expect(outcome(run)).toEqual({ code: 0, stderr: expect.any(String) });
    const steps = stepsOf(run.stdout);
    expect(steps.map(({ step }) => step)).toEqual(RUNBOOK_STEPS);
    const [
      adminCheck,
      dispatcherCheck,
      added,
      approvedHost,
      addedConfig,
      rotated,
      newServed,
      reissued,
      oldServed,
      oldTokenResolved,
      oldStopped,
      oldTokenRefused,
      reissuedResolved,
      found,
      revoked,
      audit,
      leakedUnknown,
      leakedTokenRefused,
      replacementServed,
      reissuedAgain,
      deleted,
    ] = steps.map(({ answer }) => answer);

    expect(adminCheck).toMatchObject({ status: 200, results: { items: expect.any(Array) } });
    expect(dispatcherCheck).toEqual({ status: 400, error: 'verifyApiKey is not valid' });

    const oldKey = added.results.secretKey as string;
    expect(oldKey).toMatch(SECRET_KEY);
    // Approved by an earlier run of the runbook on the same service, it is a 409 and the rehearsal goes on.
    expect(approvedHost.status === 200 ? approvedHost.results.host : approvedHost).toEqual(
      approvedHost.status === 200 ? 'sms.example.com' : { status: 409, error: 'host sms.example.com is already approved' },
    );
    expect(addedConfig).toEqual({ status: 200, results: { verifyApiKey: expect.stringMatching(TOKEN) } });
    const oldToken = addedConfig.results.verifyApiKey as string;
    expect(rotated).toEqual({
      status: 200,
      results: { secretKey: expect.stringMatching(SECRET_KEY), previousKeyExpiresAt: expect.stringMatching(ISO_UTC) },
    });
    const newKey = rotated.results.secretKey as string;
    const expiresAt = Date.parse(rotated.results.previousKeyExpiresAt);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() - 1000);
    expect(newServed).toMatchObject({ status: 200, results: { secretKey: newKey } });
    expect(reissued).toEqual([{ smsConfigId: expect.any(Number), verifyApiKey: expect.stringMatching(TOKEN) }]);
    const [{ smsConfigId, verifyApiKey: newToken }] = reissued as { smsConfigId: number; verifyApiKey: string }[];
    expect(newToken).not.toBe(oldToken);
    expect(oldServed).toMatchObject({ status: 200, results: { secretKey: oldKey } });
    // The dispatcher gets the configuration with both secrets; the runbook prints their names only.
    const resolvedConfig = {
      status: 200,
      results: expect.objectContaining({ smsConfigId, providerName: 'rehearsal', password: '(hidden)', apiKey: '(hidden)' }),
    };
    expect(oldTokenResolved).toEqual(resolvedConfig);
    expect(oldStopped).toEqual({ status: 404, error: 'No client matches the secretKey' });
    expect(oldTokenRefused).toEqual({ status: 409, error: 'verifyApiKey was issued under a secret key that is no longer valid' });
    expect(reissuedResolved).toEqual(resolvedConfig);
    expect(run.stdout).not.toContain('rehearsal-password');
    expect(run.stdout).not.toContain('rehearsal-api-key');

    expect(found.results.items).toEqual([
      expect.objectContaining({ appName: expect.stringMatching(/^key-rotation-/), secretKeyRotatedAt: expect.stringMatching(ISO_UTC) }),
    ]);
    const clientId = found.results.items[0].clientId as number;
    expect(oldTokenResolved.results.clientId).toBe(clientId);
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
    // The token re-issued under the key that then leaked: revoking the key cut it off.
    expect(leakedTokenRefused).toEqual({ status: 409, error: 'verifyApiKey was issued under a secret key that is no longer valid' });
    expect(replacementServed).toMatchObject({ status: 200, results: { secretKey: replacement } });
    expect(reissuedAgain).toEqual([{ smsConfigId, verifyApiKey: expect.stringMatching(TOKEN) }]);
    expect(reissuedAgain[0].verifyApiKey).not.toBe(newToken);
    expect(deleted).toEqual({ status: 200, results: { clientId, deleted: true } });
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
        // Long enough for the steps before the old key's last use on a machine busy with the other suites.
        GRACE_SECONDS: '6',
      });

      expectRunbookOutcomes(run, NEW_ADMIN_KEY, 6);
    }, 60_000);

    it('should stop at the dispatcher key check, 401, before adding anything, when DISPATCHER_KEY is not one of the service', async () => {
      const run = await runDocScript(RUNBOOK, {
        BASE_URL: service.url,
        ADMIN_KEY: NEW_ADMIN_KEY,
        DISPATCHER_KEY: 'not-a-dispatcher-key-of-this-service',
        GRACE_SECONDS: '3',
      });

      expect(run.code).not.toBe(0);
      const steps = stepsOf(run.stdout);
      expect(steps.map(({ step }) => step)).toEqual(RUNBOOK_STEPS.slice(0, 2));
      expect(steps[steps.length - 1].answer).toEqual({ status: 401, error: 'x-api-key is not valid' });
      expect(run.stderr).toContain('expected HTTP 400, got 401');
    }, 60_000);
  });
});

describe('Re-issuing verifyApiKeys (scripts/reissue-verify-api-keys.sh)', () => {
  let service: ServiceProcess;
  let secretKey: string;
  let smsConfigIds: number[];

  /** `bash scripts/reissue-verify-api-keys.sh` with only the variables it reads. */
  const runReissue = (env: Record<string, string | undefined>) =>
    runScript(REISSUE, { SECRET_KEY: undefined, BASE_URL: undefined, ...env });

  beforeAll(async () => {
    let dataDir: string;
    ({ service, dataDir } = await freshService());
    const added = await service.post('/api/client/add', {
      headers: { 'x-api-key': developmentAdminKey(dataDir) },
      body: { appName: `reissue-${Date.now()}`, appUrl: 'https://billing.example.com', isHost: false },
    });
    secretKey = added.body.results.secretKey as string;
    // Resolve answers only approved provider hosts.
    const approved = await service.post('/api/v1/provider-hosts', {
      headers: { 'x-api-key': developmentAdminKey(dataDir) },
      body: { host: '*.example.com' },
    });
    expect(approved.status).toBe(200);
    for (const providerName of ['first', 'second']) {
      const config = await service.post('/api/sms-config/add', {
        headers: { secretKey },
        body: { providerName, smsApi: `https://${providerName}.example.com/send`, password: `${providerName}-password`, apiKey: 'k3y' },
      });
      expect(config.status).toBe(200);
    }
    const listed = await service.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey } });
    smsConfigIds = listed.body.results.map(({ smsConfigId }: { smsConfigId: number }) => smsConfigId);
  });
  afterAll(() => service.stop());

  it('should print one line `<smsConfigId> <verifyApiKey>` per configuration, each resolving with a dispatcher key', async () => {
    const run = await runReissue({ SECRET_KEY: secretKey, BASE_URL: service.url });

    expect(outcome(run)).toEqual({ code: 0, stderr: 'reissue-verify-api-keys: 2 verifyApiKey(s) re-issued, one line each on stdout\n' });
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(' '));
    expect(lines).toEqual(smsConfigIds.map((id) => [String(id), expect.stringMatching(TOKEN)]));
    for (const [id, verifyApiKey] of lines) {
      const resolved = await service.post('/api/v1/sms-configs/resolve', {
        headers: { 'x-api-key': DISPATCHER_KEY },
        body: { verifyApiKey },
      });
      expect(resolved).toMatchObject({ status: 200, body: { results: { smsConfigId: Number(id), apiKey: 'k3y' } } });
    }
    expect(`${run.stdout}${run.stderr}`).not.toContain(secretKey);
  });

  it('should exit non-zero naming the 401, with nothing on stdout, when the secret key is unknown', async () => {
    const run = await runReissue({ SECRET_KEY: 'sk_not-a-key-of-this-service', BASE_URL: service.url });

    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'reissue-verify-api-keys: POST /api/sms-config/get-all-by-client-id answered HTTP 401: secretKey is not valid\n',
    );
  });

  it('should refuse to start without SECRET_KEY, saying what it needs', async () => {
    const run = await runReissue({ BASE_URL: service.url });

    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('set SECRET_KEY to the secret key of the client (after a rotation, the new one)');
  });
});

describe('The docs', () => {
  /** The scripts each doc shows whole, in the order it shows them. */
  const SHOWN: Record<string, string[]> = { 'docs/lifecycle.md': [LIFECYCLE], 'docs/key-rotation.md': [RUNBOOK, REISSUE] };

  /** Every script a doc shows whole: each ```bash block that starts with a shebang, without its fences. */
  function scriptsShownIn(text: string): string[] {
    const fence = '```bash\n#!/usr/bin/env bash\n';
    const shown: string[] = [];
    for (let start = text.indexOf(fence); start >= 0; start = text.indexOf(fence, start + 1)) {
      shown.push(text.slice(start + '```bash\n'.length, text.indexOf('\n```\n', start) + 1));
    }
    return shown;
  }

  it.each(Object.entries(SHOWN).flatMap(([doc, scripts]) => scripts.map((script) => [doc, script])))(
    '%s should show %s byte for byte, and say how to run it',
    (doc, script) => {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      const shown = scriptsShownIn(text);

      expect(shown).toHaveLength(SHOWN[doc].length);
      expect(shown[SHOWN[doc].indexOf(script)]).toBe(readFileSync(join(ROOT, script), 'utf8'));
      expect(text).toContain(`bash ${script}`);
      expect(text).toContain('DISPATCHER_API_KEYS');
    },
  );

  it('should be linked from the README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

    for (const doc of ['docs/lifecycle.md', 'docs/key-rotation.md', 'docs/key-retirement.md']) expect(readme).toContain(`](${doc})`);
  });
});
