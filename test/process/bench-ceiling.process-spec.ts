// npm run bench's ceiling with operations runs the built service's own hooks: a file they move must not break the bench.
const { buildCeilingServer, SAMPLE_SECRET_KEY } = require('../../bench/ceiling-server.js');

describe("the bench's ceiling with the service's per-answer work", () => {
  it('should load the hooks from dist/ and answer with their headers', async () => {
    const app = buildCeilingServer({ operations: true });
    try {
      const known = await app.inject({ method: 'POST', url: '/api/client/get/secretKey', headers: { secretkey: SAMPLE_SECRET_KEY } });
      expect(known.statusCode).toBe(200);
      expect(known.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(known.headers['cache-control']).toBe('no-store');
      const unknown = await app.inject({ method: 'POST', url: '/api/client/get/secretKey', headers: { secretkey: 'sk_other' } });
      expect(unknown.statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
