import CLIENT from '../fixtures/client.json';
import SMS_CONFIG from '../fixtures/sms-config.json';
import { PREVIOUS_RELEASE, builtRelease } from '../helpers/previous-release';
import { ServiceProcess, emptyMysqlDatabase, msUntil } from '../helpers/service-process';
import { ADMIN_API_KEY } from '../helpers/test-app';

const ADMIN = { 'x-api-key': ADMIN_API_KEY };

/**
 * A rolling deploy: this release has migrated the database and serves beside the release before it, which keeps
 * serving on the migrated schema until its last instance is replaced.
 */
describe(`A rolling deploy from ${PREVIOUS_RELEASE}: both releases on one migrated MySQL database`, () => {
  let current: ServiceProcess;
  let previous: ServiceProcess;

  beforeAll(async () => {
    const previousDist = builtRelease(PREVIOUS_RELEASE);
    const env = { DATABASE_URL: await emptyMysqlDatabase('rolling_deploy') };
    current = await ServiceProcess.start(env);
    previous = await ServiceProcess.start(env, 30_000, { dist: previousDist });
  }, 240_000);
  afterAll(async () => {
    await previous?.stop();
    await current?.stop();
  });

  const addClientThrough = async (instance: ServiceProcess, appName: string) => {
    const added = await instance.request('POST', '/api/client/add', { headers: ADMIN, body: { ...CLIENT, appName } });
    expect(added.status).toBe(200);
    return added.body.results.secretKey as string;
  };
  const getClientThrough = (instance: ServiceProcess, secretKey: string) =>
    instance.request('POST', '/api/client/get/secretKey', { headers: { secretKey } });

  it('should let root keys made by either release work on both', async () => {
    const madeByCurrent = await addClientThrough(current, 'made-by-current');
    const madeByPrevious = await addClientThrough(previous, 'made-by-previous');
    for (const instance of [current, previous]) {
      for (const secretKey of [madeByCurrent, madeByPrevious]) {
        const answer = await getClientThrough(instance, secretKey);
        expect({ status: answer.status, secretKey: answer.body.results?.secretKey }).toEqual({ status: 200, secretKey });
      }
    }
  });

  it('should serve a scoped key on this release only: the release before refuses it as it refuses any other shape', async () => {
    const rootKey = await addClientThrough(current, 'scoped-during-deploy');
    const made = await current.request('POST', '/api/v1/client/keys', {
      headers: { secretKey: rootKey },
      body: { name: 'reader', scopes: ['client:read'] },
    });
    expect(made.status).toBe(200);
    const scopedKey = made.body.results.secretKey as string;
    expect((await getClientThrough(current, scopedKey)).status).toBe(200);
    // Why the upgrade note says to make scoped keys once every instance runs this release.
    expect((await getClientThrough(previous, scopedKey)).body).toEqual({ status: 404, error: 'No client matches the secretKey' });
  });

  it('should show a configuration one release adds to a client through the other, by its root key', async () => {
    const rootKey = await addClientThrough(current, 'configured-during-deploy');
    expect((await getClientThrough(current, rootKey)).body.results.smsConfig).toBeNull();
    expect((await previous.request('POST', '/api/sms-config/add', { headers: { secretKey: rootKey }, body: SMS_CONFIG })).status).toBe(200);
    const shown = async () => ((await getClientThrough(current, rootKey)).body.results.smsConfig ?? []).length === 1;
    expect(await msUntil(shown, 3000)).toBeLessThan(1000);
  });
});
