import { ValidationOptions, registerDecorator } from 'class-validator';

// Code points, as utf8mb4 columns count them; class-validator's Length skips variation selectors, so "❤️" × 100 passes
// a limit of 100 and then overflows a VARCHAR(100).
export function characterCount(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}

// An unpaired surrogate has no UTF-8 form: the database would store U+FFFD in its place.
export function isWellFormedText(text: string): boolean {
  return !/\p{Surrogate}/u.test(text);
}

export function HasCharacterCount(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'hasCharacterCount',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [min, max],
      options: {
        message: ({ property, value }) =>
          typeof value === 'string' && characterCount(value) < min
            ? `${property} must be longer than or equal to ${min} characters`
            : `${property} must be shorter than or equal to ${max} characters`,
        ...options,
      },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isBetween(characterCount(value), min, max),
      },
    });
}

export function IsWellFormedText(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isWellFormedText',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: ({ property }) => `${property} must be valid Unicode (it holds an unpaired surrogate)`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && isWellFormedText(value) },
    });
}

// C0, DEL and C1 (Unicode's Cc); the line and paragraph separators, the bidirectional embeddings and overrides
// (U+2028-U+202E) and isolates (U+2066-U+2069), which break or reorder text as people read it. As a JSON Schema pattern.
export const PLAIN_TEXT_PATTERN = '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028-\\u202e\\u2066-\\u2069]*$';
const CONTROL_CHARACTER = /\p{Cc}/u;
const BIDIRECTIONAL_CONTROL_OR_SEPARATOR = /[\u2028-\u202e\u2066-\u2069]/u;

const CONTROL_CHARACTER_REFUSAL = 'must not contain a control character';
const BIDIRECTIONAL_CONTROL_REFUSAL =
  'must not contain a bidirectional control or a line or paragraph separator (U+202A-U+202E, U+2066-U+2069, U+2028, U+2029)';

// Why a text is no plain text, as a 400 says it after the field's name; undefined when it is.
export function plainTextRefusal(text: string): string | undefined {
  if (CONTROL_CHARACTER.test(text)) return CONTROL_CHARACTER_REFUSAL;
  if (BIDIRECTIONAL_CONTROL_OR_SEPARATOR.test(text)) return BIDIRECTIONAL_CONTROL_REFUSAL;
  return undefined;
}

export function HasPlainCharacters(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'hasPlainCharacters',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: ({ property, value }) =>
          `${property} ${(typeof value === 'string' && plainTextRefusal(value)) || CONTROL_CHARACTER_REFUSAL}`,
        ...options,
      },
      validator: { validate: (value: unknown) => typeof value === 'string' && plainTextRefusal(value) === undefined },
    });
}

function isBetween(count: number, min: number, max: number): boolean {
  return count >= min && count <= max;
}
