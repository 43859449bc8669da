import { UnauthorizedException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { KeyUsageNotes } from '../key-usage/key-usage-notes';
import { AddressAllowance } from '../rate-limit/address-allowance';
import { CredentialRateLimit } from '../rate-limit/credential-rate-limit';
import { FixedWindowThrottlerStorage } from '../rate-limit/fixed-window.storage';
import { KeyNotAdmitted, SecretKeyAdmission } from './secret-key-admission';

const SECRET_KEY = `sk_${'a'.repeat(43)}`;
const config = {
  get: () => ({ windowMs: 60_000, perCredential: 2, perIp: 1_000_000, failedAuthPerIp: 1 }),
} as unknown as ConfigService<AppConfig, true>;

describe('SecretKeyAdmission', () => {
  let addresses: AddressAllowance;
  let storage: FixedWindowThrottlerStorage;
  let keyUsage: KeyUsageNotes;
  let admission: SecretKeyAdmission;

  beforeEach(() => {
    addresses = new AddressAllowance(config);
    storage = new FixedWindowThrottlerStorage();
    keyUsage = new KeyUsageNotes();
    admission = new SecretKeyAdmission(addresses, new CredentialRateLimit(storage, config), keyUsage);
  });

  it('should admit a single well-formed key, and say why it admits no other, counting nothing', () => {
    expect(admission.presentedKey('192.0.2.1', { secretkey: SECRET_KEY })).toBe(SECRET_KEY);
    expect(admission.presentedKey('192.0.2.1', {})).toBe(KeyNotAdmitted.Missing);
    expect(admission.presentedKey('192.0.2.1', { secretkey: '' })).toBe(KeyNotAdmitted.Missing);
    expect(admission.presentedKey('192.0.2.1', { secretkey: [SECRET_KEY, SECRET_KEY] })).toBe(KeyNotAdmitted.Missing);
    expect(admission.presentedKey('192.0.2.1', { secretKey: SECRET_KEY })).toBe(KeyNotAdmitted.Missing);
    expect(admission.presentedKey('192.0.2.1', { secretkey: `${SECRET_KEY}=` })).toBe(KeyNotAdmitted.Malformed);
    expect(addresses.size).toBe(0);
    expect(storage.size).toBe(0);
    expect(keyUsage.size).toBe(0);
  });

  it('should refuse an address blocked for its refusals first, whatever key it sends', () => {
    addresses.refuse('203.0.113.7', new UnauthorizedException());
    addresses.refuse('203.0.113.7', new UnauthorizedException());
    for (const headers of [{ secretkey: SECRET_KEY }, {}, { secretkey: 'not-a-key' }]) {
      expect(admission.presentedKey('203.0.113.7', headers)).toBe(KeyNotAdmitted.AddressBlocked);
    }
    expect(admission.presentedKey('203.0.113.8', { secretkey: SECRET_KEY })).toBe(SECRET_KEY);
  });

  it('should note the use of an admitted key before counting it, and say how long to wait once it is past its limit', () => {
    expect(admission.admit('d1', 'root', '203.0.113.7')).toBe(0);
    expect(admission.admit('d1', 'root', '203.0.113.7')).toBe(0);
    expect(admission.admit('d2', 'root', '203.0.113.7')).toBe(0);
    keyUsage.take();
    expect(admission.admit('d1', 'root', '198.51.100.23')).toBe(60);
    expect([...keyUsage.take()]).toEqual([['d1', { shape: 'root', usedAt: expect.any(Number), ip: '198.51.100.23' }]]);
  });
});
