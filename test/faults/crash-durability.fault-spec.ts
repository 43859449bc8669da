import { ADMIN_API_KEY } from '../helpers/test-app';
import { ServiceProcess, emptyMysqlDatabase, report, sleep, sqliteDatabaseUrl } from '../helpers/service-process';

jest.setTimeout(90000);

const WRITERS = 16;

/**
 * kill -9 in the middle of a burst of writes: everything answered 200 must be there after a restart
 * (committed before the answer, nothing acknowledged from memory only).
 */
describe.each([
  ['MySQL', () => emptyMysqlDatabase('crash')],
  ['SQLite', () => Promise.resolve(sqliteDatabaseUrl())],
])('Crash durability on %s', (_name, databaseUrl) => {
  it('should keep every acknowledged client and SMS configuration after kill -9 mid-burst', async () => {
    const url = await databaseUrl();
    let service = await ServiceProcess.start({ DATABASE_URL: url });
    // Each writer adds SMS configurations to a client of its own, so none reaches the 100 cap during the burst.
    const owners = await Promise.all(Array.from({ length: WRITERS }, (_, index) => service.addClient({ appName: `owner-${index}` })));

    const acknowledgedClients: string[] = [];
    const acknowledgedConfigs: Array<{ owner: string; providerName: string }> = [];
    let failures = 0;
    let stop = false;
    const writer = async (index: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        try {
          if (i % 2 === 0) {
            const answer = await service.post('/api/client/add', {
              headers: { 'x-api-key': ADMIN_API_KEY },
              body: { appName: `crash-${index}-${i}`, appUrl: 'https://crash.example.com', isHost: false },
            });
            if (answer.status === 200) acknowledgedClients.push(answer.body.results.secretKey);
          } else {
            const providerName = `p-${index}-${i}`;
            const answer = await service.post('/api/sms-config/add', {
              headers: { secretKey: owners[index] },
              body: { providerName, smsApi: 'https://s.example.com' },
            });
            if (answer.status === 200) acknowledgedConfigs.push({ owner: owners[index], providerName });
          }
        } catch {
          // The connection died with the process: this write was never acknowledged.
          failures++;
          return;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
    // Let the burst run, then kill while writes are certainly in flight.
    while (acknowledgedClients.length < 150) await sleep(10);
    service.kill('SIGKILL');
    const killedAt = Date.now();
    await service.exited;
    stop = true;
    await Promise.all(writers);
    expect(failures).toBeGreaterThan(0);

    const clients = [...acknowledgedClients];
    const configs = [...acknowledgedConfigs];
    service = await ServiceProcess.start({ DATABASE_URL: url });
    const restartedAfter = Date.now() - killedAt;
    try {
      const missing: string[] = [];
      for (let i = 0; i < clients.length; i += 25) {
        const answers = await Promise.all(
          clients.slice(i, i + 25).map((secretKey) => service.post('/api/client/get/secretKey', { headers: { secretKey } })),
        );
        answers.forEach((answer, j) => answer.status !== 200 && missing.push(clients[i + j]));
      }
      expect(missing).toEqual([]);
      const stored = new Set<string>();
      for (const owner of owners) {
        const listed = await service.post('/api/sms-config/get-all-by-client-id', { headers: { secretKey: owner } });
        for (const config of listed.body.results as Array<{ providerName: string }>) stored.add(config.providerName);
      }
      expect(configs.filter(({ providerName }) => !stored.has(providerName))).toEqual([]);
      report(`kill -9 mid-burst (${_name})`, {
        'acknowledged clients': String(clients.length),
        'acknowledged SMS configurations': String(configs.length),
        'writes cut off': String(failures),
        'restart to ready': restartedAfter,
      });
    } finally {
      await service.stop();
    }
  });
});
