import { loggedUrl } from './logged-url';

describe('loggedUrl', () => {
  const secretKey = `sk_${'Ab1_-'.repeat(8)}xyz`;

  it('should log a route’s path as it is', () => {
    expect(loggedUrl('/api/client/get/secretKey')).toBe('/api/client/get/secretKey');
    expect(loggedUrl('/api/v1/sms-configs/12/verify-api-key')).toBe('/api/v1/sms-configs/12/verify-api-key');
  });

  it('should replace the value of every query parameter not known to be harmless', () => {
    expect(loggedUrl(`/api/client/get/secretKey?secretKey=${secretKey}&x-api-key=admin&password=p4ss&apiKey=k&verifyApiKey=t`)).toBe(
      '/api/client/get/secretKey?secretKey=[redacted]&x-api-key=[redacted]&password=[redacted]&apiKey=[redacted]&verifyApiKey=[redacted]',
    );
  });

  it('should keep the values of the known parameters, and a parameter name that is itself a key out', () => {
    expect(loggedUrl('/api/v1/clients?limit=50&appName=Bill&cursor=abc')).toBe('/api/v1/clients?limit=50&appName=Bill&cursor=abc');
    expect(loggedUrl(`/api/v1/clients?${secretKey}`)).toBe('/api/v1/clients?[redacted]=[redacted]');
    expect(loggedUrl(`/api/v1/clients?appName=${secretKey}`)).toBe('/api/v1/clients?appName=%5Bredacted%5D');
  });

  it('should replace a key someone put in the path', () => {
    expect(loggedUrl(`/api/client/get/${secretKey}`)).toBe('/api/client/get/[redacted]');
  });
});
