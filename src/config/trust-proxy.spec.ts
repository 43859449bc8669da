import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from './environment';
import { loadAppConfig } from './load-app-config';
import { trustedProxies } from './trust-proxy';

/** 32 distinct bytes and a long admin key: what a production start accepts. */
const ENCRYPTION_KEYS = `kid1:${Buffer.from(Array.from({ length: 32 }, (_, index) => index * 7)).toString('base64')}`;
const ADMIN_API_KEY = 'admin-key-of-thirty-two-characters!';
const REFUSED_IN_PRODUCTION =
  'Invalid configuration: TRUST_PROXY=true is refused when NODE_ENV=production: it trusts every peer to name the caller in ' +
  'X-Forwarded-For, so any caller could choose the address the limits count; set the addresses or CIDRs of the load balancers';

describe('TRUST_PROXY', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'trust-proxy-spec-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const env = (overrides: Record<string, string>): NodeJS.ProcessEnv => ({
    DATA_DIR: dataDir,
    ADMIN_API_KEYS: ADMIN_API_KEY,
    ENCRYPTION_KEYS,
    ...overrides,
  });

  function refusalOf(environment: NodeJS.ProcessEnv): string {
    try {
      loadAppConfig(environment);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return (error as Error).message;
    }
    throw new Error('loadAppConfig did not throw');
  }

  it('should trust no proxy by default, or with false', () => {
    expect(loadAppConfig(env({})).trustProxy).toBe(false);
    expect(loadAppConfig(env({ TRUST_PROXY: 'false', NODE_ENV: 'production' })).trustProxy).toBe(false);
  });

  it('should refuse true (any peer) in production, saying why and what to set', () => {
    expect(refusalOf(env({ TRUST_PROXY: 'true', NODE_ENV: 'production' }))).toBe(REFUSED_IN_PRODUCTION);
  });

  it('should accept true outside production', () => {
    expect(loadAppConfig(env({ TRUST_PROXY: 'true', NODE_ENV: 'development' })).trustProxy).toBe(true);
    expect(loadAppConfig(env({ TRUST_PROXY: 'true' })).trustProxy).toBe(true);
  });

  it('should take a list of addresses and CIDRs, IPv4 and IPv6, in production too, as one trimmed list', () => {
    const config = loadAppConfig(env({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16 ,::1,fd00::/8', NODE_ENV: 'production' }));
    expect(config.trustProxy).toBe('10.0.0.1,10.1.0.0/16,::1,fd00::/8');
  });

  it.each([
    ['a bare number', '1', 'TRUST_PROXY entry #1 is not an IP address or a CIDR'],
    ['an address with too many parts', '10.0.0.1, 1.2.3.4.5', 'TRUST_PROXY entry #2 is not an IP address or a CIDR'],
    ['a prefix past 32 bits', '10.0.0.0/33', 'TRUST_PROXY entry #1 is not an IP address or a CIDR'],
  ])('should refuse %s, naming the entry', (_case, value, message) => {
    expect(refusalOf(env({ TRUST_PROXY: value }))).toBe(`Invalid configuration: ${message}`);
  });

  const notAnAddress = (entry: number) => `Invalid configuration: TRUST_PROXY entry #${entry} is not an IP address or a CIDR`;
  const tooWide = (entry: number, given: string) =>
    `Invalid configuration: TRUST_PROXY entry #${entry} (${given}) trusts too many addresses: a prefix is /8 to /32 for IPv4, ` +
    '/7 to /128 for IPv6 (/104 to /128 for an IPv4-mapped one)';

  it.each([
    ['an IPv4 address of fewer than four parts (10.1/16 trusted 10.0.0.0/16)', '10.1/16', notAnAddress(1)],
    ['a part with a leading zero (010.0.0.1/32 trusted 8.0.0.1)', '010.0.0.1/32', notAnAddress(1)],
    ['a bare address with a leading zero', '010.0.0.1', notAnAddress(1)],
    ['a leading zero in the last part', '10.0.0.1, 192.168.1.010', notAnAddress(2)],
    ['a leading zero in the IPv4 part of an IPv6 address', '::ffff:010.0.0.1', notAnAddress(1)],
    ['a netmask instead of a prefix', '10.0.0.0/255.0.0.0', notAnAddress(1)],
    ['a prefix with a leading zero', '10.0.0.0/08', notAnAddress(1)],
    ['an IPv6 prefix past 128 bits', '2001:db8::/129', notAnAddress(1)],
    ['every IPv4 address (which crashed the start inside the proxy library)', '0.0.0.0/0', tooWide(1, '0.0.0.0/0')],
    ['every IPv6 address', '::/0', tooWide(1, '::/0')],
    ['every IPv4 address in two halves', '0.0.0.0/1,128.0.0.0/1', tooWide(1, '0.0.0.0/1')],
    ['an IPv4 prefix of 7 bits', '10.0.0.1, 10.0.0.0/7', tooWide(2, '10.0.0.0/7')],
    ['an IPv6 prefix of 6 bits', '2001:db8::/6', tooWide(1, '2001:db8::/6')],
    ['every IPv4 address written IPv4-mapped', '::ffff:0:0/96', tooWide(1, '::ffff:0:0/96')],
    ['an IPv4-mapped prefix wider than an IPv4 /8', '::ffff:10.0.0.0/103', tooWide(1, '::ffff:10.0.0.0/103')],
  ])('should refuse %s in every environment, naming the entry', (_case, value, message) => {
    expect(refusalOf(env({ TRUST_PROXY: value }))).toBe(message);
    expect(refusalOf(env({ TRUST_PROXY: value, NODE_ENV: 'production' }))).toBe(message);
  });

  it('should take four-part decimal IPv4 and any IPv6 spelling, each with a prefix from /8 (IPv4) or /7 (IPv6) to the full address', () => {
    const list = [
      '10.0.0.0/8',
      '192.168.1.10',
      '192.168.1.10/32',
      '0.0.0.0/8',
      '2001:db8::/32',
      '2001:DB8:0:0:0:0:0:1',
      '::/7',
      '::1/128',
      '::ffff:10.0.0.1',
      '::ffff:10.0.0.0/104',
    ];
    expect(loadAppConfig(env({ TRUST_PROXY: list.join(','), NODE_ENV: 'production' })).trustProxy).toBe(list.join(','));
  });

  it('should refuse a name, which the variable pattern does not take', () => {
    expect(refusalOf(env({ TRUST_PROXY: 'loopback' }))).toContain('TRUST_PROXY must be true, false, or comma-separated addresses or CIDRs');
  });
});

describe('trustedProxies', () => {
  const isProxy = trustedProxies('10.0.0.0/8,::ffff:192.0.2.0/120,2001:db8::/32');

  it('should know a listed proxy in any spelling of its address, and written with the port a proxy appended', () => {
    for (const hop of [
      '10.1.2.3',
      '10.1.2.3:443',
      '::ffff:10.1.2.3',
      '::ffff:a01:203',
      '[::ffff:10.1.2.3]:80',
      '192.0.2.77',
      '::ffff:192.0.2.77',
    ]) {
      expect({ hop, trusted: isProxy(hop) }).toEqual({ hop, trusted: true });
    }
    for (const hop of ['2001:db8::5', '2001:DB8:0::5', '[2001:db8::5]:443', '[2001:db8::5]'])
      expect({ hop, trusted: isProxy(hop) }).toEqual({ hop, trusted: true });
  });

  it('should trust nothing else: other addresses, another family, and what is not an address', () => {
    for (const hop of [
      '11.0.0.1',
      '192.0.3.1',
      '2001:db9::1',
      '::ffff:192.0.3.1',
      '::a01:203',
      '010.1.2.3',
      '10.1',
      '10.1.2.3:port',
      'unknown',
      '',
    ]) {
      expect({ hop, trusted: isProxy(hop) }).toEqual({ hop, trusted: false });
    }
  });
});
