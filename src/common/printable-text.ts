const NOT_PRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/gu;

export function printable(text: string, maxLength = 64): string {
  // A code point is at most two UTF-16 units, so nothing past this can be shown.
  const characters = Array.from(text.slice(0, 2 * maxLength + 2).replace(NOT_PRINTABLE, '?'));
  return characters.length <= maxLength ? characters.join('') : `${characters.slice(0, maxLength - 1).join('')}…`;
}

// A field name a 400 echoes, at any depth: the caller chose it, so it is shown printable and cut.
export const MAX_QUOTED_NAME_LENGTH = 64;

export function quotedFieldName(name: string): string {
  return printable(name, MAX_QUOTED_NAME_LENGTH);
}
