import { CacheInvalidationBus } from '../client-cache/cache-invalidation.bus';
import { ApprovedHosts, HEARD_MAX_AGE_MS, ProviderHostApproval, UNHEARD_MAX_AGE_MS } from './provider-host-approval';
import { ProviderHostRepository } from './provider-host.repository';

const destination = (smsApi: string, providerUrl: string | null = null, balanceUrl: string | null = null) => ({
  smsApi,
  providerUrl,
  balanceUrl,
});

describe('ApprovedHosts', () => {
  const hosts = new ApprovedHosts(['api.provider.com', '*.x.example', '8.8.8.8', '2606:4700:4700::1111']);

  it.each([
    ['https://api.provider.com/send', true],
    ['https://API.provider.com.:8443/send', true],
    ['https://other.provider.com/send', false],
    ['https://sub.x.example/send', true],
    ['https://a.b.x.example/send', true],
    ['https://x.example/send', false],
    ['https://evilx.example/send', false],
    ['http://8.8.8.8/send', true],
    ['http://134744072/send', true],
    ['http://[2606:4700:4700:0::1111]/send', true],
    ['http://8.8.4.4/send', false],
    ['http://sms.x.example\\@169.254.169.254/', false],
    ['https://sub.x.example/se nd', false],
    ['not a url', false],
  ])('should judge %s approved: %s', (smsApi, approved) => {
    expect(hosts.approves(destination(smsApi))).toBe(approved);
  });

  it('should never approve a URL on a name that is never public, listed or not, unless private hosts are allowed', () => {
    const listed = ['sms.internal', '*.nip.io', 'api.provider.com'];
    const urls = ['https://sms.internal/send', 'https://10.0.0.1.nip.io/send'];
    for (const url of urls) expect(new ApprovedHosts(listed).approves(destination(url))).toBe(false);
    for (const url of urls) expect(new ApprovedHosts(listed, true).approves(destination(url))).toBe(true);
    expect(new ApprovedHosts(listed).approves(destination('https://api.provider.com/send'))).toBe(true);
  });

  it('should never approve a URL without the scheme://host form', () => {
    expect(hosts.approves(destination('https:api.provider.com/send'))).toBe(false);
  });

  it('should never let a wildcard match an IP address', () => {
    expect(new ApprovedHosts(['*.8.8.8', '*.4.8.8.8']).approves(destination('http://8.8.8.8/'))).toBe(false);
  });

  it('should need every URL of the configuration approved', () => {
    expect(hosts.approves(destination('https://api.provider.com/send', 'https://sub.x.example', 'http://8.8.8.8/b'))).toBe(true);
    expect(hosts.approves(destination('https://api.provider.com/send', 'https://elsewhere.example'))).toBe(false);
    expect(hosts.approves(destination('https://api.provider.com/send', null, 'https://elsewhere.example/b'))).toBe(false);
  });
});

describe('ProviderHostApproval', () => {
  let now: number;
  let rows: string[];
  let reads: number;
  let bus: { live: boolean; onProviderHostsChanged: jest.Mock };
  let approval: ProviderHostApproval;

  beforeEach(() => {
    now = 1000;
    jest.spyOn(performance, 'now').mockImplementation(() => now);
    rows = ['a.example.com'];
    reads = 0;
    const repository = { allHosts: jest.fn(() => (reads++, Promise.resolve([...rows]))) };
    bus = { live: true, onProviderHostsChanged: jest.fn() };
    approval = new ProviderHostApproval(repository as unknown as ProviderHostRepository, bus as unknown as CacheInvalidationBus);
    approval.onApplicationBootstrap();
  });
  afterEach(() => jest.restoreAllMocks());

  const approves = async (host: string) => (await approval.current()).approves(destination(`https://${host}/`));

  it('should read the list once while the bus is heard, and again when it says the list changed', async () => {
    expect(await approves('a.example.com')).toBe(true);
    now += HEARD_MAX_AGE_MS - 1;
    rows = ['b.example.com'];
    expect(await approves('b.example.com')).toBe(false);
    expect(reads).toBe(1);
    const heard = bus.onProviderHostsChanged.mock.calls[0][0] as () => void;
    heard();
    expect(await approves('b.example.com')).toBe(true);
    expect(reads).toBe(2);
  });

  it('should read the list again when 60 s old while the bus is heard, though it said nothing (a message may be lost)', async () => {
    expect(await approves('a.example.com')).toBe(true);
    rows = ['b.example.com'];
    now += HEARD_MAX_AGE_MS - 1;
    expect(await approves('b.example.com')).toBe(false);
    now += 1;
    expect(await approves('b.example.com')).toBe(true);
    expect(reads).toBe(2);
  });

  it('should read the list again when older than the bounded age while the bus is not heard', async () => {
    bus.live = false;
    expect(await approves('a.example.com')).toBe(true);
    rows = ['b.example.com'];
    now += UNHEARD_MAX_AGE_MS - 1;
    expect(await approves('b.example.com')).toBe(false);
    now += 1;
    expect(await approves('b.example.com')).toBe(true);
    expect(reads).toBe(2);
  });

  it('should read once for many callers at a time', async () => {
    await Promise.all([approval.current(), approval.current(), approval.current()]);
    expect(reads).toBe(1);
  });
});
