import { Reflector } from '@nestjs/core';
import { REQUIRED_SCOPE } from './key-scopes';
import { KeyUsageNotes } from '../key-usage/key-usage-notes';
import { ExecutionContext, HttpException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { AppConfig } from '../config/app-config';
import { AuthenticatedClient, ClientLookup, RequestWithClient } from './client-lookup';
import { AddressAllowance } from '../rate-limit/address-allowance';
import { RequestWithCredential } from '../rate-limit/credential';
import { CredentialRateLimit } from '../rate-limit/credential-rate-limit';
import { FixedWindowThrottlerStorage } from '../rate-limit/fixed-window.storage';
import { SecretKeyAdmission } from './secret-key-admission';
import { GetClientKeyGuard, RelayedSecretKeyGuard, SecretKeyGuard } from './secret-key.guard';

const SECRET_KEY = `sk_${'a'.repeat(43)}`;

function configOf(limits: { perCredential?: number; failedAuthPerIp?: number }): ConfigService<AppConfig, true> {
  const rateLimit = { windowMs: 60_000, perCredential: 1000, perIp: 1_000_000, failedAuthPerIp: 1_000_000, ...limits };
  return { get: () => rateLimit } as unknown as ConfigService<AppConfig, true>;
}

function failedLogins(failedAuthPerIp = 1_000_000): AddressAllowance {
  return new AddressAllowance(configOf({ failedAuthPerIp }));
}

/** A guard of this kind, admitting keys as the application does, with these refusals counted and these uses noted. */
function guardOf(
  Guard: typeof SecretKeyGuard,
  lookup: ClientLookup,
  addresses = failedLogins(),
  keyUsage = new KeyUsageNotes(),
  perCredential = 1000,
): SecretKeyGuard {
  const rateLimit = new CredentialRateLimit(new FixedWindowThrottlerStorage(), configOf({ perCredential }));
  return new Guard(lookup, new SecretKeyAdmission(addresses, rateLimit, keyUsage), addresses, new Reflector());
}

function requestWith(headers: Record<string, string | string[] | undefined>, ip = '192.0.2.1'): RequestWithClient {
  return { headers, ip } as unknown as RequestWithClient;
}

// A route a root key reaches, current or previous.
const handler = () => undefined;
Reflect.defineMetadata(REQUIRED_SCOPE, 'client:read', handler);

function contextFor(request: RequestWithClient): ExecutionContext {
  return { switchToHttp: () => ({ getRequest: () => request }), getHandler: () => handler } as unknown as ExecutionContext;
}

async function refusalOf(guard: SecretKeyGuard, request: RequestWithClient): Promise<HttpException> {
  const error = await guard.canActivate(contextFor(request)).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpException);
  return error as HttpException;
}

/** A client a key belongs to, active, presented with its current key. */
const known = (id: number, secretKeyDigest: string): AuthenticatedClient => ({
  id,
  secretKeyDigest,
  isActive: true,
  isPreviousKey: false,
  scopedKey: null,
  keyDigests: [secretKeyDigest],
});

describe('SecretKeyGuard', () => {
  let authenticate: jest.Mock<Promise<AuthenticatedClient | null>, [string]>;
  let guard: SecretKeyGuard;
  let keyUsage: KeyUsageNotes;

  beforeEach(() => {
    keyUsage = new KeyUsageNotes();
    authenticate = jest.fn<Promise<AuthenticatedClient | null>, [string]>();
    guard = guardOf(SecretKeyGuard, { authenticate } satisfies ClientLookup, failedLogins(), keyUsage);
  });

  async function unauthorizedMessage(request: RequestWithClient): Promise<string> {
    const error = await refusalOf(guard, request);
    expect(error).toBeInstanceOf(UnauthorizedException);
    expect(error.getStatus()).toBe(401);
    return error.message;
  }

  it('should refuse a request without the secretKey header and not look it up', async () => {
    const request = requestWith({});
    expect(await unauthorizedMessage(request)).toBe('secretKey header is required');
    expect(authenticate).not.toHaveBeenCalled();
    expect(request.client).toBeUndefined();
  });

  it('should refuse an empty secretKey header', async () => {
    expect(await unauthorizedMessage(requestWith({ secretkey: '' }))).toBe('secretKey header is required');
    expect(authenticate).not.toHaveBeenCalled();
  });

  it('should refuse a repeated secretKey header', async () => {
    expect(await unauthorizedMessage(requestWith({ secretkey: [SECRET_KEY, SECRET_KEY] }))).toBe('secretKey header is required');
    expect(authenticate).not.toHaveBeenCalled();
  });

  it('should refuse a key that belongs to no client', async () => {
    authenticate.mockResolvedValue(null);
    const request = requestWith({ secretkey: SECRET_KEY });
    expect(await unauthorizedMessage(request)).toBe('secretKey is not valid');
    expect(authenticate).toHaveBeenCalledWith(SECRET_KEY);
    expect(request.client).toBeUndefined();
  });

  it('should accept a known key and make its client the owner of the request', async () => {
    authenticate.mockResolvedValue(known(17, 'd17'));
    const request = requestWith({ secretkey: SECRET_KEY });
    await expect(guard.canActivate(contextFor(request))).resolves.toBe(true);
    expect(authenticate).toHaveBeenCalledTimes(1);
    expect(authenticate).toHaveBeenCalledWith(SECRET_KEY);
    expect(request.client).toEqual(known(17, 'd17'));
    expect([...keyUsage.take().keys()]).toEqual(['d17']);
  });

  it('should note no use of a key it refuses: unknown, or its client disabled', async () => {
    authenticate.mockResolvedValueOnce(null).mockResolvedValueOnce({ ...known(9, 'd9'), isActive: false });
    await refusalOf(guard, requestWith({ secretkey: SECRET_KEY }));
    await refusalOf(guard, requestWith({ secretkey: SECRET_KEY }));
    expect(keyUsage.size).toBe(0);
  });

  it("should refuse a disabled client's key with 403 Client is disabled, without counting it as a wrong key", async () => {
    authenticate.mockResolvedValue({ ...known(9, 'd9'), isActive: false });
    const request = requestWith({ secretkey: SECRET_KEY });
    const refusal = await guard.canActivate(contextFor(request)).then(
      () => undefined,
      (error: HttpException) => error,
    );
    expect(refusal?.getStatus()).toBe(403);
    expect(refusal?.message).toBe('Client is disabled');
    expect(request.client).toBeUndefined();
  });

  it('should accept a client whose id is 0', async () => {
    authenticate.mockResolvedValue(known(0, 'd0'));
    const request = requestWith({ secretkey: SECRET_KEY });
    await expect(guard.canActivate(contextFor(request))).resolves.toBe(true);
    expect(request.client).toEqual(known(0, 'd0'));
  });

  it('should read the header under its lower-case name only', async () => {
    expect(await unauthorizedMessage(requestWith({ secretKey: SECRET_KEY }))).toBe('secretKey header is required');
    expect(authenticate).not.toHaveBeenCalled();
  });

  it('should propagate a lookup failure rather than let the request through', async () => {
    authenticate.mockRejectedValue(new Error('database down'));
    const request = requestWith({ secretkey: SECRET_KEY });
    await expect(guard.canActivate(contextFor(request))).rejects.toThrow('database down');
    expect(request.client).toBeUndefined();
  });

  it('should record the valid key digest on the request, counted, so that the throttler that runs next does not count it again', async () => {
    authenticate.mockResolvedValue(known(7, 'digest-of-key'));
    const request = requestWith({ secretkey: SECRET_KEY }) as RequestWithClient & RequestWithCredential;
    await guard.canActivate(contextFor(request));
    expect(request.credentialDigest).toBe('digest-of-key');
    expect(request.credentialCounted).toBe(true);
  });

  it('should refuse a malformed key as one no client has, without a lookup, counting it against the address', async () => {
    const addresses = failedLogins(1);
    const limited = guardOf(SecretKeyGuard, { authenticate }, addresses);
    expect(await unauthorizedMessage(requestWith({ secretkey: 'sk_short' }))).toBe('secretKey is not valid');
    expect((await refusalOf(limited, requestWith({ secretkey: 'sk_short' }))).getStatus()).toBe(401);
    expect((await refusalOf(limited, requestWith({ secretkey: 'sk_short' }))).getStatus()).toBe(429);
    expect(authenticate).not.toHaveBeenCalled();
  });

  it('should answer 429 Too many requests once a key is past its limit, with Retry-After, its use still noted', async () => {
    authenticate.mockResolvedValue(known(3, 'd3'));
    const notes = new KeyUsageNotes();
    const limited = guardOf(SecretKeyGuard, { authenticate }, failedLogins(), notes, 2);
    for (let i = 0; i < 2; i++) await expect(limited.canActivate(contextFor(requestWith({ secretkey: SECRET_KEY })))).resolves.toBe(true);
    notes.take();
    const request = requestWith({ secretkey: SECRET_KEY }) as RequestWithClient & RequestWithCredential;
    const refusal = await refusalOf(limited, request);
    expect(refusal).toBeInstanceOf(RetryLaterException);
    expect({ status: refusal.getStatus(), message: refusal.message }).toEqual({ status: 429, message: 'Too many requests, retry later' });
    expect((refusal as RetryLaterException).retryAfterSeconds).toBe(60);
    expect([...notes.take().keys()]).toEqual(['d3']);
    expect(request.credentialCounted).toBeUndefined();
  });

  it('should answer 429 once an address is past its refused credentials, and then refuse it before any lookup, right key or not', async () => {
    authenticate.mockImplementation((key) => Promise.resolve(key === SECRET_KEY ? known(1, 'd1') : null));
    const limited = guardOf(SecretKeyGuard, { authenticate }, failedLogins(2));
    const guesser = '203.0.113.7';
    expect((await refusalOf(limited, requestWith({ secretkey: 'sk_guess' }, guesser))).getStatus()).toBe(401);
    expect((await refusalOf(limited, requestWith({}, guesser))).getStatus()).toBe(401);
    const refusal = await refusalOf(limited, requestWith({ secretkey: 'sk_guess' }, guesser));
    expect(refusal).toBeInstanceOf(RetryLaterException);
    expect(refusal.getStatus()).toBe(429);
    authenticate.mockClear();
    const rightKey = await refusalOf(limited, requestWith({ secretkey: SECRET_KEY }, guesser));
    expect(rightKey.getStatus()).toBe(429);
    expect(authenticate).not.toHaveBeenCalled();
    expect((await refusalOf(limited, requestWith({ secretkey: 'sk_guess' }, '198.51.100.1'))).getStatus()).toBe(401);
  });

  it('should count IPv6 callers by their /64', async () => {
    authenticate.mockResolvedValue(null);
    const limited = guardOf(SecretKeyGuard, { authenticate }, failedLogins(2));
    for (const host of ['1', '2', '3']) await refusalOf(limited, requestWith({ secretkey: 'sk_guess' }, `2001:db8:5:6::${host}`));
    expect((await refusalOf(limited, requestWith({ secretkey: SECRET_KEY }, '2001:db8:5:6:ffff::9'))).getStatus()).toBe(429);
    expect((await refusalOf(limited, requestWith({ secretkey: 'sk_guess' }, '2001:db8:5:7::1'))).getStatus()).toBe(401);
  });
});

describe('RelayedSecretKeyGuard', () => {
  it("should refuse missing and unknown keys as SecretKeyGuard does, without counting them against the dispatcher's address", async () => {
    const authenticate = jest.fn<Promise<AuthenticatedClient | null>, [string]>();
    authenticate.mockImplementation((key) => Promise.resolve(key === SECRET_KEY ? known(1, 'd1') : null));
    const addresses = failedLogins(2);
    const guard = guardOf(RelayedSecretKeyGuard, { authenticate }, addresses);
    const dispatcher = '203.0.113.8';
    for (let i = 0; i < 50; i++) {
      const unknown = await refusalOf(guard, requestWith({ secretkey: 'sk_unknown' }, dispatcher));
      expect({ status: unknown.getStatus(), message: unknown.message }).toEqual({ status: 401, message: 'secretKey is not valid' });
      const missing = await refusalOf(guard, requestWith({}, dispatcher));
      expect({ status: missing.getStatus(), message: missing.message }).toEqual({ status: 401, message: 'secretKey header is required' });
    }
    expect(addresses.blockedFor(dispatcher)).toBe(0);
    await expect(guard.canActivate(contextFor(requestWith({ secretkey: SECRET_KEY }, dispatcher)))).resolves.toBe(true);
  });
});

describe('RelayedSecretKeyGuard', () => {
  it("should note a relayed key's use time, not the dispatcher's address", async () => {
    const authenticate = jest.fn<Promise<AuthenticatedClient | null>, [string]>().mockResolvedValue(known(1, 'd1'));
    const keyUsage = new KeyUsageNotes();
    await expect(
      guardOf(RelayedSecretKeyGuard, { authenticate }, failedLogins(), keyUsage).canActivate(
        contextFor(requestWith({ secretkey: SECRET_KEY }, '203.0.113.8')),
      ),
    ).resolves.toBe(true);
    expect(keyUsage.take()).toEqual(new Map([['d1', { shape: 'root', usedAt: expect.any(Number), ip: undefined, relayed: true }]]));
  });
});

describe('GetClientKeyGuard', () => {
  it('should answer 404 for a key no client has and 401 for a missing one', async () => {
    const authenticate = jest.fn<Promise<AuthenticatedClient | null>, [string]>().mockResolvedValue(null);
    const guard = guardOf(GetClientKeyGuard, { authenticate }, failedLogins());
    const unknown = await refusalOf(guard, requestWith({ secretkey: SECRET_KEY }));
    expect(unknown).toBeInstanceOf(NotFoundException);
    expect(unknown.message).toBe('No client matches the secretKey');
    const missing = await refusalOf(guard, requestWith({}));
    expect(missing.getStatus()).toBe(401);
    expect(missing.message).toBe('secretKey header is required');
  });
});
