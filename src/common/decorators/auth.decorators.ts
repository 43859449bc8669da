import { UseGuards, applyDecorators } from '@nestjs/common';
import { ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ApiKeyGuard } from '../guards/api-key.guard';
import { SecretKeyGuard } from '../guards/secret-key.guard';
import { ErrorResponseDto } from '../filters/error-response.dto';

export const ADMIN_API_KEY_SCHEME = 'adminApiKey';
export const SECRET_KEY_SCHEME = 'secretKey';

/** Route needs an admin key (`x-api-key`); Swagger shows it. */
export function AdminOnly(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(ApiKeyGuard),
    ApiSecurity(ADMIN_API_KEY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'x-api-key is missing or not valid' }),
  );
}

/** Route needs a client's `secretKey`; Swagger shows it. */
export function ClientAuthenticated(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(SecretKeyGuard),
    ApiSecurity(SECRET_KEY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorResponseDto, description: 'secretKey is missing or not valid' }),
  );
}
