import { ExecutionContext, UnauthorizedException } from '@nestjs/common';
import { ClientService } from '../../client/client.service';
import { AuthenticatedClient, RequestWithClient, SecretKeyGuard } from './secret-key.guard';

const SECRET_KEY = `sk_${'a'.repeat(43)}`;

describe('SecretKeyGuard', () => {
  let authenticate: jest.Mock<Promise<AuthenticatedClient | null>, [string]>;
  let guard: SecretKeyGuard;

  beforeEach(() => {
    authenticate = jest.fn<Promise<AuthenticatedClient | null>, [string]>();
    guard = new SecretKeyGuard({ authenticate } as unknown as ClientService);
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
    authenticate.mockResolvedValue({ id: 17, secretKeyDigest: 'd17' });
    const request = requestWith({ secretkey: SECRET_KEY });
    await expect(guard.canActivate(contextFor(request))).resolves.toBe(true);
    expect(authenticate).toHaveBeenCalledTimes(1);
    expect(authenticate).toHaveBeenCalledWith(SECRET_KEY);
    expect(request.client).toEqual({ id: 17, secretKeyDigest: 'd17' });
  });

  it('should accept a client whose id is 0', async () => {
    authenticate.mockResolvedValue({ id: 0, secretKeyDigest: 'd0' });
    const request = requestWith({ secretkey: SECRET_KEY });
    await expect(guard.canActivate(contextFor(request))).resolves.toBe(true);
    expect(request.client).toEqual({ id: 0, secretKeyDigest: 'd0' });
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
});
