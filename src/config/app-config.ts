// What the modules read through ConfigService<AppConfig>: types and a default only, so that reading it loads nothing.
export type DatabaseConfig = { type: 'mysql' | 'mariadb'; url: string; poolSize: number } | { type: 'sqlite'; path: string };

export interface RateLimitConfig {
  windowMs: number;
  perCredential: number;
  writesPerCredential: number;
  perIp: number;
  failedAuthPerIp: number;
}

export interface HttpLimits {
  requestTimeoutMs: number;
  maxConnections: number;
}

export interface EncryptionKey {
  id: string;
  key: Buffer;
}

export interface AppConfig {
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  amqpUrl: string;
  adminApiKeys: string[];
  dispatcherApiKeys: string[];
  encryptionKeys: EncryptionKey[];
  logLevel: string;
  prettyLogs: boolean;
  logFile?: string;
  metricsEnabled: boolean;
  opsPort?: number;
  docsEnabled: boolean;
  trustProxy: boolean | string;
  http: HttpLimits;
  allowPrivateProviderHosts: boolean;
  migrateOnStart: boolean;
  rateLimit: RateLimitConfig;
  shutdownDelayMs: number;
  keyUsageFlushMs: number;
  dispatchUnhealthyMs: number;
  deliverySignals: DeliverySignalsConfig;
  auditRetentionDays: number;
  clientCacheBytes: number;
  ignoredVariables: string[];
  generatedSecretsFile?: string;
  createdDevelopmentSecrets: boolean;
}

// 20,000 clients weigh 25 MB (npm run bench:cache-memory): room in the pod beside the load (BENCHMARKS.md, fleet).
export const DEFAULT_CLIENT_CACHE_MB = 32;

// Shares are kept in millionths: a rate or conversion is compared with one on integers (docs/dispatching.md).
export interface DeliverySignalsConfig {
  rateWindowMs: number;
  rateMinReceipts: number;
  demoteBelowMillionths: number;
  pumpingWindowMs: number;
  pumpingMinSent: number;
  pumpingVelocityFactor: number;
  pumpingMinConversionMillionths: number;
  pumpingConversionGraceMs: number;
  pumpingBlockMs: number;
}
