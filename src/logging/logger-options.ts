import type { IncomingMessage, ServerResponse } from 'node:http';
import { Params } from 'nestjs-pino';
import pino from 'pino';

/** Credentials never reach a log line, wherever they appear (access lines, error lines, driver errors). */
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

type RoutedRequest = IncomingMessage & { id?: string; routePattern?: string };

function withRoute(req: IncomingMessage, line: Record<string, unknown>): Record<string, unknown> {
  line.route = (req as RoutedRequest).routePattern ?? UNMATCHED_ROUTE;
  return line;
}

export interface LoggingConfig {
  level: string;
  pretty: boolean;
  /** Write to this file instead of stdout (tests read their logs back from it). */
  file?: string;
}

export function buildLoggerOptions({ level, pretty, file }: LoggingConfig): Params {
  const options: NonNullable<Exclude<Params['pinoHttp'], unknown[]>> = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    transport: pretty ? { target: 'pino-pretty', options: { singleLine: true, ...(file ? { destination: file } : {}) } } : undefined,
    // One line per request, when it is answered: its id, route, status and duration (added by pino-http).
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    serializers: {
      req: (req: RoutedRequest) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
    // The route is added to the line itself, not bound with customProps: that costs pino a child logger per request.
    customSuccessObject: (req, _res, line: Record<string, unknown>) => withRoute(req, line),
    customErrorObject: (req, _res, _error, line: Record<string, unknown>) => withRoute(req, line),
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
  };
  if (file && !pretty) return { pinoHttp: [options, pino.destination({ dest: file, sync: true, mkdir: true })] };
  return { pinoHttp: options };
}
