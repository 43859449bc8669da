import { ArgumentMetadata, BadRequestException, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { quotedFieldName } from '../printable-text';
import { PUBLIC_HOSTS_ONLY, isNullClearing } from './decorators';
import { EmptyBodyDto } from './empty-body.dto';
import { refuseInexactNumbers } from './exact-numbers';

export const MAX_NAMED_FIELDS = 10;

@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor({ allowPrivateHosts = false }: { allowPrivateHosts?: boolean } = {}) {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      stopAtFirstError: true,
      always: true,
      strictGroups: true,
      groups: allowPrivateHosts ? [] : [PUBLIC_HOSTS_ONLY],
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new BadRequestException(describeValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Converted here, "01" would reach PositiveIdPipe as 1.
    if (metadata.type === 'param') return value;
    if (metadata.type !== 'body') return super.transform(value, metadata);
    if (value === undefined) return metadata.metatype === EmptyBodyDto ? {} : super.transform({}, metadata);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new BadRequestException('request body must be a JSON object');
    }
    if (metadata.metatype === EmptyBodyDto) return refuseAnyField(value);
    refuseInexactNumbers(value);
    const body: unknown = await super.transform(value, metadata);
    return isNullClearing(metadata.metatype) ? body : withoutNulls(body as object);
  }
}

function withoutNulls<T extends object>(body: T): T {
  for (const [field, value] of Object.entries(body)) {
    if (value === null) delete (body as Record<string, unknown>)[field];
  }
  return body;
}

function refuseAnyField(body: object): EmptyBodyDto {
  const fields = Object.keys(body);
  if (fields.length > 0)
    throw new BadRequestException(namingAtMost(fields.map((field) => `property ${quotedFieldName(field)} should not exist`)));
  return {};
}

// Capped, so that a body of thousands of unknown fields gets a short answer.
export function describeValidationErrors(errors: ValidationError[]): string {
  return namingAtMost(failingFields(errors));
}

function failingFields(errors: ValidationError[]): string[] {
  return errors.flatMap((error) => {
    const messages = Object.values(error.constraints ?? {}).map((message) => withQuotedName(message, error.property));
    return [...(messages.length > 0 ? [messages.join('; ')] : []), ...failingFields(error.children ?? [])];
  });
}

function namingAtMost(fields: string[]): string {
  const named = fields.slice(0, MAX_NAMED_FIELDS);
  if (fields.length > MAX_NAMED_FIELDS) named.push(`and ${fields.length - MAX_NAMED_FIELDS} more`);
  return named.join('; ');
}

function withQuotedName(message: string, name: string): string {
  const quoted = quotedFieldName(name);
  return quoted === name ? message : message.split(name).join(quoted);
}
