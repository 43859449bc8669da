import { ArgumentMetadata, BadRequestException, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';

/**
 * The one ValidationPipe: unknown fields are refused, values are not coerced (the string "true" is no boolean),
 * and the message names every failing field.
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new BadRequestException(describeValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body') return super.transform(value, metadata);
    // No body at all, or an empty one sent with Content-Type: application/json, is an empty object.
    if (value === undefined) return super.transform({}, metadata);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new BadRequestException('request body must be a JSON object');
    }
    return super.transform(value, metadata);
  }
}

export function describeValidationErrors(errors: ValidationError[], parentPath = ''): string {
  return errors
    .flatMap((error) => {
      const path = parentPath ? `${parentPath}.${error.property}` : error.property;
      const own = Object.values(error.constraints ?? {});
      const nested = error.children?.length ? [describeValidationErrors(error.children, path)] : [];
      return [...own, ...nested];
    })
    .join('; ');
}
