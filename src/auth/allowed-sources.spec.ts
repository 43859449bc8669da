import { isInNetworks } from '../common/networks';
import { readAllowedSources } from './allowed-sources';

function sourcesOf(value: unknown): string[] {
  const reading = readAllowedSources(value);
  if ('refusal' in reading) throw new Error(reading.refusal);
  return reading.sources;
}

function refusalOf(value: unknown): string {
  const reading = readAllowedSources(value);
  if (!('refusal' in reading)) throw new Error(`taken: ${reading.sources.join(', ')}`);
  return reading.refusal;
}

describe('readAllowedSources', () => {
  it('should answer IPv4 as given, IPv6 in RFC 5952 form, and each prefix as given', () => {
    expect(sourcesOf(['203.0.113.7', '198.51.100.0/24', '2001:DB8:0:0:0:0:0:1', '2001:db8:0:0::/64', '10.0.0.0/8'])).toEqual([
      '203.0.113.7',
      '198.51.100.0/24',
      '2001:db8::1',
      '2001:db8::/64',
      '10.0.0.0/8',
    ]);
  });

  it('should take overlapping networks and a host beside its /32', () => {
    expect(sourcesOf(['10.0.0.0/8', '10.1.0.0/16', '10.1.2.3', '10.1.2.3/32'])).toEqual([
      '10.0.0.0/8',
      '10.1.0.0/16',
      '10.1.2.3',
      '10.1.2.3/32',
    ]);
  });

  it('should take 20 entries and the widest prefixes, /8 and /7', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => `192.0.2.${i}`);
    expect(sourcesOf(twenty)).toHaveLength(20);
    expect(sourcesOf(['11.0.0.0/8', 'fc00::/7'])).toEqual(['11.0.0.0/8', 'fc00::/7']);
  });

  it.each([
    ['an empty list', []],
    ['21 entries', Array.from({ length: 21 }, (_, i) => `192.0.2.${i}`)],
    ['a text', '203.0.113.7'],
    ['an object', { source: '203.0.113.7' }],
  ])('should refuse %s', (_case, value) => {
    expect(refusalOf(value)).toBe('allowedSources must be null or a list of 1 to 20 addresses or CIDRs');
  });

  it.each([
    ['a leading zero', '010.0.0.1'],
    ['a short IPv4 form', '10.1'],
    ['a number', 167772161],
    ['a name', 'proxy.example.com'],
    ['a port', '203.0.113.7:443'],
    ['a zone', 'fe80::1%eth0'],
    ['a prefix past 32', '203.0.113.7/33'],
    ['a prefix with a leading zero', '10.0.0.0/08'],
    ['an empty prefix', '10.0.0.0/'],
    ['a space', ' 203.0.113.7'],
  ])('should refuse %s, naming the entry', (_case, entry) => {
    expect(refusalOf(['192.0.2.1', entry])).toBe(
      'allowedSources[1] must be an IPv4 address (four decimal parts without leading zeros) or an IPv6 address, with an optional /prefix',
    );
  });

  it.each([
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['an IPv4 /7', '10.0.0.0/7'],
    ['an IPv6 /6', 'fc00::/6'],
  ])('should refuse %s as too wide', (_case, entry) => {
    expect(refusalOf([entry])).toBe('allowedSources[0] covers too many addresses: a prefix is /8 to /32 for IPv4, /7 to /128 for IPv6');
  });

  it('should refuse bits set below the prefix, naming the network', () => {
    expect(refusalOf(['10.1.2.3/16'])).toBe('allowedSources[0] has bits set below its prefix /16: its network is 10.1.0.0/16');
    expect(refusalOf(['2001:db8::1/64'])).toBe('allowedSources[0] has bits set below its prefix /64: its network is 2001:db8::/64');
  });

  it('should refuse an IPv4-mapped IPv6 address', () => {
    expect(refusalOf(['::ffff:203.0.113.7'])).toBe('allowedSources[0] is an IPv4-mapped IPv6 address: write the IPv4 address');
  });

  it('should refuse the same network twice, however its IPv6 is spelled', () => {
    expect(refusalOf(['203.0.113.7', '203.0.113.7'])).toBe('allowedSources[1] repeats allowedSources[0] (203.0.113.7)');
    expect(refusalOf(['192.0.2.1', '2001:db8::/32', '2001:DB8:0::/32'])).toBe(
      'allowedSources[2] repeats allowedSources[1] (2001:db8::/32)',
    );
  });

  it('should give networks that hold the addresses inside and no other, ports and IPv4-mapped callers read as the address', () => {
    const reading = readAllowedSources(['198.51.100.0/24', '2001:db8::/64']);
    if ('refusal' in reading) throw new Error(reading.refusal);
    expect(
      ['198.51.100.9', '198.51.100.9:51234', '::ffff:198.51.100.9', '2001:db8::5', '[2001:db8::5]:443'].map((a) =>
        isInNetworks(a, reading.networks),
      ),
    ).toEqual([true, true, true, true, true]);
    expect(['198.51.101.9', '2001:db8:0:1::5', 'not an address'].map((a) => isInNetworks(a, reading.networks))).toEqual([
      false,
      false,
      false,
    ]);
  });
});
