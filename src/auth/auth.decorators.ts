import { ExecutionContext, UseGuards, applyDecorators, createParamDecorator } from '@nestjs/common';
import { ApiForbiddenResponse, ApiNotFoundResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { CredentialThrottlerGuard } from '../rate-limit/credential-throttler.guard';
import { ChangeOrigin, RequestWithActor, changeOriginOf } from './actor';
import { ApiKeyGuard, DispatchKeyGuard, DispatcherKeyGuard } from './api-key.guard';
import { AuthenticatedClient, RequestWithClient } from './client-lookup';
import { SECRET_KEY_FIELD } from './credential-headers';
import { GetClientKeyGuard, RelayedSecretKeyGuard, SecretKeyGuard } from './secret-key.guard';

/** The names of the credentials in the OpenAPI document (swagger.ts declares them). */
export const ADMIN_API_KEY_SCHEME = 'adminApiKey';
export const SECRET_KEY_SCHEME = 'secretKey';
export const DISPATCHER_API_KEY_SCHEME = 'dispatcherApiKey';

/**
 * Route needs an admin key (`x-api-key`); Swagger shows it. Each decorator below runs its credential's guard, then the
 * throttler, which so counts only credentials found valid.
 */
export function AdminOnly(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(ApiKeyGuard, CredentialThrottlerGuard),
    ApiSecurity(ADMIN_API_KEY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'x-api-key is missing or not valid' }),
  );
}

/**
 * Route needs a dispatcher key (`x-api-key` listed in DISPATCHER_API_KEYS; an admin key is refused 403): credential
 * resolution, or, with DispatchKeyGuard, dispatch's outcome reports.
 */
export function DispatcherOnly(guard: typeof DispatcherKeyGuard = DispatcherKeyGuard): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(guard, CredentialThrottlerGuard),
    ApiSecurity(DISPATCHER_API_KEY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'x-api-key is missing or not a dispatcher key' }),
  );
}

/**
 * Dispatch routing: a dispatcher key (`x-api-key`) and, together, the `secretKey` of the client the dispatcher sends
 * for, as the client gave it (a previous key within its grace too). The client's key is the one rate-limited and noted
 * as used; its refusals are not counted against the dispatcher's address.
 */
export function DispatchForClient(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(DispatchKeyGuard, RelayedSecretKeyGuard, CredentialThrottlerGuard),
    ApiSecurity({ [DISPATCHER_API_KEY_SCHEME]: [], [SECRET_KEY_SCHEME]: [] }),
    ApiUnauthorizedResponse({
      type: ErrorResponseDto,
      description: 'x-api-key is missing or not a dispatcher key, or secretKey is missing or not valid',
    }),
  );
}

/** Route needs a client's `secretKey` (401 when missing or unknown, 403 when its client is disabled); Swagger shows it. */
export function ClientAuthenticated(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(SecretKeyGuard, CredentialThrottlerGuard),
    ApiSecurity(SECRET_KEY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'secretKey is missing or not valid' }),
  );
}

/** get-client's credential: a `secretKey` header (401 when missing) that belongs to a client (404 when not). */
export function ClientKeyLookup(): MethodDecorator {
  return applyDecorators(
    UseGuards(GetClientKeyGuard, CredentialThrottlerGuard),
    ApiSecurity(SECRET_KEY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'secretKey header is missing' }),
    ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No client has this secretKey' }),
    ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Client is disabled' }),
  );
}

/** The client that the route's guard authenticated. */
export const CurrentClient = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthenticatedClient => context.switchToHttp().getRequest<RequestWithClient>().client!,
);

/** The `secretKey` header as presented (the guard has checked it): get-client echoes it. */
export const PresentedSecretKey = createParamDecorator(
  (_: unknown, context: ExecutionContext): string =>
    context.switchToHttp().getRequest<RequestWithClient>().headers[SECRET_KEY_FIELD] as string,
);

/** Who is making this change, and in which request, for its audit entry. */
export const Origin = createParamDecorator((_: unknown, context: ExecutionContext): ChangeOrigin =>
  changeOriginOf(context.switchToHttp().getRequest<RequestWithActor>()),
);
