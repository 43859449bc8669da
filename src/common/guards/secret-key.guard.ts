import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { ClientService } from '../../client/client.service';
import { DATABASE_TIMEOUT_MS } from '../../database/database-options';
import { readSecretKeyHeader } from '../decorators/secret-key.decorator';
import { withDeadline } from '../interceptors/request-deadline.interceptor';

export interface AuthenticatedClient {
  id: number;
}

export type RequestWithClient = FastifyRequest & { client?: AuthenticatedClient };

/** SMS routes: the `secretKey` header must belong to a client; that client becomes the request's owner. */
@Injectable()
export class SecretKeyGuard implements CanActivate {
  constructor(private readonly clients: ClientService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithClient>();
    const secretKey = readSecretKeyHeader(request);
    // Guards run before the request deadline interceptor, so this lookup bounds its own wait.
    const clientId = await withDeadline(this.clients.findIdBySecretKey(secretKey), DATABASE_TIMEOUT_MS, 'database');
    if (clientId === null) throw new UnauthorizedException('secretKey is not valid');
    request.client = { id: clientId };
    return true;
  }
}
