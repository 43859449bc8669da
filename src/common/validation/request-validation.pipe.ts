import { ArgumentMetadata, BadRequestException, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { PUBLIC_HOSTS_ONLY } from './decorators';
import { EmptyBodyDto } from './empty-body.dto';
import { refuseInexactNumbers } from './exact-numbers';

/**
 * The one ValidationPipe: unknown fields are refused, values are not coerced (the string "true" is no boolean),
 * and the message names every failing field.
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  /** `allowPrivateHosts` turns off the rules of the PUBLIC_HOSTS_ONLY group (ALLOW_PRIVATE_PROVIDER_HOSTS=true). */
  constructor({ allowPrivateHosts = false }: { allowPrivateHosts?: boolean } = {}) {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      stopAtFirstError: true,
      // Rules without a group always run (always); grouped ones only when their group is listed (strictGroups).
      always: true,
      strictGroups: true,
      groups: allowPrivateHosts ? [] : [PUBLIC_HOSTS_ONLY],
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new BadRequestException(describeValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Path ids are read as written by their own pipe (PositiveIdPipe): converted here first, "01" would pass as 1.
    if (metadata.type === 'param') return value;
    if (metadata.type !== 'body') return super.transform(value, metadata);
    // No body at all, or an empty one sent with Content-Type: application/json, is an empty object.
    if (value === undefined) return metadata.metatype === EmptyBodyDto ? {} : super.transform({}, metadata);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new BadRequestException('request body must be a JSON object');
    }
    // class-validator has no rules to read on a class without properties; refuse every field here instead.
    if (metadata.metatype === EmptyBodyDto) return refuseAnyField(value);
    refuseInexactNumbers(value);
    return super.transform(value, metadata);
  }
}

function refuseAnyField(body: object): EmptyBodyDto {
  const fields = Object.keys(body);
  if (fields.length > 0) throw new BadRequestException(fields.map((field) => `property ${field} should not exist`).join('; '));
  return {};
}

export function describeValidationErrors(errors: ValidationError[]): string {
  return errors
    .flatMap((error) => [
      ...Object.values(error.constraints ?? {}),
      ...(error.children?.length ? [describeValidationErrors(error.children)] : []),
    ])
    .join('; ');
}
