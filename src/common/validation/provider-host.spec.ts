import { PROVIDER_HOST_FORMS, approvalHostOf, coversPublicSuffix, providerHostForm } from './provider-host';

describe('providerHostForm', () => {
  it.each([
    ['Api.Provider.COM.', 'api.provider.com'],
    ['*.Provider.com', '*.provider.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['0x08.8.8.8', '8.8.8.8'],
    ['2606:4700:4700:0:0:0:0:1111', '2606:4700:4700::1111'],
  ])('should write %j as %j', (text, host) => {
    expect(providerHostForm(text, false)).toEqual({ host, wildcard: host.startsWith('*.') });
  });

  it.each(['*', '*.', 'x.com:443', 'https://x.com', 'x.com/p', 'a b.com', '[::1]', 'com', 'x.123', '*.1.2.3.4', 'a_b.com'])(
    'should refuse %j',
    (text) => {
      expect(providerHostForm(text, false)).toBe(PROVIDER_HOST_FORMS);
    },
  );

  it('should refuse a name that is never public like a private address, and allow it only when told to', () => {
    expect(providerHostForm('sms.internal', false)).toMatch(/^host must not name a private/);
    expect(providerHostForm('*.sms.nip.io', false)).toMatch(/^host must not name a private/);
    expect(providerHostForm('sms.internal', true)).toEqual({ host: 'sms.internal', wildcard: false });
    expect(providerHostForm('sms.example', false)).toEqual({ host: 'sms.example', wildcard: false });
  });

  it('should allow private addresses only when told to', () => {
    expect(providerHostForm('10.0.0.1', false)).toMatch(/^host must not name a private/);
    expect(providerHostForm('10.0.0.1', true)).toEqual({ host: '10.0.0.1', wildcard: false });
  });
});

describe('coversPublicSuffix', () => {
  it.each([
    ['com', true],
    ['co.uk', true],
    ['amazonaws.com', true],
    ['s3.amazonaws.com', true],
    ['github.io', true],
    ['x.ck', true],
    ['provider.com', false],
    ['foo.github.io', false],
    ['www.ck', false],
  ])('should tell whether a wildcard over %s spans several owners: %s', (name, covers) => {
    expect(coversPublicSuffix(name)).toBe(covers);
  });
});

describe('approvalHostOf', () => {
  it.each([
    ['https://API.x.com./send', 'api.x.com'],
    ['http://[::FFFF:8.8.8.8]/', '::ffff:808:808'],
    ['http://sms.example.com\\@169.254.169.254/', null],
    ['https://x.com/\tsend', null],
    ['https://x.com/ send', null],
    ['mailto:x@x.com', null],
    ['https:api.twilio.com/x', null],
    ['HTTP:api.twilio.com', null],
    ['nonsense', null],
  ])('should read %j as %j', (url, host) => {
    expect(approvalHostOf(url)).toBe(host);
  });
});
