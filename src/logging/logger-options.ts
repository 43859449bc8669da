import pino from 'pino';
import { CREDENTIAL_FIELDS } from '../auth/credential-headers';
import { AppConfig } from '../config/app-config';
import { configuredSecrets } from '../config/configured-secrets';
import { REDACTED, SecretScrubber } from './secret-scrubber';
import { turnBatchedDestination } from './turn-batched-destination';

const SECRET_FIELDS = ['password', 'apiKey', 'secretKey'];
const DEPTHS = ['', '*.', '*.*.', '*.*.*.'];

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
  file?: string;
  secrets?: string[];
}

export interface Loggers {
  root: pino.Logger;
  // No redaction: http/access-log.ts builds its line from fields that hold no credential.
  access: pino.Logger;
}

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
