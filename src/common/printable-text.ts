/**
 * What prints nothing or moves the cursor: control and format characters (bidirectional overrides among them),
 * unpaired surrogates, private-use and unassigned code points, line and paragraph separators.
 */
const NOT_PRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/gu;

/**
 * Caller-written text quoted in an answer, a log line or a metric label: each character that would not print becomes
 * `?`, and text over `maxLength` characters (code points) is cut to that many, the last one `…`.
 */
export function printable(text: string, maxLength = 64): string {
  // A character is at most two UTF-16 units: the rest can never be shown, so it is never read.
  const characters = Array.from(text.slice(0, 2 * maxLength + 2).replace(NOT_PRINTABLE, '?'));
  return characters.length <= maxLength ? characters.join('') : `${characters.slice(0, maxLength - 1).join('')}…`;
}
