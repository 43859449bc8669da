import { callerAddressOf, sourceAddressOf, userAgentOf } from './caller-trace';

describe('callerAddressOf', () => {
  it('should drop the port a proxy appended to an IPv4 address or a bracketed IPv6 one', () => {
    expect(callerAddressOf('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(callerAddressOf('[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(callerAddressOf('[2001:db8::1]')).toBe('2001:db8::1');
    expect(callerAddressOf('[::ffff:198.51.100.23]:80')).toBe('::ffff:198.51.100.23');
  });

  it('should keep an address without a port, and anything else, as given', () => {
    for (const given of [
      '203.0.113.7',
      '2001:db8::1',
      '2001:db8::1:443',
      '::ffff:198.51.100.23',
      '',
      'unknown',
      'unknown:80',
      '203.0.113.7:',
      '203.0.113.7:port',
      '203.0.113.7:123456',
      '[203.0.113.7]:80',
      '2001:db8::1]:443',
      '[2001:db8::1:443',
      '01.2.3.4:80',
      '203.0.113.7:80, 10.0.0.1',
    ]) {
      expect({ given, address: callerAddressOf(given) }).toEqual({ given, address: given });
    }
  });
});

describe('sourceAddressOf', () => {
  it('should keep an IPv4 address as it is, and write an IPv4-mapped IPv6 address as the IPv4 one', () => {
    expect(sourceAddressOf('203.0.113.7')).toBe('203.0.113.7');
    expect(sourceAddressOf('::ffff:198.51.100.23')).toBe('198.51.100.23');
    expect(sourceAddressOf('::FFFF:c633:6417')).toBe('198.51.100.23');
  });

  it('should keep the full IPv6 address, in its short form, never the /64 the limits count', () => {
    expect(sourceAddressOf('2001:db8:77:1::2a')).toBe('2001:db8:77:1::2a');
    expect(sourceAddressOf('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
  });

  it('should write an address a proxy appended its port to as the address', () => {
    expect(sourceAddressOf('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(sourceAddressOf('[2001:DB8::1]:443')).toBe('2001:db8::1');
    expect(sourceAddressOf('[::ffff:198.51.100.23]:80')).toBe('198.51.100.23');
  });

  it('should take what is not an address (a forwarded header as given) as no address', () => {
    for (const given of [
      undefined,
      '',
      'unknown',
      '203.0.113.7, 10.0.0.1',
      'sk_' + 'a'.repeat(43),
      '01.2.3.4',
      ' 1.2.3.4',
      'fe80::1%eth0.5',
    ]) {
      expect({ given, address: sourceAddressOf(given) }).toEqual({ given, address: null });
    }
  });
});

describe('userAgentOf', () => {
  // Words apart: a run of 40 letters would be key-like, and stored as null.
  const words = (count: number) => 'agent '.repeat(Math.ceil(count / 6)).slice(0, count);

  it('should keep a user agent of at most 200 printable characters as sent', () => {
    expect(userAgentOf({ 'user-agent': 'curl/8.5.0' })).toBe('curl/8.5.0');
    expect(userAgentOf({ 'user-agent': words(200) })).toBe(words(200));
  });

  it('should cut a longer one to 200 characters and replace what does not print, never refuse it', () => {
    expect(userAgentOf({ 'user-agent': words(5000) })).toBe(`${words(199)}…`);
    expect(userAgentOf({ 'user-agent': 'evil\u001b[31m\u202eagent' })).toBe('evil?[31m?agent');
  });

  it('should be null when it holds a run of 40 characters a key is made of, as the logs redact; 39 are kept', () => {
    const keyLike = `sk_${'Ab1-'.repeat(9)}_`;
    expect(keyLike).toHaveLength(40);
    expect(userAgentOf({ 'user-agent': `curl/8 ${keyLike}` })).toBeNull();
    expect(userAgentOf({ 'user-agent': `curl/8 ${keyLike.slice(0, 39)}` })).toBe(`curl/8 ${keyLike.slice(0, 39)}`);
    expect(userAgentOf({ 'user-agent': `${'agent '.repeat(40)}${keyLike}` })).toBeNull();
    expect(userAgentOf({ 'user-agent': `${'a'.repeat(20)}.${'a'.repeat(20)}` })).toBe(`${'a'.repeat(20)}.${'a'.repeat(20)}`);
  });

  it('should be null when none is sent, or an empty one', () => {
    expect(userAgentOf({})).toBeNull();
    expect(userAgentOf({ 'user-agent': '' })).toBeNull();
  });
});
