import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import CLIENT from '../fixtures/client.json';
import { ServiceProcess } from '../helpers/service-process';
import { freePort } from '../helpers/free-port';

function directoryWithDotEnv(lines: string[]): string {
  const directory = mkdtempSync(join(tmpdir(), 'registry-dotenv-'));
  writeFileSync(join(directory, '.env'), `${lines.join('\n')}\n`);
  return directory;
}

/** PORT and HOST left out of the child's environment, so only .env can set them. */
const NO_ADDRESS = { PORT: undefined, HOST: undefined };

describe('A .env file in the directory the service starts from', () => {
  let service: ServiceProcess | undefined;
  afterEach(() => service?.stop());

  it('should configure the service: it listens on the PORT and HOST of .env', async () => {
    const port = await freePort();
    service = await ServiceProcess.start(NO_ADDRESS, 30000, { cwd: directoryWithDotEnv([`PORT=${port}`, 'HOST=127.0.0.1']) });

    expect(service.url).toBe(`http://127.0.0.1:${port}`);
    expect((await service.request('GET', '/health')).status).toBe(200);
  });

  it('should yield to a variable of the real environment', async () => {
    const [fromFile, fromEnvironment] = [await freePort(), await freePort()];
    const cwd = directoryWithDotEnv([`PORT=${fromFile}`, 'HOST=127.0.0.1']);
    service = await ServiceProcess.start({ ...NO_ADDRESS, PORT: String(fromEnvironment) }, 30000, { cwd });

    expect(service.url).toBe(`http://127.0.0.1:${fromEnvironment}`);
  });

  it('should take an admin key from .env and never log it', async () => {
    const adminKey = 'dotenv-admin-key-7c41e09b5a2f86d3e1';
    service = await ServiceProcess.start({ ADMIN_API_KEYS: undefined }, 30000, {
      cwd: directoryWithDotEnv([`ADMIN_API_KEYS=${adminKey}`]),
    });

    const created = await service.post('/api/client/add', { headers: { 'x-api-key': adminKey }, body: CLIENT });
    expect(created.status).toBe(200);
    expect(service.logs().join('\n')).not.toContain(adminKey);
  });

  it('should configure the migrate step too (node dist/migrate.js)', async () => {
    const databaseDirectory = mkdtempSync(join(tmpdir(), 'registry-dotenv-db-'));
    const database = join(databaseDirectory, 'from-dotenv.sqlite');
    const migrate = ServiceProcess.spawn({ DATABASE_URL: undefined }, 'migrate.js', {
      cwd: directoryWithDotEnv([`DATABASE_URL=sqlite:${database}`]),
    });

    expect(await migrate.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(database)).toBe(true);
    expect(migrate.logs().some((line) => line.includes('Applied'))).toBe(true);
  });
});
