import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { AuthenticatedClient, RequestWithClient } from '../guards/secret-key.guard';

/** The client that SecretKeyGuard authenticated. */
export const CurrentClient = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthenticatedClient => context.switchToHttp().getRequest<RequestWithClient>().client!,
);
