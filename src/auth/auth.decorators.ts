import { ExecutionContext, UseGuards, applyDecorators, createParamDecorator } from '@nestjs/common';
import { ApiForbiddenResponse, ApiNotFoundResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { CredentialThrottlerGuard } from '../rate-limit/credential-throttler.guard';
import { ChangeOrigin, RequestWithActor, changeOriginOf } from './actor';
import { ApiKeyGuard, DispatchKeyGuard, DispatcherKeyGuard } from './api-key.guard';
import { AuthenticatedClient, RequestWithClient } from './client-lookup';
import { SECRET_KEY_FIELD } from './credential-headers';
import { GetClientKeyGuard, RelayedSecretKeyGuard, SecretKeyGuard } from './secret-key.guard';

export const ADMIN_API_KEY_SCHEME = 'adminApiKey';
export const SECRET_KEY_SCHEME = 'secretKey';
export const DISPATCHER_API_KEY_SCHEME = 'dispatcherApiKey';

// Each decorator runs its credential's guard, then the throttler, which so counts only credentials found valid.
export function AdminOnly(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(ApiKeyGuard, CredentialThrottlerGuard),
    ApiSecurity(ADMIN_API_KEY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'x-api-key is missing or not valid' }),
  );
}

export function DispatcherOnly(guard: typeof DispatcherKeyGuard = DispatcherKeyGuard): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(guard, CredentialThrottlerGuard),
    ApiSecurity(DISPATCHER_API_KEY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'x-api-key is missing or not a dispatcher key' }),
  );
}

// The client's key is the one rate-limited and noted as used; its refusals are not counted against the dispatcher's address.
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

export function ClientAuthenticated(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(SecretKeyGuard, CredentialThrottlerGuard),
    ApiSecurity(SECRET_KEY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'secretKey is missing or not valid' }),
  );
}

export function ClientKeyLookup(): MethodDecorator {
  return applyDecorators(
    UseGuards(GetClientKeyGuard, CredentialThrottlerGuard),
    ApiSecurity(SECRET_KEY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'secretKey header is missing' }),
    ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No client has this secretKey' }),
    ApiForbiddenResponse({ type: ErrorResponseDto, description: 'Client is disabled' }),
  );
}

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
