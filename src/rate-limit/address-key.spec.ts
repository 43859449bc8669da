import { addressKeyOf } from './address-key';

describe('addressKeyOf', () => {
  it('should count an IPv4 address as itself', () => {
    expect(addressKeyOf('203.0.113.7')).toBe('203.0.113.7');
  });

  it('should count every address of one IPv6 /64 as one caller', () => {
    expect(addressKeyOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKeyOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKeyOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('should count an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(addressKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('should count an address a proxy appended its port to as the address, whatever the port', () => {
    expect(addressKeyOf('203.0.113.7:1')).toBe('203.0.113.7');
    expect(addressKeyOf('203.0.113.7:2')).toBe('203.0.113.7');
    expect(addressKeyOf('[2001:db8:1:2::1]:443')).toBe('2001:db8:1:2::/64');
    expect(addressKeyOf('[::ffff:203.0.113.7]:80')).toBe('203.0.113.7');
  });

  it('should keep what is not an address as it is', () => {
    expect(addressKeyOf('')).toBe('');
  });
});
