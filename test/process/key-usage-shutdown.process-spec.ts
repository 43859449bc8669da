import { DataSource } from 'typeorm';
import { sha256Hex } from '../../src/auth/digest';
import { ServiceProcess, emptyMysqlDatabase } from '../helpers/service-process';

/**
 * SIGTERM writes the last uses noted since the last flush: with an interval far longer than the test, the only write is
 * the one at shutdown.
 */
describe('Key usage at shutdown (the built service)', () => {
  let service: ServiceProcess;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await emptyMysqlDatabase('key_usage_shutdown');
    service = await ServiceProcess.start({ DATABASE_URL: databaseUrl, KEY_USAGE_FLUSH_MS: '600000', SHUTDOWN_DELAY_MS: '100' });
  });
  afterAll(() => service?.stop());

  it('should write every key used since the last flush when it is stopped with SIGTERM, and exit 0', async () => {
    const secretKeys = [await service.addClient(), await service.addClient()];
    const usedAt = Date.now();
    for (const secretKey of secretKeys) {
      expect((await service.post('/api/client/get/secretKey', { headers: { secretKey } })).status).toBe(200);
    }
    const database = new DataSource({ type: 'mysql', url: databaseUrl, timezone: 'Z' });
    await database.initialize();
    try {
      const lastUses = () =>
        database.query<Array<{ digest: string; lastUsedAt: Date | null }>>(
          'SELECT secret_key_digest AS digest, secret_key_last_used_at AS lastUsedAt FROM client',
        );
      expect((await lastUses()).map(({ lastUsedAt }) => lastUsedAt)).toEqual([null, null]);

      service.kill('SIGTERM');
      expect(await service.exited).toEqual({ code: 0, signal: null });
      const written = await lastUses();
      expect(written.map(({ digest }) => digest).sort()).toEqual(secretKeys.map(sha256Hex).sort());
      for (const { lastUsedAt } of written) {
        expect(lastUsedAt!.getTime()).toBeGreaterThanOrEqual(usedAt - 5);
        expect(lastUsedAt!.getTime()).toBeLessThanOrEqual(Date.now());
      }
    } finally {
      await database.destroy();
    }
  });
});
