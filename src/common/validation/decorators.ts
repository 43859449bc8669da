import { applyDecorators } from '@nestjs/common';
import { IsString, IsUrl, MaxLength, ValidationOptions, registerDecorator } from 'class-validator';

/** An absolute http(s) URL; hosts without a dot (localhost, service names) are allowed. */
export function IsHttpUrl(maxLength = 2048): PropertyDecorator {
  return applyDecorators(
    IsString(),
    MaxLength(maxLength),
    IsUrl(
      { protocols: ['http', 'https'], require_protocol: true, require_tld: false, allow_underscores: true },
      { message: ({ property }) => `${property} must be an absolute http(s) URL` },
    ),
  );
}

export const MAX_AMOUNT_EXCLUSIVE = 1e12;
export const AMOUNT_DECIMAL_PLACES = 6;

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
