import { plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';

/** The raw environment the service reads; every variable is checked before anything starts. */
export class EnvironmentVariables {
  /** Any value: only `production` changes what the service does (it then refuses to generate secrets). */
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @Matches(/^(mysql:\/\/.+|sqlite:.+)$/, { message: 'DATABASE_URL must be mysql://user:pass@host:port/db or sqlite:<path>' })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  @IsOptional()
  @Matches(/^amqps?:\/\/.+/, { message: 'AMQP_URL must be an amqp:// or amqps:// URL' })
  AMQP_URL?: string;

  @IsOptional()
  @IsString()
  ADMIN_API_KEYS?: string;

  @IsOptional()
  @IsString()
  ENCRYPTION_KEYS?: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  @IsOptional()
  @IsIn(['json', 'pretty'])
  LOG_FORMAT?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(60000)
  SHUTDOWN_DELAY_MS?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  DATABASE_POOL_SIZE?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  CLIENT_CACHE_MAX_ENTRIES?: number;

  @IsOptional()
  @IsString()
  LOG_FILE?: string;

  @IsOptional()
  @IsIn(['true', 'false'])
  METRICS_ENABLED?: string;

  @IsOptional()
  @IsIn(['true', 'false'])
  MIGRATE_ON_START?: string;

  /** Set by Kubernetes in every pod: a real deployment, where development secrets would be lost with the container. */
  @IsOptional()
  @IsString()
  KUBERNETES_SERVICE_HOST?: string;

  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  RATE_LIMIT_WINDOW_MS?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  RATE_LIMIT_PER_CREDENTIAL?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  RATE_LIMIT_PER_IP?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  RATE_LIMIT_FAILED_AUTH_PER_IP?: number;
}

export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

const NUMERIC_VARIABLES = [
  'PORT',
  'SHUTDOWN_DELAY_MS',
  'DATABASE_POOL_SIZE',
  'RATE_LIMIT_WINDOW_MS',
  'RATE_LIMIT_PER_CREDENTIAL',
  'RATE_LIMIT_PER_IP',
  'RATE_LIMIT_FAILED_AUTH_PER_IP',
  'CLIENT_CACHE_MAX_ENTRIES',
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

/** Every variable the service reads; nothing else of the environment is. */
export function environmentVariableNames(): string[] {
  return Object.keys(new EnvironmentVariablesShape());
}

/** Lists the variable names, so only these are read from process.env. */
class EnvironmentVariablesShape implements Required<EnvironmentVariables> {
  NODE_ENV = '';
  PORT = 0;
  HOST = '';
  DATABASE_URL = '';
  DATA_DIR = '';
  AMQP_URL = '';
  ADMIN_API_KEYS = '';
  ENCRYPTION_KEYS = '';
  LOG_LEVEL = '';
  LOG_FORMAT = '';
  SHUTDOWN_DELAY_MS = 0;
  DATABASE_POOL_SIZE = 0;
  CLIENT_CACHE_MAX_ENTRIES = 0;
  LOG_FILE = '';
  METRICS_ENABLED = '';
  MIGRATE_ON_START = '';
  KUBERNETES_SERVICE_HOST = '';
  RATE_LIMIT_WINDOW_MS = 0;
  RATE_LIMIT_PER_CREDENTIAL = 0;
  RATE_LIMIT_PER_IP = 0;
  RATE_LIMIT_FAILED_AUTH_PER_IP = 0;
}
