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

// C0, DEL and C1 (Unicode's Cc), as a JSON Schema pattern and as the check's own test.
export const NO_CONTROL_CHARACTER_PATTERN = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';
const CONTROL_CHARACTER = /\p{Cc}/u;

export function hasNoControlCharacter(text: string): boolean {
  return !CONTROL_CHARACTER.test(text);
}

export function HasNoControlCharacter(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'hasNoControlCharacter',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: ({ property }) => `${property} must not contain a control character`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && hasNoControlCharacter(value) },
    });
}

function isBetween(count: number, min: number, max: number): boolean {
  return count >= min && count <= max;
}
