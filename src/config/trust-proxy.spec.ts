import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from './environment';
import { loadAppConfig } from './load-app-config';

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

  it('should refuse a name, which the variable pattern does not take', () => {
    expect(refusalOf(env({ TRUST_PROXY: 'loopback' }))).toContain('TRUST_PROXY must be true, false, or comma-separated addresses or CIDRs');
  });
});
