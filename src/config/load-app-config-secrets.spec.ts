import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  describe('production', () => {
    it('should refuse to start without ADMIN_API_KEYS and ENCRYPTION_KEYS, naming both', () => {
      const error = configurationErrorOf({ NODE_ENV: 'production', DATA_DIR: dataDir });
      expect(error.message).toContain('ADMIN_API_KEYS');
      expect(error.message).toContain('ENCRYPTION_KEYS');
    });

    it('should refuse to start without ADMIN_API_KEYS, naming only it', () => {
      const error = configurationErrorOf(env({ NODE_ENV: 'production', ADMIN_API_KEYS: undefined }));
      expect(error.message).toContain('ADMIN_API_KEYS');
      expect(error.message).not.toContain('ENCRYPTION_KEYS');
    });

    it('should refuse to start without ENCRYPTION_KEYS, naming only it', () => {
      const error = configurationErrorOf(env({ NODE_ENV: 'production', ENCRYPTION_KEYS: undefined }));
      expect(error.message).toContain('ENCRYPTION_KEYS');
      expect(error.message).not.toContain('ADMIN_API_KEYS');
    });

    it('should not write a development secrets file when it refuses to start', () => {
      configurationErrorOf({ NODE_ENV: 'production', DATA_DIR: dataDir });
      expect(() => statSync(join(dataDir, 'development-secrets.json'))).toThrow();
    });

    it('should refuse to generate secrets in a Kubernetes pod, whatever NODE_ENV says, and name the variables', () => {
      const message = configurationErrorOf({ DATA_DIR: dataDir, KUBERNETES_SERVICE_HOST: '10.0.0.1', ENCRYPTION_KEYS }).message;
      expect(message).toBe(
        'Invalid configuration: ADMIN_API_KEYS must be set in a Kubernetes pod (KUBERNETES_SERVICE_HOST is set): secrets generated there would be lost with the container',
      );
      expect(() => statSync(join(dataDir, 'development-secrets.json'))).toThrow();
    });

    it('should start with both secrets set', () => {
      const config = loadAppConfig(env({ NODE_ENV: 'production' }));
      expect(config.isProduction).toBe(true);
      expect(config.adminApiKeys).toEqual([ADMIN_API_KEY]);
      expect(config.createdDevelopmentSecrets).toBe(false);
    });

    it('should refuse ADMIN_API_KEYS that hold no key', () => {
      expect(configurationErrorOf(env({ NODE_ENV: 'production', ADMIN_API_KEYS: ' , ' })).message).toContain('ADMIN_API_KEYS');
    });

    it('should refuse invalid ENCRYPTION_KEYS', () => {
      expect(configurationErrorOf(env({ NODE_ENV: 'production', ENCRYPTION_KEYS: 'kid1:short' })).message).toContain('ENCRYPTION_KEYS');
    });

    it.each([
      ['production', { NODE_ENV: 'production' }],
      ['a Kubernetes pod', { KUBERNETES_SERVICE_HOST: '10.0.0.1' }],
    ])('should refuse, in %s, an admin key shorter than 32 characters, naming the variable and which key', (_, where) => {
      const message = configurationErrorOf(env({ ...where, ADMIN_API_KEYS: `${ADMIN_API_KEY},${'k'.repeat(31)}` })).message;
      expect(message).toBe(
        'Invalid configuration: ADMIN_API_KEYS key #2 has fewer than 32 characters; generate one with `openssl rand -base64 32`',
      );
      expect(message).not.toContain('k'.repeat(31));
    });

    it('should refuse, in production, a dispatcher key shorter than 32 characters, and anywhere a dispatcher key that is an admin key', () => {
      expect(configurationErrorOf(env({ NODE_ENV: 'production', DISPATCHER_API_KEYS: 'd'.repeat(31) })).message).toBe(
        'Invalid configuration: DISPATCHER_API_KEYS key #1 has fewer than 32 characters; generate one with `openssl rand -base64 32`',
      );
      expect(configurationErrorOf(env({ ADMIN_API_KEYS: ADMIN_API_KEY, DISPATCHER_API_KEYS: ADMIN_API_KEY })).message).toBe(
        'Invalid configuration: DISPATCHER_API_KEYS holds a key of ADMIN_API_KEYS; a dispatcher needs a key of its own',
      );
      expect(loadAppConfig(env({ DISPATCHER_API_KEYS: ' d1-key , d2-key ' })).dispatcherApiKeys).toEqual(['d1-key', 'd2-key']);
      expect(loadAppConfig(env({})).dispatcherApiKeys).toEqual([]);
    });

    it('should accept a short admin key outside production (a developer trying it)', () => {
      expect(loadAppConfig(env({ ADMIN_API_KEYS: 'short' })).adminApiKeys).toEqual(['short']);
    });

    it.each([
      ['all zeros', Buffer.alloc(32, 0)],
      ['one repeated byte', Buffer.alloc(32, 0xab)],
      ['a short word repeated', Buffer.from('secret!!'.repeat(4))],
    ])('should refuse, in production, an encryption key of %s, naming its id', (_, key) => {
      const weak = `weak:${key.toString('base64')}`;
      const message = configurationErrorOf(env({ NODE_ENV: 'production', ENCRYPTION_KEYS: `${ENCRYPTION_KEYS},${weak}` })).message;
      expect(message).toBe(
        'Invalid configuration: ENCRYPTION_KEYS key "weak" has too little entropy (repeated bytes); generate one with `openssl rand -base64 32`',
      );
    });

    it('should accept random encryption keys in production', () => {
      const random = `r:${randomBytes(32).toString('base64')}`;
      expect(loadAppConfig(env({ NODE_ENV: 'production', ENCRYPTION_KEYS: random })).encryptionKeys.map((key) => key.id)).toEqual(['r']);
    });
  });

  describe('development secrets', () => {
    const secretsFile = (): string => join(dataDir, 'development-secrets.json');

    it('should generate development-secrets.json in DATA_DIR with file mode 0600', () => {
      const config = loadAppConfig({ DATA_DIR: dataDir });
      expect(config.generatedSecretsFile).toBe(secretsFile());
      expect(statSync(secretsFile()).mode & 0o777).toBe(0o600);
    });

    it('should create DATA_DIR when it does not exist yet', () => {
      const nested = join(dataDir, 'nested', 'data');
      loadAppConfig({ DATA_DIR: nested });
      expect(statSync(join(nested, 'development-secrets.json')).isFile()).toBe(true);
    });

    it('should say it created the secrets on the first load only', () => {
      const first = loadAppConfig({ DATA_DIR: dataDir, NODE_ENV: 'development' });
      expect(first.createdDevelopmentSecrets).toBe(true);
      expect(first.adminApiKeys).toEqual([expect.stringMatching(/^ak_[A-Za-z0-9_-]{43}$/)]);

      const second = loadAppConfig({ DATA_DIR: dataDir, NODE_ENV: 'development' });
      expect(second.createdDevelopmentSecrets).toBe(false);
      expect(second.adminApiKeys).toEqual(first.adminApiKeys);
    });

    it('should return the same keys on the second load', () => {
      const first = loadAppConfig({ DATA_DIR: dataDir });
      const second = loadAppConfig({ DATA_DIR: dataDir });
      expect(second.adminApiKeys).toEqual(first.adminApiKeys);
      expect(second.encryptionKeys).toHaveLength(1);
      expect(second.encryptionKeys[0].id).toBe(first.encryptionKeys[0].id);
      expect(second.encryptionKeys[0].key.equals(first.encryptionKeys[0].key)).toBe(true);
    });

    it('should store the generated keys in the file', () => {
      const config = loadAppConfig({ DATA_DIR: dataDir });
      const stored = JSON.parse(readFileSync(secretsFile(), 'utf8')) as { adminApiKey: string; encryptionKeys: string };
      expect(stored.adminApiKey).toBe(config.adminApiKeys[0]);
      expect(stored.encryptionKeys).toBe(`${config.encryptionKeys[0].id}:${config.encryptionKeys[0].key.toString('base64')}`);
    });

    it('should generate a valid 32-byte encryption key', () => {
      const [key] = loadAppConfig({ DATA_DIR: dataDir }).encryptionKeys;
      expect(key.key).toHaveLength(32);
    });

    it('should generate different secrets for different data directories', () => {
      const other = mkdtempSync(join(tmpdir(), 'app-config-spec-'));
      try {
        const first = loadAppConfig({ DATA_DIR: dataDir });
        const second = loadAppConfig({ DATA_DIR: other });
        expect(second.adminApiKeys[0]).not.toBe(first.adminApiKeys[0]);
        expect(second.encryptionKeys[0].key.equals(first.encryptionKeys[0].key)).toBe(false);
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    });

    it('should use a set ADMIN_API_KEYS and generate only the encryption key', () => {
      const config = loadAppConfig({ DATA_DIR: dataDir, ADMIN_API_KEYS: 'mine' });
      expect(config.adminApiKeys).toEqual(['mine']);
      expect(config.encryptionKeys).toHaveLength(1);
      expect(config.generatedSecretsFile).toBe(secretsFile());
    });

    it('should use a set ENCRYPTION_KEYS and generate only the admin key', () => {
      const config = loadAppConfig({ DATA_DIR: dataDir, ENCRYPTION_KEYS });
      expect(config.encryptionKeys.map((key) => key.id)).toEqual(['kid1']);
      const stored = JSON.parse(readFileSync(secretsFile(), 'utf8')) as { adminApiKey: string };
      expect(config.adminApiKeys).toEqual([stored.adminApiKey]);
    });
  });
});
