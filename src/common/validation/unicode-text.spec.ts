import { PLAIN_TEXT_PATTERN, characterCount, isWellFormedText, plainTextRefusal } from './unicode-text';

describe('characterCount', () => {
  it.each([
    ['an empty string', '', 0],
    ['ASCII', 'Billing', 7],
    ['an accented letter (one code point)', 'é', 1],
    ['a letter with a combining accent', 'e\u0301', 2],
    ['an emoji (a surrogate pair)', '😀', 1],
    ['an emoji with its variation selector', '😀\uFE0F', 2],
    ['a heart with its variation selector', '\u2764\uFE0F', 2],
    ['a family emoji joined by ZWJ', '👨\u200D👩\u200D👧', 5],
    ['a flag (two regional indicators)', '🇫🇷', 2],
    ['a lone high surrogate', '\ud800', 1],
    ['a lone low surrogate', '\udc00', 1],
    ['a low surrogate before a high one', '\udc00\ud800', 2],
    ['a NUL character', '\u0000', 1],
  ])('should count %s as MySQL counts code points', (_case, text, expected) => {
    expect(characterCount(text)).toBe(expected);
    expect(characterCount(text)).toBe([...text].length);
  });
});

describe('isWellFormedText', () => {
  it.each(['', 'Billing', '😀\uFE0F', 'e\u0301', '\u0000', '\uFFFD'])('should accept %j', (text) => {
    expect(isWellFormedText(text)).toBe(true);
  });

  it.each(['\ud800', 'a\udc00', '\udc00\ud800', `${'😀'.slice(0, 1)}x`])('should refuse %j, which has no UTF-8 form', (text) => {
    expect(isWellFormedText(text)).toBe(false);
  });
});

describe('plainTextRefusal', () => {
  it.each([
    ['NUL', '\u0000'],
    ['a tab', '\t'],
    ['a line feed', '\n'],
    ['ESC', '\u001b'],
    ['DEL', '\u007f'],
    ['NEL (C1)', '\u0085'],
    ['CSI (C1)', '\u009b'],
  ])('should refuse %s as a control character', (_name, control) => {
    expect(plainTextRefusal(`a${control}b`)).toBe('must not contain a control character');
    expect(new RegExp(PLAIN_TEXT_PATTERN, 'u').test(`a${control}b`)).toBe(false);
  });

  it.each([
    ['LRE', '\u202a'],
    ['RLE', '\u202b'],
    ['PDF', '\u202c'],
    ['LRO', '\u202d'],
    ['RLO', '\u202e'],
    ['LRI', '\u2066'],
    ['RLI', '\u2067'],
    ['FSI', '\u2068'],
    ['PDI', '\u2069'],
    ['the line separator', '\u2028'],
    ['the paragraph separator', '\u2029'],
  ])('should refuse %s as a bidirectional control or separator', (_name, character) => {
    expect(plainTextRefusal(`a${character}b`)).toBe(
      'must not contain a bidirectional control or a line or paragraph separator (U+202A-U+202E, U+2066-U+2069, U+2028, U+2029)',
    );
    expect(new RegExp(PLAIN_TEXT_PATTERN, 'u').test(`a${character}b`)).toBe(false);
  });

  it('should name the control character first when a text holds both', () => {
    expect(plainTextRefusal('\u202e\t')).toBe('must not contain a control character');
  });

  it.each([
    ['ASCII', 'Transactional'],
    ['a space', 'ACME SMS'],
    ['letters beyond ASCII', 'Télé ÄCME'],
    ['an emoji', 'SMS 😀'],
    ['a no-break space', 'a\u00a0b'],
    ['right-to-left letters', 'كتاب'],
    ['the marks LRM, RLM and ALM', 'a\u200eb\u200fc\u061cd'],
    ['the neighbours of the ranges', 'a\u2027b\u202fc\u2065d\u206ae'],
  ])('should accept %s', (_name, text) => {
    expect(plainTextRefusal(text)).toBeUndefined();
    expect(new RegExp(PLAIN_TEXT_PATTERN, 'u').test(text)).toBe(true);
  });
});
