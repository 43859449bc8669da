import { DataSource } from 'typeorm';
import { sha256Hex } from '../../src/auth/digest';
import { epochMsOf } from '../../src/database/timestamps';
import { ServiceProcess, emptyMysqlDatabase, sqliteDatabaseUrl } from '../helpers/service-process';

/** A second connection to the service's database, to read what it wrote. */
function readerOf(databaseUrl: string): DataSource {
  return databaseUrl.startsWith('sqlite:')
    ? new DataSource({ type: 'better-sqlite3', database: databaseUrl.slice('sqlite:'.length) })
    : new DataSource({ type: 'mysql', url: databaseUrl, timezone: 'Z' });
}

/**
 * SIGTERM writes the last uses noted since the last flush: with an interval far longer than the test, the only write is
 * the one at shutdown.
 */
describe.each([
  ['MySQL', () => emptyMysqlDatabase('key_usage_shutdown')],
  ['SQLite', () => Promise.resolve(sqliteDatabaseUrl())],
])('Key usage at shutdown (the built service, %s)', (_dialect, databaseUrlFor) => {
  let service: ServiceProcess;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await databaseUrlFor();
    service = await ServiceProcess.start({ DATABASE_URL: databaseUrl, KEY_USAGE_FLUSH_MS: '600000', SHUTDOWN_DELAY_MS: '100' });
  });
  afterAll(() => service?.stop());

  it('should write every key used since the last flush when it is stopped with SIGTERM, and exit 0', async () => {
    const secretKeys = [await service.addClient(), await service.addClient()];
    const usedAt = Date.now();
    for (const secretKey of secretKeys) {
      expect((await service.post('/api/client/get/secretKey', { headers: { secretKey } })).status).toBe(200);
    }
    const database = readerOf(databaseUrl);
    await database.initialize();
    try {
      const lastUses = () =>
        database.query<Array<{ digest: string; lastUsedAt: Date | string | null }>>(
          'SELECT secret_key_digest AS digest, secret_key_last_used_at AS lastUsedAt FROM client',
        );
      expect((await lastUses()).map(({ lastUsedAt }) => lastUsedAt)).toEqual([null, null]);

      service.kill('SIGTERM');
      expect(await service.exited).toEqual({ code: 0, signal: null });
      const written = await lastUses();
      expect(written.map(({ digest }) => digest).sort()).toEqual(secretKeys.map(sha256Hex).sort());
      for (const { lastUsedAt } of written) {
        expect(epochMsOf(lastUsedAt)).toBeGreaterThanOrEqual(usedAt - 5);
        expect(epochMsOf(lastUsedAt)).toBeLessThanOrEqual(Date.now());
      }
    } finally {
      await database.destroy();
    }
  });
});
