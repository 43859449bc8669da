import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { ClientService } from '../../client/client.service';
import { readSecretKeyHeader } from '../decorators/secret-key.decorator';

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
    const clientId = await this.clients.findIdBySecretKey(secretKey);
    if (clientId === null) throw new UnauthorizedException('secretKey is not valid');
    request.client = { id: clientId };
    return true;
  }
}
