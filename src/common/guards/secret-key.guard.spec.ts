import { ExecutionContext, UnauthorizedException } from '@nestjs/common';
import { ClientService } from '../../client/client.service';
import { RequestWithClient, SecretKeyGuard } from './secret-key.guard';

const SECRET_KEY = `sk_${'a'.repeat(43)}`;

describe('SecretKeyGuard', () => {
  let findIdBySecretKey: jest.Mock<Promise<number | null>, [string]>;
  let guard: SecretKeyGuard;

  beforeEach(() => {
    findIdBySecretKey = jest.fn<Promise<number | null>, [string]>();
    guard = new SecretKeyGuard({ findIdBySecretKey } as unknown as ClientService);
  });

  function requestWith(headers: Record<string, string | string[] | undefined>): RequestWithClient {
    return { headers } as unknown as RequestWithClient;
  }

  function contextFor(request: RequestWithClient): ExecutionContext {
    return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
  }

  async function unauthorizedMessage(request: RequestWithClient): Promise<string> {
    const error = await guard.canActivate(contextFor(request)).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UnauthorizedException);
    expect((error as UnauthorizedException).getStatus()).toBe(401);
    return (error as UnauthorizedException).message;
  }

  it('should refuse a request without the secretKey header and not look it up', async () => {
    const request = requestWith({});
    expect(await unauthorizedMessage(request)).toBe('secretKey header is required');
    expect(findIdBySecretKey).not.toHaveBeenCalled();
    expect(request.client).toBeUndefined();
  });

  it('should refuse an empty secretKey header', async () => {
    expect(await unauthorizedMessage(requestWith({ secretkey: '' }))).toBe('secretKey header is required');
    expect(findIdBySecretKey).not.toHaveBeenCalled();
  });

  it('should refuse a repeated secretKey header', async () => {
    expect(await unauthorizedMessage(requestWith({ secretkey: [SECRET_KEY, SECRET_KEY] }))).toBe('secretKey header is required');
    expect(findIdBySecretKey).not.toHaveBeenCalled();
  });

  it('should refuse a key that belongs to no client', async () => {
    findIdBySecretKey.mockResolvedValue(null);
    const request = requestWith({ secretkey: SECRET_KEY });
    expect(await unauthorizedMessage(request)).toBe('secretKey is not valid');
    expect(findIdBySecretKey).toHaveBeenCalledWith(SECRET_KEY);
    expect(request.client).toBeUndefined();
  });

  it('should accept a known key and make its client the owner of the request', async () => {
    findIdBySecretKey.mockResolvedValue(17);
    const request = requestWith({ secretkey: SECRET_KEY });
    await expect(guard.canActivate(contextFor(request))).resolves.toBe(true);
    expect(findIdBySecretKey).toHaveBeenCalledTimes(1);
    expect(findIdBySecretKey).toHaveBeenCalledWith(SECRET_KEY);
    expect(request.client).toEqual({ id: 17 });
  });

  it('should accept a client whose id is 0', async () => {
    findIdBySecretKey.mockResolvedValue(0);
    const request = requestWith({ secretkey: SECRET_KEY });
    await expect(guard.canActivate(contextFor(request))).resolves.toBe(true);
    expect(request.client).toEqual({ id: 0 });
  });

  it('should read the header under its lower-case name only', async () => {
    expect(await unauthorizedMessage(requestWith({ secretKey: SECRET_KEY }))).toBe('secretKey header is required');
    expect(findIdBySecretKey).not.toHaveBeenCalled();
  });

  it('should propagate a lookup failure rather than let the request through', async () => {
    findIdBySecretKey.mockRejectedValue(new Error('database down'));
    const request = requestWith({ secretkey: SECRET_KEY });
    await expect(guard.canActivate(contextFor(request))).rejects.toThrow('database down');
    expect(request.client).toBeUndefined();
  });
});
