import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadAppConfig } from './load-app-config';
import { ConfigurationError } from './environment';

/** 32 distinct bytes: a key a production start accepts. */
const ENCRYPTION_KEYS = `kid1:${Buffer.from(Array.from({ length: 32 }, (_, index) => index * 7)).toString('base64')}`;
const ADMIN_API_KEY = 'admin-key-of-thirty-two-characters!';

describe('loadAppConfig', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'app-config-spec-'));
  });

  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** An environment with every secret set, so nothing is generated unless a test removes one. */
  function env(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
    return { DATA_DIR: dataDir, ADMIN_API_KEYS: ADMIN_API_KEY, ENCRYPTION_KEYS, ...overrides };
  }

  function configurationErrorOf(environment: NodeJS.ProcessEnv): ConfigurationError {
    try {
      loadAppConfig(environment);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return error as ConfigurationError;
    }
    throw new Error('loadAppConfig did not throw');
  }

  describe('defaults', () => {
    it('should use port 3000, host 0.0.0.0, the AMQP default, log level info and a 1000 ms shutdown delay', () => {
      const config = loadAppConfig(env());
      expect(config.port).toBe(3000);
      expect(config.host).toBe('0.0.0.0');
      expect(config.amqpUrl).toBe('amqp://guest:guest@127.0.0.1:5672');
      expect(config.logLevel).toBe('info');
      expect(config.shutdownDelayMs).toBe(1000);
      expect(config.isProduction).toBe(false);
    });

    it('should give the get-client cache 32 MB, CLIENT_CACHE_MB when set (0 caches nothing), and refuse a bad value', () => {
      expect(loadAppConfig(env()).clientCacheBytes).toBe(32 * 1024 * 1024);
      expect(loadAppConfig(env({ CLIENT_CACHE_MB: '8' })).clientCacheBytes).toBe(8 * 1024 * 1024);
      expect(loadAppConfig(env({ CLIENT_CACHE_MB: '0' })).clientCacheBytes).toBe(0);
      expect(configurationErrorOf(env({ CLIENT_CACHE_MB: '1.5' })).message).toMatch(/CLIENT_CACHE_MB must be an integer/);
      expect(configurationErrorOf(env({ CLIENT_CACHE_MB: '5000' })).message).toMatch(/CLIENT_CACHE_MB must not be greater than 4096/);
    });

    it('should accept CLIENT_CACHE_MAX_ENTRIES, no longer read, and name it among the variables ignored', () => {
      expect(loadAppConfig(env()).ignoredVariables).toEqual([]);
      const config = loadAppConfig(env({ CLIENT_CACHE_MAX_ENTRIES: '10000' }));
      expect(config.ignoredVariables).toEqual(['CLIENT_CACHE_MAX_ENTRIES']);
      expect(config.clientCacheBytes).toBe(32 * 1024 * 1024);
      expect(configurationErrorOf(env({ CLIENT_CACHE_MAX_ENTRIES: 'many' })).message).toMatch(/CLIENT_CACHE_MAX_ENTRIES/);
    });

    it('should flush key usage every 30 s and skip a failing SMS configuration for 30 s, or as set', () => {
      expect(loadAppConfig(env())).toMatchObject({ keyUsageFlushMs: 30_000, dispatchUnhealthyMs: 30_000 });
      expect(loadAppConfig(env({ KEY_USAGE_FLUSH_MS: '1000', DISPATCH_UNHEALTHY_MS: '3600000' }))).toMatchObject({
        keyUsageFlushMs: 1000,
        dispatchUnhealthyMs: 3_600_000,
      });
    });

    it('should keep audit entries 365 days, or as set', () => {
      expect(loadAppConfig(env()).auditRetentionDays).toBe(365);
      expect(loadAppConfig(env({ AUDIT_RETENTION_DAYS: '1' })).auditRetentionDays).toBe(1);
      expect(loadAppConfig(env({ AUDIT_RETENTION_DAYS: '3650' })).auditRetentionDays).toBe(3650);
    });

    it('should use a SQLite database at DATA_DIR/registry.sqlite', () => {
      const config = loadAppConfig(env());
      expect(config.dataDir).toBe(resolve(dataDir));
      expect(config.database).toEqual({ type: 'sqlite', path: join(resolve(dataDir), 'registry.sqlite') });
    });

    it('should treat empty variables as unset', () => {
      const config = loadAppConfig(env({ PORT: '', LOG_LEVEL: '', DATABASE_URL: '' }));
      expect(config.port).toBe(3000);
      expect(config.logLevel).toBe('info');
      expect(config.database.type).toBe('sqlite');
    });

    it('should not read anything from process.env when an explicit env object is given', () => {
      const previous = process.env.PORT;
      process.env.PORT = '4321';
      try {
        expect(loadAppConfig(env()).port).toBe(3000);
      } finally {
        if (previous === undefined) delete process.env.PORT;
        else process.env.PORT = previous;
      }
    });
  });

  describe('explicit values', () => {
    it('should read PORT, HOST, AMQP_URL, LOG_LEVEL and SHUTDOWN_DELAY_MS', () => {
      const config = loadAppConfig(
        env({ PORT: '8080', HOST: '127.0.0.1', AMQP_URL: 'amqps://u:p@broker:5671', LOG_LEVEL: 'debug', SHUTDOWN_DELAY_MS: '0' }),
      );
      expect(config.port).toBe(8080);
      expect(config.host).toBe('127.0.0.1');
      expect(config.amqpUrl).toBe('amqps://u:p@broker:5671');
      expect(config.logLevel).toBe('debug');
      expect(config.shutdownDelayMs).toBe(0);
    });

    it('should select MySQL for a mysql:// DATABASE_URL, with the default pool size', () => {
      const url = 'mysql://user:pass@db.example:3306/registry';
      expect(loadAppConfig(env({ DATABASE_URL: url })).database).toEqual({ type: 'mysql', url, poolSize: 10 });
    });

    it('should enable metrics, migrations at start and rate limits that never throttle a well-behaved caller by default', () => {
      const config = loadAppConfig(env());
      expect(config.metricsEnabled).toBe(true);
      expect(config.migrateOnStart).toBe(true);
      expect(loadAppConfig(env({ MIGRATE_ON_START: 'false' })).migrateOnStart).toBe(false);
      expect(config.rateLimit).toEqual({
        windowMs: 60_000,
        perCredential: 5_000_000,
        writesPerCredential: 600,
        perIp: 10_000,
        failedAuthPerIp: 100,
      });
    });

    it('should print pretty logs only when LOG_FORMAT=pretty, or on a TTY when LOG_FORMAT is unset', () => {
      expect(loadAppConfig(env({ LOG_FORMAT: 'pretty' })).prettyLogs).toBe(true);
      expect(loadAppConfig(env({ LOG_FORMAT: 'json' })).prettyLogs).toBe(false);
      expect(loadAppConfig(env()).prettyLogs).toBe(Boolean(process.stdout.isTTY));
    });

    it('should read METRICS_ENABLED and the RATE_LIMIT_* variables', () => {
      const config = loadAppConfig(
        env({
          METRICS_ENABLED: 'false',
          RATE_LIMIT_WINDOW_MS: '1000',
          RATE_LIMIT_PER_CREDENTIAL: '5',
          RATE_LIMIT_WRITES_PER_CREDENTIAL: '3',
          RATE_LIMIT_PER_IP: '6',
          RATE_LIMIT_FAILED_AUTH_PER_IP: '7',
        }),
      );
      expect(config.metricsEnabled).toBe(false);
      expect(config.rateLimit).toEqual({ windowMs: 1000, perCredential: 5, writesPerCredential: 3, perIp: 6, failedAuthPerIp: 7 });
    });

    it('should accept any NODE_ENV, and treat only production as production', () => {
      expect(loadAppConfig(env({ NODE_ENV: 'staging' })).isProduction).toBe(false);
      expect(loadAppConfig(env({ NODE_ENV: 'production' })).isProduction).toBe(true);
    });

    it('should read DATABASE_POOL_SIZE for MySQL', () => {
      const config = loadAppConfig(env({ DATABASE_URL: 'mysql://u:p@db/registry', DATABASE_POOL_SIZE: '25' }));
      expect(config.database).toEqual({ type: 'mysql', url: 'mysql://u:p@db/registry', poolSize: 25 });
    });

    it('should select SQLite at the given path for sqlite:<path>', () => {
      const path = join(dataDir, 'other.sqlite');
      expect(loadAppConfig(env({ DATABASE_URL: `sqlite:${path}` })).database).toEqual({ type: 'sqlite', path });
    });

    it('should resolve a relative sqlite:<path> against the working directory', () => {
      expect(loadAppConfig(env({ DATABASE_URL: 'sqlite:relative/db.sqlite' })).database).toEqual({
        type: 'sqlite',
        path: resolve('relative/db.sqlite'),
      });
    });

    it('should split ADMIN_API_KEYS on commas and trim each key', () => {
      expect(loadAppConfig(env({ ADMIN_API_KEYS: 'a, b ,c' })).adminApiKeys).toEqual(['a', 'b', 'c']);
    });

    it('should parse ENCRYPTION_KEYS in order', () => {
      const second = `kid0:${Buffer.alloc(32, 9).toString('base64')}`;
      const config = loadAppConfig(env({ ENCRYPTION_KEYS: `${ENCRYPTION_KEYS},${second}` }));
      expect(config.encryptionKeys.map((key) => key.id)).toEqual(['kid1', 'kid0']);
    });

    it('should not generate secrets when both are set', () => {
      const config = loadAppConfig(env());
      expect(config.generatedSecretsFile).toBeUndefined();
      expect(config.createdDevelopmentSecrets).toBe(false);
      expect(() => statSync(join(dataDir, 'development-secrets.json'))).toThrow();
    });
  });

  describe('delivery signals', () => {
    it('should take the defaults, and shares as exact millionths', () => {
      expect(loadAppConfig(env()).deliverySignals).toEqual({
        rateWindowMs: 900_000,
        rateMinReceipts: 20,
        demoteBelowMillionths: 800_000,
        pumpingWindowMs: 3_600_000,
        pumpingMinSent: 20,
        pumpingVelocityFactor: 2,
        pumpingMinConversionMillionths: 200_000,
        pumpingConversionGraceMs: 120_000,
        pumpingBlockMs: 3_600_000,
      });
      const set = loadAppConfig(
        env({ DELIVERY_RATE_DEMOTE_BELOW: '0', PUMPING_MIN_CONVERSION: '0.123456', DELIVERY_RATE_WINDOW_MS: '86400000' }),
      ).deliverySignals;
      expect(set).toMatchObject({ demoteBelowMillionths: 0, pumpingMinConversionMillionths: 123_456, rateWindowMs: 86_400_000 });
      expect(loadAppConfig(env({ PUMPING_MIN_CONVERSION: '1' })).deliverySignals.pumpingMinConversionMillionths).toBe(1_000_000);
    });
  });

  describe('invalid variables', () => {
    it.each([
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['PORT', '-1'],
      ['PORT', '80.5'],
      ['LOG_LEVEL', 'verbose'],
      ['DATABASE_URL', 'postgres://x'],
      ['DATABASE_URL', 'mysql://'],
      ['AMQP_URL', 'http://broker:5672'],
      ['LOG_FORMAT', 'xml'],
      ['SHUTDOWN_DELAY_MS', '60001'],
      ['KEY_USAGE_FLUSH_MS', '999'],
      ['KEY_USAGE_FLUSH_MS', '600001'],
      ['DISPATCH_UNHEALTHY_MS', '999'],
      ['DISPATCH_UNHEALTHY_MS', '3600001'],
      ['DISPATCH_UNHEALTHY_MS', '1.5'],
      ['AUDIT_RETENTION_DAYS', '0'],
      ['AUDIT_RETENTION_DAYS', '3651'],
      ['AUDIT_RETENTION_DAYS', '30.5'],
      ['DATABASE_POOL_SIZE', '0'],
      ['METRICS_ENABLED', 'yes'],
      ['MIGRATE_ON_START', 'no'],
      ['RATE_LIMIT_WINDOW_MS', '10'],
      ['RATE_LIMIT_PER_CREDENTIAL', '0'],
      ['RATE_LIMIT_WRITES_PER_CREDENTIAL', '0'],
      ['RATE_LIMIT_WRITES_PER_CREDENTIAL', '2.5'],
      ['RATE_LIMIT_PER_IP', 'many'],
      ['RATE_LIMIT_FAILED_AUTH_PER_IP', '-5'],
      ['DELIVERY_RATE_WINDOW_MS', '59999'],
      ['DELIVERY_RATE_WINDOW_MS', '90000'],
      ['DELIVERY_RATE_WINDOW_MS', '86460000'],
      ['DELIVERY_RATE_MIN_RECEIPTS', '0'],
      ['DELIVERY_RATE_MIN_RECEIPTS', '100001'],
      ['DELIVERY_RATE_DEMOTE_BELOW', '1.1'],
      ['DELIVERY_RATE_DEMOTE_BELOW', '0.1234567'],
      ['DELIVERY_RATE_DEMOTE_BELOW', '-0.5'],
      ['PUMPING_WINDOW_MS', '3600001'],
      ['PUMPING_MIN_SENT', '0'],
      ['PUMPING_MIN_SENT', '1000001'],
      ['PUMPING_VELOCITY_FACTOR', '101'],
      ['PUMPING_VELOCITY_FACTOR', '1.5'],
      ['PUMPING_MIN_CONVERSION', 'half'],
      ['PUMPING_CONVERSION_GRACE_MS', '600001'],
      ['PUMPING_BLOCK_MS', '999'],
      ['PUMPING_BLOCK_MS', '604800001'],
    ])('should throw naming %s when it is %p', (name, value) => {
      expect(configurationErrorOf(env({ [name]: value })).message).toContain(name);
    });

    it('should name every invalid variable at once', () => {
      const message = configurationErrorOf(env({ PORT: 'abc', LOG_LEVEL: 'loud' })).message;
      expect(message).toContain('PORT');
      expect(message).toContain('LOG_LEVEL');
    });

    it('should refuse a mysql:// DATABASE_URL that is not a URL', () => {
      expect(configurationErrorOf(env({ DATABASE_URL: 'mysql://user:p@ss@[bad' })).message).toContain('DATABASE_URL');
    });
  });
});
