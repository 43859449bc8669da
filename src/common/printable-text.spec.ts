import { printable } from './printable-text';

describe('printable', () => {
  it('should keep printable text of at most the limit as it is', () => {
    expect(printable('providerName')).toBe('providerName');
    expect(printable('a'.repeat(64))).toBe('a'.repeat(64));
    expect(printable('😀 é ü ❤️ 名前')).toBe('😀 é ü ❤️ 名前');
  });

  it('should cut longer text to the limit, in characters, the last one an ellipsis', () => {
    expect(printable('a'.repeat(65))).toBe(`${'a'.repeat(63)}…`);
    expect(printable('a'.repeat(200))).toHaveLength(64);
    expect(printable('😀'.repeat(100))).toBe(`${'😀'.repeat(63)}…`);
    expect(printable('abcdef', 4)).toBe('abc…');
  });

  it.each([
    ['NUL', '\u0000'],
    ['a tab', '\t'],
    ['a carriage return', '\r'],
    ['a line feed', '\n'],
    ['an escape', '\u001b'],
    ['DEL', '\u007f'],
    ['a C1 control', '\u009b'],
    ['a right-to-left override', '\u202e'],
    ['a zero-width space', '\u200b'],
    ['a line separator', '\u2028'],
    ['a paragraph separator', '\u2029'],
    ['an unpaired surrogate', '\ud800'],
    ['a private-use character', '\ue000'],
  ])('should write %s as ?', (_case, character) => {
    expect(printable(`a${character}b`)).toBe('a?b');
  });

  it('should not split a character at the cut', () => {
    expect(printable(`${'a'.repeat(62)}😀😀😀`)).toBe(`${'a'.repeat(62)}😀…`);
  });

  it('should read no more of a long text than it can show', () => {
    expect(printable(`${'a'.repeat(100)}\u0000`.repeat(1000))).toBe(`${'a'.repeat(63)}…`);
  });
});
