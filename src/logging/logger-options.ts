import type { IncomingMessage, ServerResponse } from 'node:http';
import { Params } from 'nestjs-pino';

/** Credentials never reach a log line, wherever they appear. */
export const REDACTED_PATHS = [
  'req.headers.secretkey',
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  '*.password',
  '*.apiKey',
  '*.secretKey',
  '*.*.password',
  '*.*.apiKey',
  '*.*.secretKey',
];

type RoutedRequest = IncomingMessage & { id?: string; routePattern?: string };

function withRoute(req: IncomingMessage, line: Record<string, unknown>): Record<string, unknown> {
  line.route = (req as RoutedRequest).routePattern;
  return line;
}

export function buildLoggerOptions(level: string, pretty: boolean): Params {
  return {
    pinoHttp: {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      transport: pretty ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
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
    },
  };
}
