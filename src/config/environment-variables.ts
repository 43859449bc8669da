import { IsDivisibleBy, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

// A share from 0 to 1 in at most 6 decimals: compared as millionths, never as a float (shareInMillionths).
const SHARE = /^(0(\.\d{1,6})?|1(\.0{1,6})?|\.\d{1,6})$/;

// The rule each variable is checked by at start-up; what each means, and its default, is VARIABLES (environment.ts).
export class EnvironmentVariables {
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
  @Matches(/^((mysql|mariadb):\/\/.+|sqlite:.+)$/, {
    message: 'DATABASE_URL must be mysql://user:pass@host:port/db (mariadb:// for MariaDB) or sqlite:<path>',
  })
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
  @IsString()
  DISPATCHER_API_KEYS?: string;

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
  @Min(1000)
  @Max(600_000)
  KEY_USAGE_FLUSH_MS?: number;

  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  DISPATCH_UNHEALTHY_MS?: number;

  @IsOptional()
  @IsInt()
  @Min(60_000)
  @Max(86_400_000)
  @IsDivisibleBy(60_000, { message: 'DELIVERY_RATE_WINDOW_MS must be a multiple of 60000' })
  DELIVERY_RATE_WINDOW_MS?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100_000)
  DELIVERY_RATE_MIN_RECEIPTS?: number;

  @IsOptional()
  @Matches(SHARE, { message: 'DELIVERY_RATE_DEMOTE_BELOW must be a number from 0 to 1 with at most 6 decimals' })
  DELIVERY_RATE_DEMOTE_BELOW?: string;

  @IsOptional()
  @IsInt()
  @Min(60_000)
  @Max(86_400_000)
  @IsDivisibleBy(60_000, { message: 'PUMPING_WINDOW_MS must be a multiple of 60000' })
  PUMPING_WINDOW_MS?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  PUMPING_MIN_SENT?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  PUMPING_VELOCITY_FACTOR?: number;

  @IsOptional()
  @Matches(SHARE, { message: 'PUMPING_MIN_CONVERSION must be a number from 0 to 1 with at most 6 decimals' })
  PUMPING_MIN_CONVERSION?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(600_000)
  PUMPING_CONVERSION_GRACE_MS?: number;

  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(604_800_000)
  PUMPING_BLOCK_MS?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  AUDIT_RETENTION_DAYS?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(4096)
  CLIENT_CACHE_MB?: number;

  // No longer read; still accepted, so a deployment that sets it keeps starting.
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

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(65535)
  OPS_PORT?: number;

  @IsOptional()
  @IsIn(['true', 'false'])
  DOCS_ENABLED?: string;

  @IsOptional()
  @Matches(/^(true|false|[0-9A-Fa-f.:/]+(\s*,\s*[0-9A-Fa-f.:/]+)*)$/, {
    message: 'TRUST_PROXY must be true, false, or comma-separated addresses or CIDRs of the proxies',
  })
  TRUST_PROXY?: string;

  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(600_000)
  HTTP_REQUEST_TIMEOUT_MS?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  HTTP_MAX_CONNECTIONS?: number;

  @IsOptional()
  @IsIn(['true', 'false'])
  ALLOW_PRIVATE_PROVIDER_HOSTS?: string;

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
  RATE_LIMIT_WRITES_PER_CREDENTIAL?: number;

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
