import { resolve } from 'node:path';
import { AppConfig, DEFAULT_CLIENT_CACHE_MB, DatabaseConfig, EncryptionKey } from './app-config';
import { ConfigurationError, validateEnvironment } from './environment';
import { loadDevelopmentSecrets } from './development-secrets';
import { parseEncryptionKeys } from './encryption-keys';
import { parseTrustProxy } from './trust-proxy';

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
  const encryptionKeys = parseEncryptionKeys(vars.ENCRYPTION_KEYS ?? generated!.secrets.encryptionKeys);
  const dispatcherApiKeys = parseList(vars.DISPATCHER_API_KEYS ?? '');
  if (dispatcherApiKeys.some((key) => adminApiKeys.includes(key))) {
    throw new ConfigurationError(
      'Invalid configuration: DISPATCHER_API_KEYS holds a key of ADMIN_API_KEYS; a dispatcher needs a key of its own',
    );
  }
  if (isProduction || vars.KUBERNETES_SERVICE_HOST) {
    refuseShortKeys('ADMIN_API_KEYS', adminApiKeys);
    refuseShortKeys('DISPATCHER_API_KEYS', dispatcherApiKeys);
    refuseWeakEncryptionKeys(encryptionKeys);
  }

  return {
    isProduction,
    port: vars.PORT ?? 3000,
    host: vars.HOST ?? '0.0.0.0',
    dataDir,
    database: parseDatabaseUrl(vars.DATABASE_URL, dataDir, vars.DATABASE_POOL_SIZE ?? 10),
    amqpUrl: vars.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    adminApiKeys,
    dispatcherApiKeys,
    encryptionKeys,
    logLevel: vars.LOG_LEVEL ?? 'info',
    prettyLogs: vars.LOG_FORMAT ? vars.LOG_FORMAT === 'pretty' : Boolean(process.stdout.isTTY),
    logFile: vars.LOG_FILE ? resolve(vars.LOG_FILE) : undefined,
    metricsEnabled: vars.METRICS_ENABLED !== 'false',
    migrateOnStart: vars.MIGRATE_ON_START !== 'false',
    opsPort: vars.OPS_PORT,
    docsEnabled: vars.DOCS_ENABLED !== 'false',
    trustProxy: parseTrustProxy(vars.TRUST_PROXY, isProduction),
    http: {
      requestTimeoutMs: vars.HTTP_REQUEST_TIMEOUT_MS ?? 10_000,
      maxConnections: vars.HTTP_MAX_CONNECTIONS ?? 4096,
    },
    allowPrivateProviderHosts: vars.ALLOW_PRIVATE_PROVIDER_HOSTS === 'true',
    rateLimit: {
      windowMs: vars.RATE_LIMIT_WINDOW_MS ?? 60_000,
      // Far above what one caller can send (the benchmark's ~15,000 req/s is 900,000 a minute): never throttles a well-behaved one.
      perCredential: vars.RATE_LIMIT_PER_CREDENTIAL ?? 5_000_000,
      writesPerCredential: vars.RATE_LIMIT_WRITES_PER_CREDENTIAL ?? 600,
      perIp: vars.RATE_LIMIT_PER_IP ?? 10_000,
      failedAuthPerIp: vars.RATE_LIMIT_FAILED_AUTH_PER_IP ?? 100,
    },
    shutdownDelayMs: vars.SHUTDOWN_DELAY_MS ?? 1000,
    keyUsageFlushMs: vars.KEY_USAGE_FLUSH_MS ?? 30_000,
    dispatchUnhealthyMs: vars.DISPATCH_UNHEALTHY_MS ?? 30_000,
    deliverySignals: {
      rateWindowMs: vars.DELIVERY_RATE_WINDOW_MS ?? 900_000,
      rateMinReceipts: vars.DELIVERY_RATE_MIN_RECEIPTS ?? 20,
      demoteBelowMillionths: shareInMillionths(vars.DELIVERY_RATE_DEMOTE_BELOW ?? '0.8'),
      pumpingWindowMs: vars.PUMPING_WINDOW_MS ?? 3_600_000,
      pumpingMinSent: vars.PUMPING_MIN_SENT ?? 20,
      pumpingVelocityFactor: vars.PUMPING_VELOCITY_FACTOR ?? 2,
      pumpingMinConversionMillionths: shareInMillionths(vars.PUMPING_MIN_CONVERSION ?? '0.2'),
      pumpingConversionGraceMs: vars.PUMPING_CONVERSION_GRACE_MS ?? 120_000,
      pumpingBlockMs: vars.PUMPING_BLOCK_MS ?? 3_600_000,
    },
    auditRetentionDays: vars.AUDIT_RETENTION_DAYS ?? 365,
    clientCacheBytes: (vars.CLIENT_CACHE_MB ?? DEFAULT_CLIENT_CACHE_MB) * 1024 * 1024,
    ignoredVariables: vars.CLIENT_CACHE_MAX_ENTRIES === undefined ? [] : ['CLIENT_CACHE_MAX_ENTRIES'],
    generatedSecretsFile: generated?.file,
    createdDevelopmentSecrets: generated?.created ?? false,
  };
}

export const MIN_PRODUCTION_KEY_LENGTH = 32;

function refuseShortKeys(variable: string, keys: string[]): void {
  const short = keys.findIndex((key) => key.length < MIN_PRODUCTION_KEY_LENGTH);
  if (short >= 0) {
    throw new ConfigurationError(
      `Invalid configuration: ${variable} key #${short + 1} has fewer than ${MIN_PRODUCTION_KEY_LENGTH} characters; generate one with \`openssl rand -base64 32\``,
    );
  }
}

// 32 random bytes show about 30 distinct values; fewer than 16 is a typed or patterned key (odds below 1e-20 by chance).
const MIN_DISTINCT_KEY_BYTES = 16;

function refuseWeakEncryptionKeys(keys: EncryptionKey[]): void {
  const weak = keys.find(({ key }) => new Set(key).size < MIN_DISTINCT_KEY_BYTES);
  if (weak) {
    throw new ConfigurationError(
      `Invalid configuration: ENCRYPTION_KEYS key "${weak.id}" has too little entropy (repeated bytes); generate one with \`openssl rand -base64 32\``,
    );
  }
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
  return { type: url.startsWith('mariadb:') ? 'mariadb' : 'mysql', url, poolSize };
}

/** "0.8" → 800000: exact, as the text has at most 6 decimals. */
export function shareInMillionths(share: string): number {
  const [whole, fraction = ''] = share.split('.');
  return Number(whole || '0') * 1_000_000 + Number(fraction.padEnd(6, '0'));
}
