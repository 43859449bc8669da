import pino from 'pino';
import { turnBatchedDestination } from './turn-batched-destination';

/** Credentials never reach a log line, wherever they appear (error lines, driver errors, anything logged by hand). */
export const REDACTED_PATHS = [
  'req.headers.secretkey',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers.secretkey',
  'headers["x-api-key"]',
  'password',
  'apiKey',
  'secretKey',
  '*.password',
  '*.apiKey',
  '*.secretKey',
  '*.*.password',
  '*.*.apiKey',
  '*.*.secretKey',
  '*.*.*.password',
  '*.*.*.apiKey',
  '*.*.*.secretKey',
  // A failed query carries its parameters and (mysql2) its SQL with the values inlined.
  'err.parameters',
  'err.sql',
  'err.driverError.parameters',
  'err.driverError.sql',
];

/** The label of a request no route matched, so 404 scans cannot create a log field or metric label per URL. */
export const UNMATCHED_ROUTE = 'unmatched';

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
