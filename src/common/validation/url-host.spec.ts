import { hasUserInfo, isAbsoluteHttpUrl, isNonPublicHost, isUnambiguousUrl } from './url-host';

describe('isNonPublicHost', () => {
  it.each([
    ['a private IPv4 address (10/8)', 'http://10.0.0.1/send'],
    ['the top of 10/8, with a port', 'http://10.255.255.255:8080/x'],
    ['a private IPv4 address (172.16/12)', 'http://172.16.0.1/'],
    ['the top of 172.16/12', 'http://172.31.255.254/'],
    ['a private IPv4 address (192.168/16)', 'https://192.168.1.1/'],
    ['an IPv4 loopback address', 'http://127.0.0.1/'],
    ['another address of 127/8', 'http://127.255.0.1/'],
    ['the link-local metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['the unspecified IPv4 address', 'http://0.0.0.0/'],
    ['a carrier-grade NAT address (100.64/10)', 'http://100.64.0.1/'],
    ['an IPv4 multicast address', 'http://224.0.0.1/'],
    ['the broadcast address', 'http://255.255.255.255/'],
    ['a documentation address (reserved)', 'http://192.0.2.1/'],
    ['the IPv6 loopback', 'http://[::1]/'],
    ['an IPv6 link-local address', 'http://[fe80::1]/'],
    ['an IPv6 unique-local address (fc00::/7)', 'http://[fc00::1]/'],
    ['another unique-local address', 'http://[fd12:3456::1]/'],
    ['the unspecified IPv6 address', 'http://[::]/'],
    ['an IPv4-mapped private address', 'http://[::ffff:10.0.0.1]/'],
    ['an IPv4-mapped loopback address', 'http://[::ffff:127.0.0.1]/'],
    ['a NAT64 address of a private one', 'http://[64:ff9b::a00:1]/'],
    ['a NAT64 address of the loopback', 'http://[64:ff9b::7f00:1]/'],
    ['a NAT64 address of the metadata address', 'http://[64:ff9b::a9fe:a9fe]/'],
    ['a NAT64 address of the loopback, in dotted form', 'http://[64:ff9b::127.0.0.1]/'],
    ['an IPv4-compatible loopback address', 'http://[::127.0.0.1]/'],
    ['an IPv4-compatible private address', 'http://[::10.0.0.1]/'],
    ['an IPv4-compatible metadata address, in hexadecimal', 'http://[::a9fe:a9fe]/'],
    ['an IPv4-translated loopback address (RFC 6145)', 'http://[::ffff:0:127.0.0.1]/'],
    ['an IPv4-translated private address (RFC 6145)', 'http://[::ffff:0:c0a8:101]/'],
    ['a NAT64 address outside 64:ff9b::/96 (reserved)', 'http://[64:ff9b:1::808:808]/'],
    ['127.0.0.1 in decimal', 'http://2130706433/'],
    ['127.0.0.1 in hexadecimal', 'http://0x7f000001/'],
    ['127.0.0.1 in mixed hexadecimal', 'http://0x7f.1/'],
    ['127.0.0.1 shortened', 'http://127.1/'],
    ['127.0.0.1 in octal', 'http://0177.0.0.1/'],
    ['0.0.0.0 as 0', 'http://0/'],
    ['127.0.0.1 in full-width digits', 'http://１２７.０.０.１/'],
    ['localhost', 'http://localhost/'],
    ['localhost in capitals, with a port', 'http://LOCALHOST:3000/'],
    ['localhost with a trailing dot', 'http://localhost./'],
    ['a subdomain of localhost', 'http://api.localhost/'],
    ['localhost in full-width letters', 'http://ｌｏｃａｌｈｏｓｔ/'],
    ['a URL WHATWG cannot parse', 'http://[fe80::1%25eth0]/'],
    ['a name under internal', 'http://sms.internal/send'],
    ['a Kubernetes service name', 'http://sms.default.svc.cluster.local/'],
    ['a wildcard-DNS name of a private address', 'http://10.0.0.1.nip.io/'],
    ['a wildcard-DNS name in capitals with a trailing dot', 'http://APP.LVH.ME./'],
    ['a URL that is not http(s)', 'ftp://example.com/'],
  ])('should find %s non-public: %s', (_case, url) => {
    expect(isNonPublicHost(url)).toBe(true);
  });

  it.each([
    ['a public name', 'https://api.twilio.com/send'],
    ['a public IPv4 address', 'http://8.8.8.8/'],
    ['the address just past 172.16/12', 'http://172.32.0.1/'],
    ['the address just past 100.64/10', 'http://100.128.0.1/'],
    ['a public IPv6 address', 'http://[2001:4860:4860::8888]/'],
    ['an IPv4-mapped public address', 'http://[::ffff:8.8.8.8]/'],
    ['an IPv4-compatible public address', 'http://[::8.8.8.8]/'],
    ['a NAT64 address of a public one', 'http://[64:ff9b::808:808]/'],
    ['an IPv4-translated public address (RFC 6145)', 'http://[::ffff:0:8.8.8.8]/'],
    ['a name that is not resolved', 'http://sms.provider.example/send'],
    ['a name under a reserved example name', 'http://sms.example/send'],
    ['a name that only begins with localhost', 'http://localhost.example.com/'],
    ['a name ending in localhost without a dot', 'http://mylocalhost/'],
  ])('should find %s public: %s', (_case, url) => {
    expect(isNonPublicHost(url)).toBe(false);
  });
});

describe('hasUserInfo', () => {
  it.each([
    ['a user name and password', 'https://user:pass@api.example.com/send'],
    ['a user name', 'https://user@api.example.com/'],
    ['a password only', 'https://:pass@api.example.com/'],
    ['an empty user info', 'https://@api.example.com/'],
    ['a user info with a private host', 'http://admin:admin@10.0.0.1/'],
  ])('should find %s: %s', (_case, url) => {
    expect(hasUserInfo(url)).toBe(true);
  });

  it.each([
    ['no user info', 'https://api.example.com/send'],
    ['an @ in the path', 'https://api.example.com/path@x'],
    ['an @ in the query', 'https://api.example.com/?to=a@b.example'],
    ['an @ in the fragment', 'https://api.example.com/#x@y'],
  ])('should find none with %s: %s', (_case, url) => {
    expect(hasUserInfo(url)).toBe(false);
  });
});

describe('isAbsoluteHttpUrl', () => {
  it.each([
    'https://api.twilio.com/send',
    'http://localhost:8080/app',
    'http://sms.internal/send',
    'HTTPS://api.twilio.com/send',
    'http://[::1]/',
    'https://a.example.com/❤️',
  ])('should accept %s', (url) => {
    expect(isAbsoluteHttpUrl(url)).toBe(true);
  });

  it.each([
    'https:api.twilio.com/x',
    'http:api.twilio.com',
    'https:/api.twilio.com/x',
    'https:///api.twilio.com',
    'api.twilio.com/send',
    'javascript:alert(1)',
    'ftp://x.example.com',
    '/relative',
    'http://',
    'http://[fe80::1%25eth0]/',
  ])('should refuse %s', (url) => {
    expect(isAbsoluteHttpUrl(url)).toBe(false);
  });

  it('should leave the length to the character count (validator.js would count UTF-16 units)', () => {
    const url = `https://a.example.com/${'😀'.repeat(1500)}`;
    expect(url.length).toBeGreaterThan(3000);
    expect(isAbsoluteHttpUrl(url)).toBe(true);
  });
});

describe('isUnambiguousUrl', () => {
  it.each([
    ['a backslash before an @ (the service reads sms.example.com, curl 169.254.169.254)', 'http://sms.example.com\\@169.254.169.254/'],
    ['a backslash in the host', 'http://sms.example.com\\evil.example/'],
    ['a backslash in the path', 'https://a.example.com/a\\b'],
    ['a backslash in the query', 'https://a.example.com/?to=a\\b'],
    ['a backslash at the end', 'https://a.example.com/\\'],
    ['a tab', 'https://a.exa\tmple.com/'],
    ['a carriage return', 'https://a.example.com/\r'],
    ['a line feed', 'https://a.example.com/a\nb'],
    ['a NUL', 'https://a.example.com\u0000.evil.example/'],
    ['another ASCII control character', 'https://a.example.com/\u0001'],
    ['the last ASCII control character below the space', 'https://a.example.com/\u001f'],
    ['DEL', 'https://a.example.com/\u007f'],
    ['a C1 control character', 'https://a.example.com/\u009b'],
    ['a space', 'https://a.example.com/a b'],
    ['a leading space', ' https://a.example.com/'],
    ['a trailing space', 'https://a.example.com/ '],
    ['a no-break space (U+00A0)', 'https://a.example.com/a\u00a0b'],
    ['a line separator (U+2028)', 'https://a.example.com/a\u2028b'],
    ['a paragraph separator (U+2029)', 'https://a.example.com/\u2029'],
    ['a next-line character (U+0085)', 'https://a.example.com/\u0085'],
    ['an ideographic space (U+3000)', 'https://a.example.com/\u3000'],
    ['a byte order mark (U+FEFF)', 'https://a.example.com/\ufeff'],
  ])('should refuse %s', (_case, url) => {
    expect(isUnambiguousUrl(url)).toBe(false);
  });

  it.each([
    ['a plain URL', 'https://api.twilio.com/send'],
    ['a port, a query and a fragment', 'http://sms.example.com:8080/send?to=a@b.example#x'],
    ['percent-encoded characters', 'https://a.example.com/a%20b%5C%00'],
    ['an IPv6 literal', 'http://[2001:4860:4860::8888]/'],
    ['characters outside ASCII that are not whitespace', 'https://a.example.com/❤️/ü'],
  ])('should accept %s', (_case, url) => {
    expect(isUnambiguousUrl(url)).toBe(true);
  });
});
