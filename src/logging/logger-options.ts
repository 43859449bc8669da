import pino from 'pino';
import { CREDENTIAL_FIELDS } from '../auth/credential-headers';
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
}

export function buildPinoOptions({ level, pretty, file }: LoggingConfig): pino.LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    transport: pretty ? { target: 'pino-pretty', options: { singleLine: true, ...(file ? { destination: file } : {}) } } : undefined,
  };
}

/** The one pino logger of the application: Nest's own logs and the per-request lines both write through it. */
export function createRootLogger(config: LoggingConfig): pino.Logger {
  const options = buildPinoOptions(config);
  if (config.pretty) return pino(options);
  return pino(options, turnBatchedDestination(config.file ? { dest: config.file, mkdir: true } : { dest: 1 }));
}
