import { applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiInternalServerErrorResponse,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { ErrorResponseDto } from './error-response.dto';

export function ApiCommonErrors(): ClassDecorator & MethodDecorator {
  return applyDecorators(
    // Registered ahead of the route's own schemas, so the document lists the refusals' schema first.
    ApiExtraModels(ErrorResponseDto),
    ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'Body over 32 KiB' }),
    ApiUnsupportedMediaTypeResponse({ type: ErrorResponseDto, description: 'Body that is not application/json' }),
    ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'Rate limit exceeded; see Retry-After' }),
    ApiInternalServerErrorResponse({ type: ErrorResponseDto, description: 'Unexpected error (generic message)' }),
    ApiServiceUnavailableResponse({ type: ErrorResponseDto, description: 'Database or broker unreachable' }),
  );
}
