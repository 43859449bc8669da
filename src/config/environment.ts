import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { EnvironmentVariables } from './environment-variables';

export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

const NUMERIC_VARIABLES = [
  'PORT',
  'SHUTDOWN_DELAY_MS',
  'DATABASE_POOL_SIZE',
  'KEY_USAGE_FLUSH_MS',
  'DISPATCH_UNHEALTHY_MS',
  'DELIVERY_RATE_WINDOW_MS',
  'DELIVERY_RATE_MIN_RECEIPTS',
  'PUMPING_WINDOW_MS',
  'PUMPING_MIN_SENT',
  'PUMPING_VELOCITY_FACTOR',
  'PUMPING_CONVERSION_GRACE_MS',
  'PUMPING_BLOCK_MS',
  'AUDIT_RETENTION_DAYS',
  'RATE_LIMIT_WINDOW_MS',
  'RATE_LIMIT_PER_CREDENTIAL',
  'RATE_LIMIT_WRITES_PER_CREDENTIAL',
  'RATE_LIMIT_PER_IP',
  'RATE_LIMIT_FAILED_AUTH_PER_IP',
  'CLIENT_CACHE_MB',
  'CLIENT_CACHE_MAX_ENTRIES',
  'OPS_PORT',
  'HTTP_REQUEST_TIMEOUT_MS',
  'HTTP_MAX_CONNECTIONS',
] as const;

export function validateEnvironment(env: NodeJS.ProcessEnv): EnvironmentVariables {
  const raw: Record<string, unknown> = {};
  for (const key of environmentVariableNames()) {
    const value = env[key];
    if (value === undefined || value === '') continue;
    raw[key] = (NUMERIC_VARIABLES as readonly string[]).includes(key) && /^\d+$/.test(value) ? Number(value) : value;
  }
  const variables = plainToInstance(EnvironmentVariables, raw);
  const errors = validateSync(variables, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const reasons = errors.flatMap((error) => Object.values(error.constraints ?? {}));
    throw new ConfigurationError(`Invalid configuration: ${reasons.join('; ')}`);
  }
  return variables;
}

export function environmentVariableNames(): string[] {
  return Object.keys(VARIABLES);
}

export interface VariableDescription {
  default: string;
  meaning: string;
}

// The README's table and .env.example are written from this list (npm run env:example), and a test holds both to it.
export const VARIABLES: Record<keyof Required<EnvironmentVariables>, VariableDescription> = {
  NODE_ENV: {
    default: 'development',
    meaning:
      'any value; `production` (or running in a Kubernetes pod) refuses to start without `ADMIN_API_KEYS` and `ENCRYPTION_KEYS`, and refuses weak ones',
  },
  PORT: { default: '3000', meaning: 'port of the API' },
  HOST: { default: '0.0.0.0', meaning: 'address the API listens on' },
  DATABASE_URL: {
    default: 'embedded SQLite `DATA_DIR/registry.sqlite`',
    meaning: '`mysql://user:pass@host:3306/db` (MySQL), `mariadb://user:pass@host:3306/db` (MariaDB), or `sqlite:<path>`',
  },
  DATABASE_POOL_SIZE: { default: '10', meaning: 'MySQL connections per pool; an instance has two (statements, and the adds)' },
  DATA_DIR: { default: './data', meaning: 'SQLite file and generated development secrets' },
  AMQP_URL: {
    default: 'amqp://guest:guest@127.0.0.1:5672',
    meaning: 'RabbitMQ; the service starts without it and connects when it appears',
  },
  ADMIN_API_KEYS: {
    default: 'generated outside production',
    meaning: 'comma-separated admin keys for `x-api-key` (32 characters or more in production); several allow rotation',
  },
  ENCRYPTION_KEYS: {
    default: 'generated outside production',
    meaning: '`kid1:<base64 of 32 random bytes>,kid0:<...>`; the first seals, all open',
  },
  DISPATCHER_API_KEYS: {
    default: 'unset: no dispatcher',
    meaning:
      'comma-separated keys (`x-api-key`) of the services allowed to resolve provider credentials (32 characters or more in production; never an admin key)',
  },
  LOG_LEVEL: { default: 'info', meaning: 'pino level (`silent` to `trace`)' },
  LOG_FORMAT: { default: '`json`, or `pretty` on a TTY', meaning: 'log output' },
  LOG_FILE: { default: 'unset: stdout', meaning: 'write the log lines to this file instead' },
  SHUTDOWN_DELAY_MS: { default: '1000', meaning: 'drain delay after SIGTERM' },
  KEY_USAGE_FLUSH_MS: {
    default: '30000',
    meaning:
      'how often an instance writes when each client key was last used (1000–600000); the admin view is that stale at most, plus 1 s',
  },
  DISPATCH_UNHEALTHY_MS: {
    default: '30000',
    meaning:
      'how long an SMS configuration that failed 5 times in a row is skipped by dispatch routing (1000–3600000); then it is offered again, last',
  },
  DELIVERY_RATE_WINDOW_MS: {
    default: '900000',
    meaning:
      "the window of a configuration's delivery rate per destination calling code (delivered ÷ (delivered + undelivered) of the receipts reported), a multiple of 60000 (60000–86400000)",
  },
  DELIVERY_RATE_MIN_RECEIPTS: {
    default: '20',
    meaning: 'receipts in the window under which a delivery rate is null (1–100000)',
  },
  DELIVERY_RATE_DEMOTE_BELOW: {
    default: '0.8',
    meaning:
      'route puts a candidate whose delivery rate at the destination is under this after the others (0–1, at most 6 decimals; 0: never)',
  },
  PUMPING_WINDOW_MS: {
    default: '3600000',
    meaning:
      "the window over which the pumping guard sums a client's messages, codes and verified codes per range, a multiple of 60000 (60000–86400000)",
  },
  PUMPING_MIN_SENT: {
    default: '20',
    meaning:
      'the floor of both pumping signals: a range is never suspected with fewer messages (velocity) or codes (conversion) in the window (1–1000000)',
  },
  PUMPING_VELOCITY_FACTOR: {
    default: '2',
    meaning: "velocity: a range sending more than this many times the client's highest window of the 7 days before today (1–100)",
  },
  PUMPING_MIN_CONVERSION: {
    default: '0.2',
    meaning: 'conversion: a range whose verified codes are under this share of the codes sent is suspected (0–1, at most 6 decimals)',
  },
  PUMPING_CONVERSION_GRACE_MS: {
    default: '120000',
    meaning:
      'codes of the last this many ms (rounded up to whole minutes) are left out of the conversion, as users are still entering them (0–600000)',
  },
  PUMPING_BLOCK_MS: {
    default: '3600000',
    meaning: 'how long a range stays suspected (and refused by route for a client in block) after a signal (1000–604800000)',
  },
  AUDIT_RETENTION_DAYS: {
    default: '365',
    meaning: 'days an audit entry is kept (1–3650); older ones are deleted in the background, except events not yet published',
  },
  CLIENT_CACHE_MB: {
    default: '32',
    meaning:
      'memory the get-client cache may hold per instance, in MB (answers weighed by their size, W-TinyLFU eviction); `0` caches nothing',
  },
  CLIENT_CACHE_MAX_ENTRIES: {
    default: 'unset',
    meaning: 'no longer read: the cache is bounded in bytes by `CLIENT_CACHE_MB`; a value set here is accepted and ignored',
  },
  METRICS_ENABLED: { default: 'true', meaning: '`false` answers `GET /metrics` with 404' },
  OPS_PORT: {
    default: 'unset: on `PORT`',
    meaning: 'serve `/health` and `/metrics` on this port only (bound to `HOST`), away from the API',
  },
  DOCS_ENABLED: { default: 'true', meaning: '`false` serves no Swagger UI under `/docs` and no `/docs-json`' },
  TRUST_PROXY: {
    default: 'false',
    meaning:
      'the load balancers in front, as comma-separated addresses/CIDRs: IPv4 in four decimal parts without leading zeros, IPv6 in any spelling, a prefix of /8 to /32 (IPv4) or /7 to /128 (IPv6); the per-address limits then count the rightmost `X-Forwarded-For` address that is not one of them (a port a balancer appended dropped). `true` (any peer) is refused when `NODE_ENV=production`: a caller could then name any address and escape the limits, or lock another address out; a list that trusts every address (`0.0.0.0/0`, `0.0.0.0/1,128.0.0.0/1`) is refused everywhere',
  },
  HTTP_REQUEST_TIMEOUT_MS: {
    default: '10000',
    meaning: 'a request (headers and body) not received within it is answered 408 and its connection closed',
  },
  HTTP_MAX_CONNECTIONS: { default: '4096', meaning: 'open connections per instance; more are closed at once' },
  MIGRATE_ON_START: {
    default: 'true',
    meaning:
      'apply pending migrations at start-up; `false` when `npm run migrate` runs them first (a start then refuses a schema behind it)',
  },
  ALLOW_PRIVATE_PROVIDER_HOSTS: {
    default: 'false',
    meaning:
      '`true` accepts provider URLs and hosts on private, loopback and link-local addresses and on names that are never public (`*.internal`, `*.svc`, …: a provider inside the network)',
  },
  KUBERNETES_SERVICE_HOST: {
    default: 'set by Kubernetes',
    meaning: 'marks a real deployment: development secrets are refused',
  },
  RATE_LIMIT_WINDOW_MS: { default: '60000', meaning: 'the window every limit below counts in' },
  RATE_LIMIT_PER_CREDENTIAL: {
    default: '5000000',
    meaning: 'requests per window for one valid `secretKey` or `x-api-key`, from any address',
  },
  RATE_LIMIT_WRITES_PER_CREDENTIAL: {
    default: '600',
    meaning:
      'changing requests (add, PATCH, DELETE, rotate, verify-api-key) per window for one client, all its `secretKey`s together; a replayed answer is not one',
  },
  RATE_LIMIT_PER_IP: {
    default: '10000',
    meaning: 'requests per window from one address (IPv6: its /64) without a valid credential',
  },
  RATE_LIMIT_FAILED_AUTH_PER_IP: {
    default: '100',
    meaning: 'refused credentials per window from one address (IPv6: its /64); past it, every request from it is 429, right key or not',
  },
};
