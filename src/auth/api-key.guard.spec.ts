import { ExecutionContext, HttpException, UnauthorizedException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { AppConfig } from '../config/app-config';
import { ApiKeyGuard, DispatcherKeyGuard } from './api-key.guard';
import { AddressAllowance } from '../rate-limit/address-allowance';

/** The module object the guard calls into (CommonJS output), so a spy on it sees the guard's calls. */

const nodeCrypto = require('node:crypto') as typeof import('node:crypto');

const KEY_CURRENT = 'ak_current-admin-key-0123456789abcdef';
const KEY_PREVIOUS = 'ak_previous-admin-key-9876543210fedcba';
const KEY_THIRD = 'ak_third';

const RATE_LIMIT = { windowMs: 60_000, perCredential: 1000, perIp: 1_000_000, failedAuthPerIp: 1_000_000 };

function guardFor(adminApiKeys: string[], rateLimit = RATE_LIMIT): ApiKeyGuard {
  const settings: Record<string, unknown> = { adminApiKeys, rateLimit };
  const config = { get: (key: string) => settings[key] } as unknown as ConfigService<AppConfig, true>;
  return new ApiKeyGuard(config, new AddressAllowance(config));
}

function contextWith(headers: Record<string, string | string[] | undefined>, ip = '192.0.2.1'): ExecutionContext {
  return { switchToHttp: () => ({ getRequest: () => ({ headers, ip }) }) } as unknown as ExecutionContext;
}

function unauthorizedMessage(guard: ApiKeyGuard, headers: Record<string, string | string[] | undefined>): string {
  try {
    guard.canActivate(contextWith(headers));
  } catch (error) {
    expect(error).toBeInstanceOf(UnauthorizedException);
    expect((error as UnauthorizedException).getStatus()).toBe(401);
    return (error as UnauthorizedException).message;
  }
  throw new Error('canActivate did not throw');
}

describe('ApiKeyGuard', () => {
  const guard = guardFor([KEY_CURRENT, KEY_PREVIOUS, KEY_THIRD]);

  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('should refuse a request without x-api-key', () => {
    expect(unauthorizedMessage(guard, {})).toBe('x-api-key header is required');
  });

  it('should refuse an empty x-api-key', () => {
    expect(unauthorizedMessage(guard, { 'x-api-key': '' })).toBe('x-api-key header is required');
  });

  it('should refuse a wrong key', () => {
    expect(unauthorizedMessage(guard, { 'x-api-key': 'ak_wrong' })).toBe('x-api-key is not valid');
  });

  it.each([KEY_CURRENT, KEY_PREVIOUS, KEY_THIRD])('should accept each configured key (%s)', (key) => {
    expect(guard.canActivate(contextWith({ 'x-api-key': key }))).toBe(true);
  });

  it('should refuse a repeated header (array value) even when it holds a valid key', () => {
    expect(unauthorizedMessage(guard, { 'x-api-key': [KEY_CURRENT, KEY_CURRENT] })).toMatch(/^x-api-key /);
    expect(unauthorizedMessage(guard, { 'x-api-key': [KEY_CURRENT] })).toMatch(/^x-api-key /);
  });

  it('should refuse a prefix of a valid key', () => {
    expect(unauthorizedMessage(guard, { 'x-api-key': KEY_CURRENT.slice(0, -1) })).toBe('x-api-key is not valid');
    expect(unauthorizedMessage(guard, { 'x-api-key': 'ak_' })).toBe('x-api-key is not valid');
  });

  it('should refuse a valid key with something appended', () => {
    expect(unauthorizedMessage(guard, { 'x-api-key': `${KEY_CURRENT}x` })).toBe('x-api-key is not valid');
  });

  it('should refuse a valid key with surrounding whitespace or different case', () => {
    expect(unauthorizedMessage(guard, { 'x-api-key': ` ${KEY_CURRENT}` })).toBe('x-api-key is not valid');
    expect(unauthorizedMessage(guard, { 'x-api-key': KEY_CURRENT.toUpperCase() })).toBe('x-api-key is not valid');
  });

  it('should refuse a key once it is removed from the configuration', () => {
    expect(unauthorizedMessage(guardFor([KEY_CURRENT]), { 'x-api-key': KEY_PREVIOUS })).toBe('x-api-key is not valid');
  });

  it('should read the header under its lower-case name', () => {
    expect(unauthorizedMessage(guard, { 'X-API-KEY': KEY_CURRENT })).toBe('x-api-key header is required');
  });

  it('should compare with crypto.timingSafeEqual against every configured key, whichever matches', () => {
    const spy = jest.spyOn(nodeCrypto, 'timingSafeEqual');

    guard.canActivate(contextWith({ 'x-api-key': KEY_CURRENT }));
    expect(spy).toHaveBeenCalledTimes(3);

    spy.mockClear();
    unauthorizedMessage(guard, { 'x-api-key': 'ak_wrong' });
    expect(spy).toHaveBeenCalledTimes(3);
  });

  it('should compare fixed-length SHA-256 digests rather than the raw keys', () => {
    const spy = jest.spyOn(nodeCrypto, 'timingSafeEqual');
    unauthorizedMessage(guard, { 'x-api-key': 'short' });
    for (const [left, right] of spy.mock.calls as Array<[Buffer, Buffer]>) {
      expect(left).toHaveLength(32);
      expect(right).toHaveLength(32);
      expect(right.equals(nodeCrypto.createHash('sha256').update('short').digest())).toBe(true);
    }
    expect(spy).toHaveBeenCalled();
  });

  it('should answer 429 with a retry time once an address is past its refused credentials, then refuse it even with the right key', () => {
    const limited = guardFor([KEY_CURRENT], { ...RATE_LIMIT, failedAuthPerIp: 2 });
    const refusalFor = (headers: Record<string, string>) => {
      try {
        limited.canActivate(contextWith(headers, '203.0.113.9'));
      } catch (error) {
        return error as HttpException;
      }
      throw new Error('canActivate did not throw');
    };
    expect(refusalFor({ 'x-api-key': 'ak_guess1' }).getStatus()).toBe(401);
    expect(refusalFor({}).getStatus()).toBe(401);
    const refusal = refusalFor({ 'x-api-key': 'ak_guess3' });
    expect(refusal).toBeInstanceOf(RetryLaterException);
    expect(refusal.getStatus()).toBe(429);
    expect((refusal as RetryLaterException).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refusalFor({ 'x-api-key': KEY_CURRENT }).getStatus()).toBe(429);
    expect(refusalFor({ 'x-api-key': 'ak_guess4' }).getStatus()).toBe(429);
    expect(() => limited.canActivate(contextWith({ 'x-api-key': 'ak_guess' }, '198.51.100.1'))).toThrow(UnauthorizedException);
  });
});

describe('DispatcherKeyGuard', () => {
  const DISPATCHER_KEY = 'dk_dispatcher-key-0123456789abcdef01';

  function dispatcherGuard(dispatcherApiKeys: string[]): DispatcherKeyGuard {
    const settings: Record<string, unknown> = { adminApiKeys: [KEY_CURRENT], dispatcherApiKeys, rateLimit: RATE_LIMIT };
    const config = { get: (key: string) => settings[key] } as unknown as ConfigService<AppConfig, true>;
    return new DispatcherKeyGuard(config, new AddressAllowance(config));
  }

  const refusalOf = (guard: DispatcherKeyGuard, key: string): HttpException => {
    try {
      guard.canActivate(contextWith({ 'x-api-key': key }));
    } catch (error) {
      return error as HttpException;
    }
    throw new Error('canActivate did not throw');
  };

  it('should let a dispatcher key through, naming the actor by the start of its digest', () => {
    const request = { headers: { 'x-api-key': DISPATCHER_KEY }, ip: '192.0.2.1' } as Record<string, unknown>;
    const context = { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
    expect(dispatcherGuard([DISPATCHER_KEY]).canActivate(context)).toBe(true);
    expect(request.actor).toBe(`dispatcher:${nodeCrypto.createHash('sha256').update(DISPATCHER_KEY).digest('hex').slice(0, 8)}`);
  });

  it('should refuse an admin key with 403 and any other key with 401', () => {
    const guard = dispatcherGuard([DISPATCHER_KEY]);
    expect(refusalOf(guard, KEY_CURRENT).getStatus()).toBe(403);
    expect(refusalOf(guard, 'dk_other').getStatus()).toBe(401);
  });

  it('should refuse every key with 401 when no dispatcher is configured, the admin key too', () => {
    const guard = dispatcherGuard([]);
    for (const key of [KEY_CURRENT, DISPATCHER_KEY, 'anything']) {
      const refusal = refusalOf(guard, key);
      expect({ key, status: refusal.getStatus(), message: refusal.message }).toEqual({
        key,
        status: 401,
        message: 'x-api-key is not valid',
      });
    }
  });
});
