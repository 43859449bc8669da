import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { sourceAddressOf, userAgentOf } from '../common/caller-trace';
import { callerRequestIdOf } from '../common/request-id';
import { ChangeOrigin, RequestWithActor } from './actor';
import { AuthenticatedClient, RequestWithClient } from './client-lookup';
import { SECRET_KEY_FIELD } from './credential-headers';

// The document's names of the credentials; the routes' decorators (routes/route.decorators.ts) run their guards.
export const ADMIN_API_KEY_SCHEME = 'adminApiKey';
export const SECRET_KEY_SCHEME = 'secretKey';
export const DISPATCHER_API_KEY_SCHEME = 'dispatcherApiKey';

export const CurrentClient = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthenticatedClient => context.switchToHttp().getRequest<RequestWithClient>().client!,
);

export const PresentedSecretKey = createParamDecorator(
  (_: unknown, context: ExecutionContext): string =>
    context.switchToHttp().getRequest<RequestWithClient>().headers[SECRET_KEY_FIELD] as string,
);

export const Origin = createParamDecorator((_: unknown, context: ExecutionContext): ChangeOrigin =>
  changeOriginOf(context.switchToHttp().getRequest<RequestWithActor>()),
);

// Here, not beside ChangeOrigin: every feature's repository imports that type, and this reads the request.
export function changeOriginOf(request: RequestWithActor): ChangeOrigin {
  return {
    actor: request.actor!,
    requestId: String(request.id),
    callerRequestId: callerRequestIdOf(request),
    sourceAddress: sourceAddressOf(request.ip),
    userAgent: userAgentOf(request.headers),
  };
}
