import { createHash, createHmac, randomBytes } from 'node:crypto';
import { EncryptionKey } from '../config/app-config';
import { RequestDigests } from './request-digests';

const keyA: EncryptionKey = { id: 'kidA', key: randomBytes(32) };
const keyB: EncryptionKey = { id: 'kidB', key: randomBytes(32) };
const REQUEST = 'POST /api/sms-config/add\n{"providerName":"p","password":"correct horse battery staple"}';

describe('RequestDigests', () => {
  it('should make the same 64-hex digest of the same request under the same key, named by that key', () => {
    const digests = new RequestDigests([keyA, keyB]);
    const digest = digests.digest(REQUEST);
    expect(digest).toEqual({ keyId: 'kidA', digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(new RequestDigests([keyA]).digest(REQUEST)).toEqual(digest);
    expect(digests.currentKeyId).toBe('kidA');
  });

  it('should make different digests under two keys, and of two requests under one key', () => {
    const digests = new RequestDigests([keyA, keyB]);
    expect(digests.digest(REQUEST, 'kidB')!.digest).not.toBe(digests.digest(REQUEST, 'kidA')!.digest);
    expect(digests.digest(`${REQUEST} `).digest).not.toBe(digests.digest(REQUEST).digest);
  });

  it('should recompute a digest under an older key once a new key is first', () => {
    const before = new RequestDigests([keyA]).digest(REQUEST);
    const after = new RequestDigests([keyB, keyA]);
    expect(after.digest(REQUEST).keyId).toBe('kidB');
    expect(after.digest(REQUEST, before.keyId)).toEqual(before);
  });

  it('should never be a plain SHA-256 of the request, nor an HMAC under the configured key itself', () => {
    const { digest } = new RequestDigests([keyA]).digest(REQUEST);
    expect(digest).not.toBe(createHash('sha256').update(REQUEST).digest('hex'));
    expect(digest).not.toBe(createHash('sha256').update(REQUEST.split('\n')[1]).digest('hex'));
    expect(digest).not.toBe(createHmac('sha256', keyA.key).update(REQUEST).digest('hex'));
  });

  it('should answer null for a key id that is not listed', () => {
    expect(new RequestDigests([keyA]).digest(REQUEST, 'kidB')).toBeNull();
  });
});
