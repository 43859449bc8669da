import { ValidationOptions, registerDecorator } from 'class-validator';

/**
 * Characters as MySQL's utf8mb4 columns count them: Unicode code points. A VARCHAR(100) holds 100 of them, whatever
 * their UTF-16 length (an emoji is 2 units) and however they combine on screen (an emoji with its U+FE0F variation
 * selector, or a letter with a combining accent, is 2). class-validator's Length counts neither way: it skips
 * variation selectors, so "❤️" × 100 passes a limit of 100 and then overflows the column.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}

/** No unpaired surrogate: the text has a UTF-8 form, so the database stores exactly it (not U+FFFD in its place). */
export function isWellFormedText(text: string): boolean {
  return !/\p{Surrogate}/u.test(text);
}

/** A string of `min` to `max` characters, counted as the database counts them (code points). */
export function HasCharacterCount(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'hasCharacterCount',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [min, max],
      options: {
        // The texts of class-validator's Length, which these limits replace.
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

/** A string without unpaired surrogates (JSON's "\ud800" escapes can send one). */
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

function isBetween(count: number, min: number, max: number): boolean {
  return count >= min && count <= max;
}
