import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { ClientService } from '../../client/client.service';
import { readSecretKeyHeader } from '../decorators/secret-key.decorator';

export interface AuthenticatedClient {
  id: number;
  /** SHA-256 of the presented key (hex), the cache key of this client's answer: writes invalidate it. */
  secretKeyDigest: string;
}

export type RequestWithClient = FastifyRequest & { client?: AuthenticatedClient };

/** SMS routes: the `secretKey` header must belong to a client; that client becomes the request's owner. */
@Injectable()
export class SecretKeyGuard implements CanActivate {
  constructor(private readonly clients: ClientService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithClient>();
    const secretKey = readSecretKeyHeader(request);
    const client = await this.clients.authenticate(secretKey);
    if (client === null) throw new UnauthorizedException('secretKey is not valid');
    request.client = client;
    return true;
  }
}
