import { resolve } from 'node:path';
import { ConfigurationError, validateEnvironment } from './environment';
import { loadDevelopmentSecrets } from './development-secrets';
import { EncryptionKey, parseEncryptionKeys } from './encryption-keys';

export type DatabaseConfig = { type: 'mysql'; url: string; poolSize: number } | { type: 'sqlite'; path: string };

export interface RateLimitConfig {
  windowMs: number;
  /** Requests per window for one credential (secretKey or x-api-key), whatever address it comes from. */
  perCredential: number;
  /** Requests per window from one address for calls without a credential. */
  perIp: number;
  /** Refused credentials per window from one address before its refusals become 429 (key guessing). */
  failedAuthPerIp: number;
}

export interface AppConfig {
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  amqpUrl: string;
  adminApiKeys: string[];
  encryptionKeys: EncryptionKey[];
  logLevel: string;
  prettyLogs: boolean;
  /** A file for the log lines instead of stdout. */
  logFile?: string;
  metricsEnabled: boolean;
  /** Apply pending migrations at start-up (under a lock); false when they run as a step of their own (dist/migrate.js). */
  migrateOnStart: boolean;
  rateLimit: RateLimitConfig;
  shutdownDelayMs: number;
  /** Bound on the clients the get-client cache keeps (LRU). */
  clientCacheMaxEntries: number;
  /** Set when development secrets are in use, so the start-up log can say where they are. */
  generatedSecretsFile?: string;
  /** Whether this start generated them (the first one does). */
  createdDevelopmentSecrets: boolean;
}

export function loadAppConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const vars = validateEnvironment(env);
  const isProduction = vars.NODE_ENV === 'production';
  const dataDir = resolve(vars.DATA_DIR ?? './data');

  const needsGeneratedSecrets = !vars.ADMIN_API_KEYS || !vars.ENCRYPTION_KEYS;
  if (needsGeneratedSecrets && (isProduction || vars.KUBERNETES_SERVICE_HOST)) {
    const missing = [!vars.ADMIN_API_KEYS && 'ADMIN_API_KEYS', !vars.ENCRYPTION_KEYS && 'ENCRYPTION_KEYS'].filter(Boolean).join(' and ');
    throw new ConfigurationError(
      isProduction
        ? `Invalid configuration: ${missing} must be set when NODE_ENV=production`
        : `Invalid configuration: ${missing} must be set in a Kubernetes pod (KUBERNETES_SERVICE_HOST is set): secrets generated there would be lost with the container`,
    );
  }
  const generated = needsGeneratedSecrets ? loadDevelopmentSecrets(dataDir) : undefined;

  const adminApiKeys = vars.ADMIN_API_KEYS ? parseList(vars.ADMIN_API_KEYS) : [generated!.secrets.adminApiKey];
  if (adminApiKeys.length === 0) throw new ConfigurationError('Invalid configuration: ADMIN_API_KEYS holds no key');

  return {
    isProduction,
    port: vars.PORT ?? 3000,
    host: vars.HOST ?? '0.0.0.0',
    dataDir,
    database: parseDatabaseUrl(vars.DATABASE_URL, dataDir, vars.DATABASE_POOL_SIZE ?? 10),
    amqpUrl: vars.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    adminApiKeys,
    encryptionKeys: parseEncryptionKeys(vars.ENCRYPTION_KEYS ?? generated!.secrets.encryptionKeys),
    logLevel: vars.LOG_LEVEL ?? 'info',
    prettyLogs: vars.LOG_FORMAT ? vars.LOG_FORMAT === 'pretty' : Boolean(process.stdout.isTTY),
    logFile: vars.LOG_FILE ? resolve(vars.LOG_FILE) : undefined,
    metricsEnabled: vars.METRICS_ENABLED !== 'false',
    migrateOnStart: vars.MIGRATE_ON_START !== 'false',
    rateLimit: {
      windowMs: vars.RATE_LIMIT_WINDOW_MS ?? 60_000,
      // Far above what one caller can send (the benchmark's ~15,000 req/s is 900,000 a minute): never throttles a well-behaved one.
      perCredential: vars.RATE_LIMIT_PER_CREDENTIAL ?? 5_000_000,
      perIp: vars.RATE_LIMIT_PER_IP ?? 10_000,
      failedAuthPerIp: vars.RATE_LIMIT_FAILED_AUTH_PER_IP ?? 100,
    },
    shutdownDelayMs: vars.SHUTDOWN_DELAY_MS ?? 1000,
    clientCacheMaxEntries: vars.CLIENT_CACHE_MAX_ENTRIES ?? 10_000,
    generatedSecretsFile: generated?.file,
    createdDevelopmentSecrets: generated?.created ?? false,
  };
}

function parseList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function parseDatabaseUrl(url: string | undefined, dataDir: string, poolSize: number): DatabaseConfig {
  if (!url) return { type: 'sqlite', path: resolve(dataDir, 'registry.sqlite') };
  if (url.startsWith('sqlite:')) return { type: 'sqlite', path: resolve(url.slice('sqlite:'.length)) };
  try {
    new URL(url);
  } catch {
    throw new ConfigurationError('Invalid configuration: DATABASE_URL is not a valid URL');
  }
  return { type: 'mysql', url, poolSize };
}
