import { SecretScrubber } from './secret-scrubber';

describe('SecretScrubber', () => {
  const secretKey = `sk_${'A1b2_-'.repeat(7)}x`;
  const digest = 'ab'.repeat(32);
  const token = 'T0k-'.repeat(20);
  const scrubber = new SecretScrubber(['admin-key-of-the-operator', 'db-password', 'k1', 'c2VjcmV0LWtleQ==']);

  it('should remove secret keys, digests and tokens from any text', () => {
    const text = `Duplicate entry '${digest}' for key; presented ${secretKey}; token ${token}.`;
    const scrubbed = scrubber.scrub(text);
    expect(scrubbed).toBe("Duplicate entry '[redacted]' for key; presented [redacted]; token [redacted].");
  });

  it('should remove every configured secret wherever it stands, but not ones too short to search for', () => {
    const scrubbed = scrubber.scrub('x-api-key admin-key-of-the-operator, mysql://u:db-password@h, key c2VjcmV0LWtleQ== k1');
    expect(scrubbed).toBe('x-api-key [redacted], mysql://u:[redacted]@h, key [redacted] k1');
  });

  it('should keep what a log line needs to be read: ids, paths, stack frames, ordinary messages', () => {
    const text = 'request 3f1c2a9e-5b7d-4c1e-9a3b-2d4e6f8a0b1c at /api/client/get/secretKey (src/client/client.service.ts:42:7)';
    expect(scrubber.scrub(text)).toBe(text);
  });

  it('should scrub an error’s message, stack and nested driver error, keeping its shape', () => {
    const driverError = Object.assign(new Error(`Duplicate entry '${digest}'`), {
      code: 'ER_DUP_ENTRY',
      sqlMessage: `Duplicate entry '${digest}'`,
    });
    const error = Object.assign(new Error(`query failed for ${secretKey} with db-password`), { driverError });
    const scrubbed = scrubber.scrubDeep({ err: error, context: 'Errors' }) as { err: Record<string, unknown>; context: string };
    const text = JSON.stringify(scrubbed);
    for (const secret of [digest, secretKey, 'db-password']) expect(text).not.toContain(secret);
    expect(scrubbed.context).toBe('Errors');
    expect(scrubbed.err).toMatchObject({ type: 'Error', message: 'query failed for [redacted] with [redacted]' });
    expect(String(scrubbed.err.stack)).toContain('query failed for [redacted]');
    expect(scrubbed.err.driverError).toMatchObject({ code: 'ER_DUP_ENTRY', sqlMessage: "Duplicate entry '[redacted]'" });
  });
});
