import { ServiceProcess, sqliteDatabaseUrl } from '../helpers/service-process';
import { freePort } from '../helpers/free-port';

interface LogLine {
  level: number;
  msg: string;
  context?: string;
}

/** Every line the process wrote, each of which must be a JSON object. */
function jsonLines(service: ServiceProcess): LogLine[] {
  return service
    .logs()
    .filter((line) => line.length > 0)
    .map((line) => {
      const parsed = JSON.parse(line) as unknown;
      expect(parsed).toEqual(expect.objectContaining({ level: expect.any(Number), msg: expect.any(String) }));
      return parsed as LogLine;
    });
}

describe('A start that fails', () => {
  it('should say which variable is wrong in one JSON line, and exit 1', async () => {
    const service = ServiceProcess.spawn({ NODE_ENV: 'production', PORT: 'abc' });
    expect((await service.exited).code).toBe(1);
    expect(jsonLines(service)).toEqual([
      expect.objectContaining({ level: 60, context: 'Bootstrap', msg: expect.stringMatching(/^Invalid configuration: PORT must/) }),
    ]);
  });

  it('should refuse a short admin key and a patterned encryption key in production, naming the variable, without the key', async () => {
    const shortKey = ServiceProcess.spawn({ NODE_ENV: 'production', ADMIN_API_KEYS: 'admin-key-too-short' });
    expect((await shortKey.exited).code).toBe(1);
    expect(jsonLines(shortKey).map((line) => line.msg)).toEqual([
      'Invalid configuration: ADMIN_API_KEYS key #1 has fewer than 32 characters; generate one with `openssl rand -base64 32`',
    ]);
    expect(shortKey.logs().join('\n')).not.toContain('admin-key-too-short');

    const zeros = `zero:${Buffer.alloc(32).toString('base64')}`;
    const patterned = ServiceProcess.spawn({ NODE_ENV: 'production', ENCRYPTION_KEYS: zeros });
    expect((await patterned.exited).code).toBe(1);
    expect(jsonLines(patterned).map((line) => line.msg)).toEqual([
      'Invalid configuration: ENCRYPTION_KEYS key "zero" has too little entropy (repeated bytes); generate one with `openssl rand -base64 32`',
    ]);
  });

  it('should refuse TRUST_PROXY=true in production in one JSON line that says why', async () => {
    const service = ServiceProcess.spawn({ NODE_ENV: 'production', TRUST_PROXY: 'true' });
    expect((await service.exited).code).toBe(1);
    expect(jsonLines(service)).toEqual([
      expect.objectContaining({
        level: 60,
        context: 'Bootstrap',
        msg:
          'Invalid configuration: TRUST_PROXY=true is refused when NODE_ENV=production: it trusts every peer to name the caller in ' +
          'X-Forwarded-For, so any caller could choose the address the limits count; set the addresses or CIDRs of the load balancers',
      }),
    ]);
  });

  it('should refuse a TRUST_PROXY that trusts every address in one JSON line naming it, in any environment', async () => {
    for (const [NODE_ENV, TRUST_PROXY] of [
      ['test', '0.0.0.0/0'],
      ['production', '0.0.0.0/1,128.0.0.0/1'],
    ]) {
      const service = ServiceProcess.spawn({ NODE_ENV, TRUST_PROXY });
      expect((await service.exited).code).toBe(1);
      expect(jsonLines(service)).toEqual([
        expect.objectContaining({
          level: 60,
          context: 'Bootstrap',
          msg:
            `Invalid configuration: TRUST_PROXY entry #1 (${TRUST_PROXY.split(',')[0]}) trusts too many addresses: a prefix is /8 to ` +
            '/32 for IPv4, /7 to /128 for IPv6 (/104 to /128 for an IPv4-mapped one)',
        }),
      ]);
    }
  });

  it('should name the missing secrets of a production start', async () => {
    const service = ServiceProcess.spawn({ NODE_ENV: 'production', ADMIN_API_KEYS: '', ENCRYPTION_KEYS: '' });
    expect((await service.exited).code).toBe(1);
    expect(jsonLines(service).map((line) => line.msg)).toEqual([
      'Invalid configuration: ADMIN_API_KEYS and ENCRYPTION_KEYS must be set when NODE_ENV=production',
    ]);
  });

  it('should end, after its retries, with a line that names the database it cannot reach; every line JSON', async () => {
    const port = await freePort();
    const service = ServiceProcess.spawn({
      NODE_ENV: 'production',
      DATABASE_URL: `mysql://root:the-db-password@127.0.0.1:${port}/registry`,
    });
    expect((await service.exited).code).toBe(1);
    const lines = jsonLines(service);
    expect(lines.at(-1)).toEqual(
      expect.objectContaining({
        level: 60,
        context: 'Bootstrap',
        msg: `Cannot start: the database at 127.0.0.1:${port}/registry is unreachable (connect ECONNREFUSED 127.0.0.1:${port})`,
      }),
    );
    expect(service.logs().join('\n')).not.toContain('the-db-password');
  }, 40_000);
});

describe('Migrations as a step of their own (MIGRATE_ON_START=false, dist/migrate.js)', () => {
  it('should refuse to start on a schema behind it, apply the migrations with migrate.js, then start', async () => {
    const env = { DATABASE_URL: sqliteDatabaseUrl(), MIGRATE_ON_START: 'false' };
    const behind = ServiceProcess.spawn(env);
    expect((await behind.exited).code).toBe(1);
    expect(jsonLines(behind).at(-1)).toEqual(
      expect.objectContaining({
        level: 60,
        msg: expect.stringMatching(/^Cannot start: the database schema is behind this version: run its migrations first/),
      }),
    );

    const migrate = ServiceProcess.spawn(env, 'migrate.js');
    expect((await migrate.exited).code).toBe(0);
    expect(jsonLines(migrate).at(-1)).toEqual(
      expect.objectContaining({ context: 'Migrations', msg: expect.stringMatching(/^Applied CreateClientAndSmsConfig1732240000000, /) }),
    );
    const again = ServiceProcess.spawn(env, 'migrate.js');
    expect((await again.exited).code).toBe(0);
    expect(jsonLines(again).at(-1)).toEqual(expect.objectContaining({ msg: 'The schema is up to date' }));

    const service = await ServiceProcess.start(env);
    try {
      expect((await service.request('GET', '/health')).status).toBe(200);
    } finally {
      await service.stop();
    }
  });
});

describe('A start that succeeds', () => {
  it.each([['127.0.0.1'], ['0.0.0.0']])('should say the address it actually bound (HOST=%s, PORT=0)', async (host) => {
    const service = await ServiceProcess.start({ HOST: host, PORT: '0', NODE_ENV: 'staging' });
    try {
      const listening = jsonLines(service).find((line) => line.msg.startsWith('Listening on '));
      expect(listening?.msg).toMatch(new RegExp(`^Listening on http://${host.replace(/\./g, '\\.')}:[1-9][0-9]*$`));
      expect((await service.request('GET', '/health')).status).toBe(200);
    } finally {
      await service.stop();
    }
  });
});
