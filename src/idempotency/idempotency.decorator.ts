import { applyDecorators } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { CountedWhenRunWith } from '../rate-limit/write-limit';
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from './idempotency-key';

export function Idempotent(conflict?: string): MethodDecorator {
  return idempotentRoute(
    `1–255 visible ASCII characters. Retrying with the same key and the same request within 24 h answers the first ` +
      `answer again, byte for byte, with \`${REPLAYED_HEADER}: true\`, and does nothing twice. Scoped to the credential.`,
    'Idempotency-Key was used with a different request',
    conflict,
  );
}

export function IdempotentHoldingSecretKey(conflict?: string): MethodDecorator {
  return idempotentRoute(
    `1–255 visible ASCII characters. Retrying with the same key and the same request within 10 minutes answers the ` +
      `first answer again, byte for byte, with \`${REPLAYED_HEADER}: true\`, and does nothing twice; each replay is ` +
      `audited (client.secret-key.replayed). After 10 minutes the kept answer, which holds a secret key, is deleted and ` +
      `the retry is refused (422); the request is not run again. Scoped to the credential.`,
    'Idempotency-Key was used with a different request; or: Idempotency-Key has expired for an answer holding a secret key',
    conflict,
  );
}

function idempotentRoute(description: string, unprocessable: string, conflict?: string): MethodDecorator {
  return applyDecorators(
    CountedWhenRunWith(IDEMPOTENCY_KEY_HEADER),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
      description,
    }),
    ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: unprocessable }),
    ApiConflictResponse({
      type: ErrorResponseDto,
      description: [conflict, 'A request with this Idempotency-Key is in progress'].filter(Boolean).join('; or: '),
    }),
  );
}
