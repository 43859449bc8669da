import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsOptional, Matches, ValidationOptions, registerDecorator } from 'class-validator';
import { quotedFieldName } from '../printable-text';
import { AMOUNT_DECIMAL_PLACES, MAX_AMOUNT_EXCLUSIVE, isDecimalAmount } from './decorators';
import { E164_DESTINATION, E164_PREFIX, MAX_ALLOWED_DESTINATIONS, MAX_DESTINATION_PRICES } from './destination-limits';

const ENTRY_FIELDS = ['prefix', 'perSmsCost'];

const PREFIX_RULE = 'must be a string of 1 to 7 digits (an E.164 prefix without +)';

// The first problem, named down to the entry and its field; undefined when the list is valid.
export function destinationPricesProblem(property: string, value: unknown): string | undefined {
  if (!Array.isArray(value)) return `${property} must be an array of {prefix, perSmsCost}, or null`;
  if (value.length > MAX_DESTINATION_PRICES) return `${property} must have at most ${MAX_DESTINATION_PRICES} entries`;
  for (const [index, entry] of (value as unknown[]).entries()) {
    const at = `${property}[${index}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return `${at} must be an object {prefix, perSmsCost}`;
    const unknown = Object.keys(entry).find((field) => !ENTRY_FIELDS.includes(field));
    if (unknown !== undefined) return `property ${quotedFieldName(`${at}.${unknown}`)} should not exist`;
    const { prefix, perSmsCost } = entry as Record<string, unknown>;
    const problem = prefixProblem(`${at}.prefix`, prefix);
    if (problem !== undefined) return problem;
    if (!isDecimalAmount(perSmsCost)) {
      return `${at}.perSmsCost must be a number >= 0 and < ${MAX_AMOUNT_EXCLUSIVE} with at most ${AMOUNT_DECIMAL_PLACES} decimal places`;
    }
  }
  return repeatedPrefixProblem(
    property,
    (value as Array<{ prefix: string }>).map(({ prefix }) => prefix),
  );
}

// As destinationPricesProblem, for a list of bare prefixes.
export function destinationPrefixesProblem(property: string, value: unknown): string | undefined {
  if (!Array.isArray(value)) return `${property} must be an array of E.164 prefixes, or null`;
  if (value.length > MAX_ALLOWED_DESTINATIONS) return `${property} must have at most ${MAX_ALLOWED_DESTINATIONS} entries`;
  for (const [index, prefix] of (value as unknown[]).entries()) {
    const problem = prefixProblem(`${property}[${index}]`, prefix);
    if (problem !== undefined) return problem;
  }
  return repeatedPrefixProblem(property, value as string[]);
}

function prefixProblem(at: string, prefix: unknown): string | undefined {
  return typeof prefix === 'string' && E164_PREFIX.test(prefix) ? undefined : `${at} ${PREFIX_RULE}`;
}

function repeatedPrefixProblem(property: string, prefixes: readonly string[]): string | undefined {
  const seen = new Set<string>();
  const repeated = prefixes.find((prefix) => seen.size === seen.add(prefix).size);
  return repeated === undefined ? undefined : `${property} has prefix ${repeated} more than once`;
}

export function IsDestinationPrices(options?: ValidationOptions): PropertyDecorator {
  return validatedBy('isDestinationPrices', destinationPricesProblem, options);
}

function validatedBy(name: string, problemOf: (property: string, value: unknown) => string | undefined, options?: ValidationOptions) {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: ({ property, value }) => problemOf(property, value) ?? '', ...options },
      validator: { validate: (value: unknown, validation) => problemOf(validation!.property, value) === undefined },
    });
}

export function IsOptionalDestinationPrices(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ nullable: true, maxItems: MAX_DESTINATION_PRICES, ...docs }),
    IsDestinationPrices(),
    IsOptional(),
  );
}

export function IsOptionalDestinationPrefixes(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', pattern: E164_PREFIX.source },
      uniqueItems: true,
      nullable: true,
      maxItems: MAX_ALLOWED_DESTINATIONS,
      example: ['44', '33'],
      ...docs,
    }),
    validatedBy('isDestinationPrefixes', destinationPrefixesProblem),
    IsOptional(),
  );
}

export function IsOptionalDestination(docs: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, pattern: E164_DESTINATION.source, example: '+447700900123', ...docs }),
    Matches(E164_DESTINATION, { message: ({ property }) => `${property} must be + and then 7 to 15 digits (E.164)` }),
    IsOptional(),
  );
}
