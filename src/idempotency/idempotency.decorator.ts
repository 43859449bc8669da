import { UseInterceptors, applyDecorators } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from './idempotency-key';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** The route accepts an Idempotency-Key; `conflict` is what else the route answers 409 for. */
export function Idempotent(conflict?: string): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
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
