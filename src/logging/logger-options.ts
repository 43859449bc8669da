import pino from 'pino';
import { CREDENTIAL_FIELDS } from '../auth/credential-headers';
import { AppConfig } from '../config/app-config';
import { configuredSecrets } from '../config/configured-secrets';
import { REDACTED, SecretScrubber } from './secret-scrubber';
import { turnBatchedDestination } from './turn-batched-destination';

/** Body fields that hold a secret, at any depth an error log line puts them. */
const SECRET_FIELDS = ['password', 'apiKey', 'secretKey'];
const DEPTHS = ['', '*.', '*.*.', '*.*.*.'];

/** Credentials never reach a log line, wherever they appear (error lines, driver errors, anything logged by hand). */
export const REDACTED_PATHS = [
  ...CREDENTIAL_FIELDS.flatMap((field) => [`req.headers["${field}"]`, `headers["${field}"]`]),
  ...DEPTHS.flatMap((depth) => SECRET_FIELDS.map((field) => `${depth}${field}`)),
  // A failed query carries its parameters and (mysql2) its SQL with the values inlined.
  'err.parameters',
  'err.sql',
  'err.driverError.parameters',
  'err.driverError.sql',
];

export interface LoggingConfig {
  level: string;
  pretty: boolean;
  /** Write to this file instead of stdout (tests read their logs back from it). */
  file?: string;
  /** Configured values no line may show (ConfigService's configuredSecrets()). */
  secrets?: string[];
}

/** The application's loggers, writing to one destination. */
export interface Loggers {
  /** Nest's own logs, errors, warnings: redacted by path, and every string scrubbed of anything like a credential. */
  root: pino.Logger;
  /** The edge's one line per request: built from fields that hold no credential (see http/access-log.ts), so as lean as pino goes. */
  access: pino.Logger;
}

/** The root logger's options: pretty output is chosen by the destination (createLoggers), not here. */
export function buildPinoOptions({ level, secrets = [] }: LoggingConfig): pino.LoggerOptions {
  const scrubber = new SecretScrubber(secrets);
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    serializers: { err: (error: unknown) => scrubber.scrubDeep(error) },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => scrubber.scrubDeep(arg)) as Parameters<pino.LogFn>);
      },
    },
  };
}

/** The logging settings of a configuration. */
export function loggingConfigOf(config: AppConfig): LoggingConfig {
  return { level: config.logLevel, pretty: config.prettyLogs, file: config.logFile, secrets: configuredSecrets(config) };
}

export function createLoggers(config: LoggingConfig): Loggers {
  const destination = config.pretty
    ? pino.transport({ target: 'pino-pretty', options: { singleLine: true, ...(config.file ? { destination: config.file } : {}) } })
    : turnBatchedDestination(config.file ? { dest: config.file, mkdir: true } : { dest: 1 });
  return {
    root: pino(buildPinoOptions(config), destination),
    access: pino({ level: config.level }, destination),
  };
}
