import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsOptional, IsString, IsUrl, Length, MaxLength, ValidationOptions, registerDecorator } from 'class-validator';

const MAX_URL_LENGTH = 2048;

/** An absolute http(s) URL of at most 2048 characters; hosts without a dot (localhost, service names) are allowed. */
export function IsHttpUrl(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(ApiProperty({ format: 'uri', maxLength: MAX_URL_LENGTH, ...docs }), ...httpUrlChecks());
}

/** The same, optional; null counts as not given. */
export function IsOptionalHttpUrl(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ format: 'uri', maxLength: MAX_URL_LENGTH, ...docs }), ...httpUrlChecks(), IsOptional());
}

function httpUrlChecks(): PropertyDecorator[] {
  return [
    IsString(),
    MaxLength(MAX_URL_LENGTH),
    IsUrl(
      { protocols: ['http', 'https'], require_protocol: true, require_tld: false, allow_underscores: true },
      { message: ({ property }) => `${property} must be an absolute http(s) URL` },
    ),
  ];
}

/** A required string of `minLength` to `maxLength` characters, checked and documented with the same limits. */
export function IsText(minLength: number, maxLength: number, docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(ApiProperty({ minLength, maxLength, ...docs }), IsString(), Length(minLength, maxLength));
}

/** An optional string of at most `maxLength` characters (null counts as not given), checked and documented alike. */
export function IsOptionalText(maxLength: number, docs: ApiPropertyOptions = {}): PropertyDecorator {
  // The string check is registered first, as stacked decorators would be: a number is refused as "must be a string".
  return applyDecorators(ApiPropertyOptional({ maxLength, ...docs }), IsString(), MaxLength(maxLength), IsOptional());
}

export const MAX_AMOUNT_EXCLUSIVE = 1e12;
export const AMOUNT_DECIMAL_PLACES = 6;

/** An optional amount (default 0) that DECIMAL(18,6) keeps exactly: checked by IsDecimalAmount, documented alike. */
export function IsOptionalAmount(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      minimum: 0,
      maximum: MAX_AMOUNT_EXCLUSIVE,
      exclusiveMaximum: true,
      ...docs,
      default: 0,
      description:
        'At most 6 decimal places, and kept exactly as sent: a number a double would change (more than 15 significant digits, such as 8589934592.000001) is refused with 400',
    }),
    IsDecimalAmount(),
    IsOptional(),
  );
}

/** A JSON number ≥ 0 and < 10^12 with at most 6 decimal places, so DECIMAL(18,6) keeps it exactly. */
export function IsDecimalAmount(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isDecimalAmount',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: ({ property }) =>
          `${property} must be a number >= 0 and < 1000000000000 with at most ${AMOUNT_DECIMAL_PLACES} decimal places`,
        ...options,
      },
      validator: { validate: isDecimalAmount },
    });
}

export function isDecimalAmount(value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value >= MAX_AMOUNT_EXCLUSIVE) return false;
  const text = value.toString();
  // Below 1e-6 JavaScript switches to exponent notation, which always means more than 6 decimals.
  if (text.includes('e')) return value === 0;
  return (text.split('.')[1]?.length ?? 0) <= AMOUNT_DECIMAL_PLACES;
}
