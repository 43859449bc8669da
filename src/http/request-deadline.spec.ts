import Fastify from 'fastify';
import { enforceRequestDeadline } from './request-deadline';

describe('enforceRequestDeadline', () => {
  const build = () => {
    const fastify = Fastify();
    enforceRequestDeadline(fastify, 100, 10);
    fastify.get('/fast', () => Promise.resolve({ ok: true }));
    fastify.get('/hung', () => new Promise(() => undefined));
    fastify.get('/late', async (_request, reply) => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      return reply.send({ late: true });
    });
    return fastify;
  };

  it('should pass a timely answer through', async () => {
    const answer = await build().inject({ method: 'GET', url: '/fast' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ ok: true });
  });

  it('should answer 503 in the envelope when the handler never answers', async () => {
    const started = Date.now();
    const answer = await build().inject({ method: 'GET', url: '/hung' });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(95);
    expect(waited).toBeLessThan(1000);
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ status: 503, error: 'Service temporarily unavailable, retry later' });
  });

  it('should keep the 503 when the handler answers after the deadline', async () => {
    const fastify = build();
    const answer = await fastify.inject({ method: 'GET', url: '/late' });
    expect(answer.statusCode).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await fastify.inject({ method: 'GET', url: '/fast' })).statusCode).toBe(200);
  });

  it('should answer every hung request, whatever order they arrived in, and forget the answered ones', async () => {
    const fastify = build();
    const answers = await Promise.all([
      fastify.inject({ method: 'GET', url: '/hung' }),
      fastify.inject({ method: 'GET', url: '/fast' }),
      fastify.inject({ method: 'GET', url: '/hung' }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([503, 200, 503]);
    await fastify.close();
  });
});
