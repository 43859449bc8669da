import { NEVER_PUBLIC_SUFFIXES, isNeverPublicName } from './never-public-names';

describe('isNeverPublicName', () => {
  it.each(NEVER_PUBLIC_SUFFIXES)('should take %s itself, a name under it, and either with a trailing dot', (suffix) => {
    expect(isNeverPublicName(suffix)).toBe(true);
    expect(isNeverPublicName(`sms.${suffix}`)).toBe(true);
    expect(isNeverPublicName(`a.b.${suffix}.`)).toBe(true);
  });

  it.each([
    ['onion', 'Tor onion services'],
    ['alt', 'names outside the DNS'],
    ['localhost.direct', 'a wildcard-DNS service'],
    ['traefik.me', 'a wildcard-DNS service'],
    ['local.gd', 'a wildcard-DNS service'],
    ['1u.ms', 'a wildcard-DNS service'],
  ])('should take %s (%s) itself and a name under it', (suffix) => {
    expect(isNeverPublicName(suffix)).toBe(true);
    expect(isNeverPublicName(`sms.${suffix}`)).toBe(true);
    expect(isNeverPublicName(`10.0.0.1.${suffix}.`)).toBe(true);
  });

  it.each([
    ['example', 'sms.example'],
    ['test', 'sms.test'],
    ['invalid', 'sms.invalid'],
    ['a public name', 'api.twilio.com'],
    ['a name that only ends in the same letters', 'notlocalhost.com'],
    ['a suffix as a first label', 'internal.example.com'],
    ['a label ending like a suffix', 'mylan.example'],
    ['a wildcard-DNS look-alike', 'nip.io.example.com'],
    ['a last label that only ends in onion', 'sms.notonion'],
    ['alt as a first label', 'alt.example.com'],
    ['a last label ending in alt', 'sms.cobalt'],
    ['a name that only ends in local.gd', 'notlocal.gd'],
    ['a name that only ends in 1u.ms', 'x1u.ms'],
    ['traefik.me as first labels', 'traefik.me.example.com'],
    ['the parent of localhost.direct', 'direct'],
    ['an IPv4 address', '10.0.0.1'],
    ['an IPv6 address', '::1'],
  ])('should not take %s (%s)', (_case, name) => {
    expect(isNeverPublicName(name)).toBe(false);
  });
});
