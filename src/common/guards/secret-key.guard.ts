import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { ClientService } from '../../client/client.service';
import { DATABASE_TIMEOUT_MS } from '../../database/database-options';
import { readSecretKeyHeader } from '../decorators/secret-key.decorator';
import { withDeadline } from '../deadline/request-deadline';

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
    // The request deadline answers the caller; this bounds the lookup itself, so a hung database frees the guard too.
    const client = await withDeadline(this.clients.authenticate(secretKey), DATABASE_TIMEOUT_MS, 'database');
    if (client === null) throw new UnauthorizedException('secretKey is not valid');
    request.client = client;
    return true;
  }
}
