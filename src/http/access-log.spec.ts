import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { logAnswer } from './access-log';

const GET_CLIENT = '/api/client/get/secretKey';

interface Line {
  level: number;
  statusCode: number;
  route: string;
  sourceAddress: string | null;
}

function linesLoggedAt(level: string, statusCode: number, options: { isDraining?: boolean; route?: string; ip?: string } = {}): Line[] {
  const lines: string[] = [];
  const logger = pino({ level }, { write: (line: string) => lines.push(line) });
  const route = options.route ?? '/api/v1/sms-configs/:smsConfigId';
  const request = {
    id: 'r-1',
    method: 'POST',
    url: route,
    ip: options.ip ?? '203.0.113.7',
    raw: { headers: {} },
    routeOptions: { url: route },
  };
  const done = jest.fn();
  const hook = logAnswer(logger, () => options.isDraining ?? false, [GET_CLIENT]);
  hook.call({} as FastifyInstance, request as unknown as FastifyRequest, { statusCode, elapsedTime: 1.5 } as FastifyReply, done);
  expect(done).toHaveBeenCalledTimes(1);
  return lines.map((line) => JSON.parse(line) as Line);
}

describe('logAnswer', () => {
  it('should write an answered request at info, the default level, with the address it came from', () => {
    expect(linesLoggedAt('info', 200)).toEqual([expect.objectContaining({ level: 30, statusCode: 200, sourceAddress: '203.0.113.7' })]);
    expect(linesLoggedAt('info', 304, { ip: '::ffff:198.51.100.23' })).toEqual([
      expect.objectContaining({ level: 30, statusCode: 304, sourceAddress: '198.51.100.23' }),
    ]);
  });

  it('should write answered get-client reads, /health and /metrics at debug only', () => {
    for (const route of [GET_CLIENT, '/health', '/metrics']) {
      expect(linesLoggedAt('info', 200, { route })).toEqual([]);
      expect(linesLoggedAt('debug', 200, { route })).toEqual([expect.objectContaining({ level: 20, route })]);
    }
  });

  it('should write a refusal at warn and a failure at error, at info, quiet routes included', () => {
    for (const route of ['/api/v1/clients', GET_CLIENT, '/health']) {
      expect(linesLoggedAt('info', 404, { route })).toEqual([expect.objectContaining({ level: 40, statusCode: 404 })]);
      expect(linesLoggedAt('info', 500, { route })).toEqual([expect.objectContaining({ level: 50, statusCode: 500 })]);
    }
  });

  it('should write a 503 at info while the service drains before a stop, at error otherwise', () => {
    expect(linesLoggedAt('info', 503, { isDraining: true })).toEqual([expect.objectContaining({ level: 30, statusCode: 503 })]);
    expect(linesLoggedAt('info', 503, { isDraining: false })).toEqual([expect.objectContaining({ level: 50, statusCode: 503 })]);
  });

  it('should write a request from no known address (a proxy forwarding text) with sourceAddress null', () => {
    expect(linesLoggedAt('info', 200, { ip: 'unknown' })).toEqual([expect.objectContaining({ sourceAddress: null })]);
  });
});
