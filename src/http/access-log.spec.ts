import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { logAnswer } from './access-log';

function linesLoggedAt(level: string, statusCode: number, isDraining = false): Array<{ level: number; statusCode: number }> {
  const lines: string[] = [];
  const logger = pino({ level }, { write: (line: string) => lines.push(line) });
  const request = {
    id: 'r-1',
    method: 'POST',
    url: '/api/client/get/secretKey',
    raw: { headers: {} },
    routeOptions: { url: '/api/client/get/secretKey' },
  };
  const done = jest.fn();
  const hook = logAnswer(logger, () => isDraining);
  hook.call({} as FastifyInstance, request as unknown as FastifyRequest, { statusCode, elapsedTime: 1.5 } as FastifyReply, done);
  expect(done).toHaveBeenCalledTimes(1);
  return lines.map((line) => JSON.parse(line) as { level: number; statusCode: number });
}

describe('logAnswer', () => {
  it('should write no line for an answered request at info, the default level', () => {
    expect(linesLoggedAt('info', 200)).toEqual([]);
    expect(linesLoggedAt('info', 304)).toEqual([]);
  });

  it('should write an answered request at debug', () => {
    expect(linesLoggedAt('debug', 200)).toEqual([expect.objectContaining({ level: 20, statusCode: 200 })]);
  });

  it('should write a refusal at warn and a failure at error, at info', () => {
    expect(linesLoggedAt('info', 404)).toEqual([expect.objectContaining({ level: 40, statusCode: 404 })]);
    expect(linesLoggedAt('info', 500)).toEqual([expect.objectContaining({ level: 50, statusCode: 500 })]);
  });

  it('should write a 503 at info while the service drains before a stop, at error otherwise', () => {
    expect(linesLoggedAt('info', 503, true)).toEqual([expect.objectContaining({ level: 30, statusCode: 503 })]);
    expect(linesLoggedAt('info', 503, false)).toEqual([expect.objectContaining({ level: 50, statusCode: 503 })]);
  });
});
