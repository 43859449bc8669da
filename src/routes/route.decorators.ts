import { CanActivate, SetMetadata, Type, UseGuards, applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiExtension,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiResponseOptions,
  ApiSecurity,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ApiKeyGuard, DispatchKeyGuard, DispatcherKeyGuard } from '../auth/api-key.guard';
import { ADMIN_API_KEY_SCHEME, DISPATCHER_API_KEY_SCHEME, SECRET_KEY_SCHEME } from '../auth/auth.decorators';
import { REQUIRED_SCOPE, RETRIED_BY_PREVIOUS_KEY, RequiredScope } from '../auth/key-scopes';
import { GetClientKeyGuard, RelayedSecretKeyGuard, SecretKeyGuard } from '../auth/secret-key.guard';
import { ApiCommonErrors } from '../common/errors/api-errors.decorator';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { MAX_NAMED_FIELDS } from '../common/validation/request-validation.pipe';
import { Idempotent, IdempotentHoldingSecretKey } from '../idempotency/idempotency.decorator';
import { CredentialThrottlerGuard } from '../rate-limit/credential-throttler.guard';
import { ClientWrite } from '../rate-limit/write-limit';

/** The document's name for what a client's key must hold on an operation. */
export const REQUIRED_SCOPE_EXTENSION = 'x-required-scope';

/** The validation pipe's refusal of a body, as the document describes it. */
export const FIELDS_REFUSED = `Invalid request; the message names the failing fields (${MAX_NAMED_FIELDS} at most, then how many more)`;

const REQUEST_REFUSED = 'Invalid path id, query or body; the message names the problem';

/** What a route refuses beyond what every route may (ApiCommonErrors) and its credential's 401, as the document says it. */
export interface RouteOptions {
  /** Else REQUEST_REFUSED. */
  badRequest?: string;
  forbidden?: string;
  notFound?: string;
  /** On a route with an Idempotency-Key, the refusal of a request still in progress with the same key follows it. */
  conflict?: string;
  /** Takes an Idempotency-Key; its handler runs its work through IdempotencyOf's once(). */
  idempotent?: true | 'holding a secret key';
}

export interface ClientRouteOptions extends RouteOptions {
  /** What the client's key must reach: a scope of a scoped key, or `root` (the current root key only). */
  scope: RequiredScope;
  /** Counted against the client's writes limit (only when it runs, if a kept answer may be replayed). */
  write?: true;
  /** get-client: an unknown key is 404, as the edge answers it. */
  keyLookup?: true;
  /** Rotation: the previous root key passes with an Idempotency-Key, for its retry's replay; the handler refuses it the rest. */
  retriedByPreviousKey?: true;
}

export interface DispatcherRouteOptions extends RouteOptions {
  /** Routing and reports rather than resolving credentials: an admin key's 403 names the task. */
  task?: 'dispatch';
  /** With the client's secretKey beside the dispatcher's key (route). */
  forClient?: true;
}

interface Credential {
  guards: Array<Type<CanActivate>>;
  scheme: string | Record<string, string[]>;
  missing: string;
}

export function AdminRoute(options: RouteOptions = {}): MethodDecorator {
  return route({ guards: [ApiKeyGuard], scheme: ADMIN_API_KEY_SCHEME, missing: 'x-api-key is missing or not valid' }, options);
}

export function ClientRoute({ scope, write, keyLookup, retriedByPreviousKey, ...options }: ClientRouteOptions): MethodDecorator {
  const requires = applyDecorators(
    SetMetadata(REQUIRED_SCOPE, scope),
    SetMetadata(RETRIED_BY_PREVIOUS_KEY, retriedByPreviousKey === true),
    ApiExtension(REQUIRED_SCOPE_EXTENSION, scope),
  );
  if (keyLookup) {
    const lookup = route(
      { guards: [GetClientKeyGuard], scheme: SECRET_KEY_SCHEME, missing: 'secretKey header is missing' },
      { notFound: 'No client has this secretKey', forbidden: forbiddenForKey('Client is disabled', scope), ...options },
    );
    return applyDecorators(requires, lookup);
  }
  const forbidden = forbiddenForKey(options.forbidden ?? 'The client is disabled', scope);
  const client = route(
    { guards: [SecretKeyGuard], scheme: SECRET_KEY_SCHEME, missing: 'secretKey is missing or not valid' },
    { ...options, forbidden },
  );
  return write ? applyDecorators(requires, client, ClientWrite()) : applyDecorators(requires, client);
}

// A scoped key's refusals come before the route's own.
function forbiddenForKey(forbidden: string, scope: RequiredScope): string {
  const keys =
    scope === 'root'
      ? 'the key is not the current root key (secretKey does not have the scope root)'
      : `the key is a scoped key without ${scope} (secretKey does not have the scope ${scope}), or used from outside its allowedSources`;
  return `${forbidden}; or ${keys}`;
}

export function DispatcherRoute({ task, forClient, ...options }: DispatcherRouteOptions): MethodDecorator {
  if (forClient) {
    // The client's key is the one rate-limited and noted as used; its refusals are not counted against the dispatcher's address.
    const guards = [DispatchKeyGuard, RelayedSecretKeyGuard];
    const scheme = { [DISPATCHER_API_KEY_SCHEME]: [], [SECRET_KEY_SCHEME]: [] };
    const relayed = route(
      { guards, scheme, missing: 'x-api-key is missing or not a dispatcher key, or secretKey is missing or not valid' },
      options,
    );
    const scope: RequiredScope = 'dispatch';
    return applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), ApiExtension(REQUIRED_SCOPE_EXTENSION, scope), relayed);
  }
  const guards = [task === 'dispatch' ? DispatchKeyGuard : DispatcherKeyGuard];
  return route({ guards, scheme: DISPATCHER_API_KEY_SCHEME, missing: 'x-api-key is missing or not a dispatcher key' }, options);
}

// The credential's guard runs first, then the throttler, which so counts only credentials found valid.
function route({ guards, scheme, missing }: Credential, options: RouteOptions): MethodDecorator {
  const { badRequest = REQUEST_REFUSED, forbidden, notFound, conflict, idempotent } = options;
  const refusal = (respond: (options: ApiResponseOptions) => MethodDecorator, description?: string) =>
    description === undefined ? [] : [respond({ type: ErrorResponseDto, description })];
  return applyDecorators(
    UseGuards(...guards, CredentialThrottlerGuard),
    ApiSecurity(scheme),
    ApiCommonErrors(),
    ...refusal(ApiUnauthorizedResponse, missing),
    ...refusal(ApiBadRequestResponse, badRequest),
    ...refusal(ApiForbiddenResponse, forbidden),
    ...refusal(ApiNotFoundResponse, notFound),
    ...(idempotent === true
      ? [Idempotent(conflict)]
      : idempotent
        ? [IdempotentHoldingSecretKey(conflict)]
        : refusal(ApiConflictResponse, conflict)),
  );
}
