import { ArgumentMetadata, BadRequestException, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { printable } from '../printable-text';
import { PUBLIC_HOSTS_ONLY, isNullClearing } from './decorators';
import { EmptyBodyDto } from './empty-body.dto';
import { refuseInexactNumbers } from './exact-numbers';

/** A refusal names this many failing fields at most, then how many more there are. */
export const MAX_NAMED_FIELDS = 10;
/** A field name quoted in a refusal is cut to this many characters: it is the caller's text. */
export const MAX_QUOTED_NAME_LENGTH = 64;

/**
 * The one ValidationPipe: unknown fields are refused, values are not coerced (the string "true" is no boolean),
 * the message names the failing fields (see describeValidationErrors), and outside PATCH null is not given.
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
    const body: unknown = await super.transform(value, metadata);
    return isNullClearing(metadata.metatype) ? body : withoutNulls(body as object);
  }
}

/**
 * Outside PATCH, a field sent as null that validation let through (the optional fields documented as nullable) is not
 * given: the handler never sees a null it would have to tell apart from an absent field.
 */
function withoutNulls<T extends object>(body: T): T {
  for (const [field, value] of Object.entries(body)) {
    if (value === null) delete (body as Record<string, unknown>)[field];
  }
  return body;
}

function refuseAnyField(body: object): EmptyBodyDto {
  const fields = Object.keys(body);
  if (fields.length > 0)
    throw new BadRequestException(namingAtMost(fields.map((field) => `property ${quotedName(field)} should not exist`)));
  return {};
}

/**
 * One message per failing field, nested ones included, joined with "; ": at most MAX_NAMED_FIELDS of them, then
 * `and <n> more`, each field name printable and cut to MAX_QUOTED_NAME_LENGTH characters. So a body of thousands of
 * unknown fields gets a short answer.
 */
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

function quotedName(name: string): string {
  return printable(name, MAX_QUOTED_NAME_LENGTH);
}

/** class-validator writes the name as sent into its messages: an unknown field's name is the caller's text. */
function withQuotedName(message: string, name: string): string {
  const quoted = quotedName(name);
  return quoted === name ? message : message.split(name).join(quoted);
}
