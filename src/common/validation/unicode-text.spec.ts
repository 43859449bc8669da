import { NO_CONTROL_CHARACTER_PATTERN, characterCount, hasNoControlCharacter, isWellFormedText } from './unicode-text';

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

describe('hasNoControlCharacter', () => {
  it.each([
    ['NUL', '\u0000'],
    ['a tab', '\t'],
    ['a line feed', '\n'],
    ['ESC', '\u001b'],
    ['DEL', '\u007f'],
    ['NEL (C1)', '\u0085'],
    ['CSI (C1)', '\u009b'],
  ])('should refuse %s', (_name, control) => {
    expect(hasNoControlCharacter(`a${control}b`)).toBe(false);
    expect(new RegExp(NO_CONTROL_CHARACTER_PATTERN).test(`a${control}b`)).toBe(false);
  });

  it.each([
    ['ASCII', 'Transactional'],
    ['a space', 'ACME SMS'],
    ['letters beyond ASCII', 'Télé ÄCME'],
    ['an emoji', 'SMS 😀'],
    ['a no-break space', 'a\u00a0b'],
  ])('should accept %s', (_name, text) => {
    expect(hasNoControlCharacter(text)).toBe(true);
    expect(new RegExp(NO_CONTROL_CHARACTER_PATTERN).test(text)).toBe(true);
  });
});
