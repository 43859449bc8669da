import { applyDecorators } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { CountedWhenRunWith } from '../rate-limit/write-limit';
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from './idempotency-key';

/**
 * Documents a route's Idempotency-Key; `conflict` is what else it answers 409 for. The handler runs its work through
 * IdempotencyService.once() with the request's @IdempotencyOf() (not an interceptor: Nest's interceptors put every
 * request of the route through rxjs, a quarter of add client's time, with or without the header).
 */
export function Idempotent(conflict?: string): MethodDecorator {
  return applyDecorators(
    // A replay is not a write: IdempotencyService counts the request only when it runs.
    CountedWhenRunWith(IDEMPOTENCY_KEY_HEADER),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      description:
        `1–255 visible ASCII characters. Retrying with the same key and the same request within 24 h answers the first ` +
        `answer again, byte for byte, with \`${REPLAYED_HEADER}: true\`, and does nothing twice. Scoped to the credential.`,
    }),
    ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'Idempotency-Key was used with a different request' }),
    ApiConflictResponse({
      type: ErrorResponseDto,
      description: [conflict, 'A request with this Idempotency-Key is in progress'].filter(Boolean).join('; or: '),
    }),
  );
}
