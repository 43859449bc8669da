import { randomBytes } from 'node:crypto';
import { EncryptionKey } from '../config/app-config';
import { SealContext, SecretSealer, UnsealError } from './secret-sealer';

const keyB: EncryptionKey = { id: 'kidB', key: randomBytes(32) };
const HERE: SealContext = { table: 'sms_config', column: 'password_sealed', owner: 7 };

/** keyA of test/helpers/test-app.ts, under which the v1 vectors below were sealed. */
const legacyKey: EncryptionKey = { id: 'keyA', key: Buffer.from(Array.from({ length: 32 }, (_, index) => (index * 37 + 11) % 256)) };
/** Sealed once by SecretSealer v1 (the configured key itself, no binding to a row): kept here, not regenerated. */
const V1_PASSWORD = 'keyA:9nUVKuWTWnE-Xa2PfgFDJ1o2wPtzoQbnPKl47TKV1RuzCAXrr3yhXd31QFhxvw_7mg'; // 'password-sealed-by-v1'
const V1_API_KEY_FINGERPRINT = 'rYOsUGB-sMHajbi5kUSzSwcdNngJ6Ek4JqasHZTLdis'; // of 'api-key-sealed-by-v1'
/** A verifyApiKey issued by v1 for smsConfigId 42, clientId 7 and V1_API_KEY_FINGERPRINT. */
const V1_TOKEN = 'BGtleUF2EcVxDdv4wy-72KoyHd_zQS2sI7bzU_x_vB45NxZu5BvQnlSr682mKFdy83D8IEwoXavB-VOGTYB2TDQ-MeIYYEoxacgah4IsdyOYf2tNbw';

describe('SecretSealer', () => {
  describe('values sealed before v2', () => {
    const sealer = new SecretSealer([legacyKey]);

    it('should open a v1 field, whatever the context, since v1 bound none', () => {
      expect(sealer.open(V1_PASSWORD, HERE)).toBe('password-sealed-by-v1');
      expect(sealer.open(V1_PASSWORD, { table: 'sms_config', column: 'api_key_sealed', owner: 99 })).toBe('password-sealed-by-v1');
    });

    it('should open a v1 field after a new key is put first', () => {
      expect(new SecretSealer([keyB, legacyKey]).open(V1_PASSWORD, HERE)).toBe('password-sealed-by-v1');
    });

    it('should reject a v1 field in which any byte was altered', () => {
      const bytes = Buffer.from(V1_PASSWORD.slice('keyA:'.length), 'base64url');
      for (let index = 0; index < bytes.length; index++) {
        const altered = Buffer.from(bytes);
        altered[index] ^= 0x01;
        expect(() => sealer.open(`keyA:${altered.toString('base64url')}`, HERE)).toThrow(UnsealError);
      }
    });

    it('should not open a v2 field whose version marker was removed, nor one marked with an unknown version', () => {
      const sealed = sealer.seal('current format', HERE);
      expect(() => sealer.open(sealed.replace(':v2:', ':'), HERE)).toThrow(UnsealError);
      expect(() => sealer.open(sealed.replace(':v2:', ':v3:'), HERE)).toThrow(new UnsealError('sealed in an unknown format'));
    });

    it('should open a v1 verifyApiKey token, with the fingerprint of its apiKey under its key', () => {
      expect(sealer.openVerifyApiKey(V1_TOKEN)).toEqual({
        smsConfigId: 42,
        clientId: 7,
        apiKeyFingerprint: V1_API_KEY_FINGERPRINT,
        keyId: expect.any(String),
        issue: null,
      });
      expect(new SecretSealer([keyB, legacyKey]).fingerprint('api-key-sealed-by-v1', 'keyA')).toBe(V1_API_KEY_FINGERPRINT);
    });

    it('should reject a v1 token in which any byte was altered, or which was given the v2 version byte', () => {
      const bytes = Buffer.from(V1_TOKEN, 'base64url');
      for (let index = 0; index < bytes.length; index++) {
        const altered = Buffer.from(bytes);
        altered[index] ^= 0x01;
        expect(() => sealer.openVerifyApiKey(altered.toString('base64url'))).toThrow(UnsealError);
      }
      expect(() => sealer.openVerifyApiKey(Buffer.concat([Buffer.of(0xf2), bytes]).toString('base64url'))).toThrow(UnsealError);
    });
  });
});
