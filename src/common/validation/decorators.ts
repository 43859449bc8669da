import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min, ValidateIf, ValidationOptions, registerDecorator } from 'class-validator';
import { NEVER_PUBLIC_SUFFIXES } from './never-public-names';
import { HasCharacterCount, HasPlainCharacters, IsWellFormedText, PLAIN_TEXT_PATTERN } from './unicode-text';
import { HasNoUserInfo, IsAbsoluteHttpUrl, IsPublicHost, IsUnambiguousUrl } from './url-host';

const MAX_URL_LENGTH = 2048;

const nullClearingBodies = new WeakSet<object>();

// With ValidateIf: a field left out is not checked, a null one is (and refused where null means nothing).
export const isSent = (_object: object, value: unknown) => value !== undefined;

export function NullClears(): ClassDecorator {
  return (target) => {
    nullClearingBodies.add(target);
  };
}

export function isNullClearing(type: unknown): boolean {
  return typeof type === 'function' && nullClearingBodies.has(type);
}

export const PUBLIC_HOSTS_ONLY = 'public-hosts-only';

const NO_USER_INFO_RULE = 'Without a user name or password (user:pass@)';
const HOST_FORM_RULE =
  'Its host a DNS name or an IP address in its usual form (a host written as one number, such as 2130706433, is refused)';
const UNAMBIGUOUS_RULE = 'Without a backslash, a control character or whitespace, on which URL parsers disagree about the host';
export const PUBLIC_HOST_RULE =
  'A private, loopback, link-local or other non-public address, or a name that is never public ' +
  `(${NEVER_PUBLIC_SUFFIXES.join(', ')}, and any name under them), is refused unless ALLOW_PRIVATE_PROVIDER_HOSTS=true. ` +
  'Names are not resolved: a public name that answers a private address (DNS rebinding) is for the sender to refuse once it resolves it';

export function IsHttpUrl(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(ApiProperty(urlDocs(docs, [HOST_FORM_RULE, NO_USER_INFO_RULE])), ...httpUrlChecks());
}

export function IsProviderUrl(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(ApiProperty(providerUrlDocs(docs)), ...providerUrlChecks());
}

export function IsOptionalProviderUrl(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional(providerUrlDocs({ type: String, nullable: true, ...docs })),
    ...providerUrlChecks(),
    IsOptional(),
  );
}

function providerUrlDocs(docs: ApiPropertyOptions): ApiPropertyOptions {
  return urlDocs(docs, [HOST_FORM_RULE, NO_USER_INFO_RULE, UNAMBIGUOUS_RULE, PUBLIC_HOST_RULE]);
}

// The `scheme://host` form that isAbsoluteHttpUrl holds, case-insensitive without a flag (JSON Schema has none).
const SCHEME_AND_HOST_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^/]';

function urlDocs(docs: ApiPropertyOptions, rules: string[]): ApiPropertyOptions {
  const description = [docs.description, ...rules].filter(Boolean).join('. ');
  return { format: 'uri', maxLength: MAX_URL_LENGTH, pattern: SCHEME_AND_HOST_PATTERN, ...docs, description };
}

function httpUrlChecks(): PropertyDecorator[] {
  return [...textChecks(0, MAX_URL_LENGTH), IsAbsoluteHttpUrl(), HasNoUserInfo()];
}

function providerUrlChecks(): PropertyDecorator[] {
  return [
    ...textChecks(0, MAX_URL_LENGTH),
    // Before the URL check, which refuses some of these characters with a message that does not say why.
    IsUnambiguousUrl(),
    IsAbsoluteHttpUrl(),
    HasNoUserInfo(),
    IsPublicHost({ groups: [PUBLIC_HOSTS_ONLY] }),
  ];
}

function textChecks(min: number, max: number): PropertyDecorator[] {
  // First, so that a number is refused as "must be a string".
  return [IsString(), IsWellFormedText(), HasCharacterCount(min, max)];
}

export function IsText(minLength: number, maxLength: number, docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(ApiProperty({ minLength, maxLength, ...docs }), ...textChecks(minLength, maxLength));
}

export function IsOptionalText(maxLength: number, docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength, ...docs }),
    ...textChecks(0, maxLength),
    IsOptional(),
  );
}

// Names, descriptions and notes, shown to people and sent in provider requests: no control character (tab and newline
// included), bidirectional control or line separator. A new field of the kind takes its rule here, in one line.
export function IsPlainText(minLength: number, maxLength: number, docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ minLength, maxLength, pattern: PLAIN_TEXT_PATTERN, ...docs }),
    ...textChecks(minLength, maxLength),
    HasPlainCharacters(),
  );
}

export function IsOptionalPlainText(maxLength: number, docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength, pattern: PLAIN_TEXT_PATTERN, ...docs }),
    ...textChecks(0, maxLength),
    HasPlainCharacters(),
    IsOptional(),
  );
}

// Null is refused: a caller sending null more likely lost the secret than meant to store none.
export function IsOptionalSecret(maxLength: number, docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ maxLength, ...docs }),
    ...textChecks(0, maxLength),
    ValidateIf((_object, value) => value !== undefined),
  );
}

export const MAX_AMOUNT_EXCLUSIVE = 1e12;
export const AMOUNT_DECIMAL_PLACES = 6;

const EXACT_AMOUNT_RULE =
  'At most 6 decimal places, and kept exactly as sent: a number a double would change (more than 15 significant digits, such as 8589934592.000001) is refused with 400';

export function IsOptionalAmount(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: Number,
      nullable: true,
      minimum: 0,
      maximum: MAX_AMOUNT_EXCLUSIVE,
      exclusiveMaximum: true,
      default: 0,
      ...docs,
      description: [docs.description, EXACT_AMOUNT_RULE].filter(Boolean).join('. '),
    }),
    IsDecimalAmount(),
    IsOptional(),
  );
}

// The limits DECIMAL(18,6) keeps exactly; `signed` because a balance a provider reports may be negative.
export function IsDecimalAmount(options?: ValidationOptions, { signed = false } = {}): PropertyDecorator {
  const lowest = signed ? `> -${MAX_AMOUNT_EXCLUSIVE}` : '>= 0';
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isDecimalAmount',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: ({ property }) =>
          `${property} must be a number ${lowest} and < ${MAX_AMOUNT_EXCLUSIVE} with at most ${AMOUNT_DECIMAL_PLACES} decimal places`,
        ...options,
      },
      validator: { validate: (value: unknown) => isDecimalAmount(signed && typeof value === 'number' ? Math.abs(value) : value) },
    });
}

export function IsOptionalSignedAmount(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: Number,
      minimum: -MAX_AMOUNT_EXCLUSIVE,
      maximum: MAX_AMOUNT_EXCLUSIVE,
      exclusiveMinimum: true,
      exclusiveMaximum: true,
      ...docs,
    }),
    IsDecimalAmount(undefined, { signed: true }),
    ValidateIf((_object, value) => value !== undefined),
  );
}

export function IsIntegerFrom(minimum: number, maximum: number, docs: ApiPropertyOptions & { optional?: boolean } = {}): PropertyDecorator {
  const { optional = false, ...documented } = docs;
  return applyDecorators(
    (optional ? ApiPropertyOptional : ApiProperty)({ type: 'integer', minimum, maximum, ...documented }),
    ...integerChecks(minimum, maximum),
    ...(optional ? [ValidateIf((_object: object, value: unknown) => value !== undefined)] : []),
  );
}

export function IsNullableIntegerFrom(minimum: number, maximum: number, docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', nullable: true, minimum, maximum, ...docs }),
    ...integerChecks(minimum, maximum),
    IsOptional(),
  );
}

function integerChecks(minimum: number, maximum: number): PropertyDecorator[] {
  const rule = { message: ({ property }: { property: string }) => `${property} must be an integer from ${minimum} to ${maximum}` };
  return [IsInt(rule), Min(minimum, rule), Max(maximum, rule)];
}

export function isDecimalAmount(value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value >= MAX_AMOUNT_EXCLUSIVE) return false;
  const text = value.toString();
  // Below 1e-6 JavaScript prints an exponent, which always means more than 6 decimals.
  if (text.includes('e')) return value === 0;
  return (text.split('.')[1]?.length ?? 0) <= AMOUNT_DECIMAL_PLACES;
}
