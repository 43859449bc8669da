import { ConfigurationError } from './environment';
import { parseEncryptionKeys } from './encryption-keys';

const bytesA = Buffer.alloc(32, 0xa1);
const bytesB = Buffer.alloc(32, 0xb2);
const b64A = bytesA.toString('base64');
const b64B = bytesB.toString('base64');

function expectConfigurationError(value: string): void {
  let thrown: unknown;
  try {
    parseEncryptionKeys(value);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigurationError);
  expect((thrown as Error).message).toContain('ENCRYPTION_KEYS');
}

describe('parseEncryptionKeys', () => {
  it('should parse a single key', () => {
    const keys = parseEncryptionKeys(`kid1:${b64A}`);
    expect(keys).toHaveLength(1);
    expect(keys[0].id).toBe('kid1');
    expect(keys[0].key.equals(bytesA)).toBe(true);
  });

  it('should keep the order of the list, the first key first', () => {
    const keys = parseEncryptionKeys(`kid1:${b64B},kid0:${b64A}`);
    expect(keys.map((key) => key.id)).toEqual(['kid1', 'kid0']);
    expect(keys[0].key.equals(bytesB)).toBe(true);
    expect(keys[1].key.equals(bytesA)).toBe(true);
  });

  it('should tolerate whitespace around entries and empty entries', () => {
    const keys = parseEncryptionKeys(`  kid1:${b64B} ,\n kid0:${b64A}\t, `);
    expect(keys.map((key) => key.id)).toEqual(['kid1', 'kid0']);
    expect(keys[1].key.equals(bytesA)).toBe(true);
  });

  it('should accept ids made of letters, digits, - and _ up to 32 characters', () => {
    const id = 'Ab9_-'.repeat(6) + 'xy';
    expect(id).toHaveLength(32);
    expect(parseEncryptionKeys(`${id}:${b64A}`)[0].id).toBe(id);
  });

  it.each([
    ['an empty value', ''],
    ['only separators and spaces', ' , ,'],
    ['an entry with no id', `:${b64A}`],
    ['an entry with no separator', b64A],
    ['an id with a dot', `kid.1:${b64A}`],
    ['an id with a space', `kid 1:${b64A}`],
    ['an id with a non-ASCII letter', `kidé:${b64A}`],
    ['an id longer than 32 characters', `${'a'.repeat(33)}:${b64A}`],
    ['a key of 16 bytes', `kid1:${Buffer.alloc(16, 1).toString('base64')}`],
    ['a key of 31 bytes', `kid1:${Buffer.alloc(31, 1).toString('base64')}`],
    ['a key of 33 bytes', `kid1:${Buffer.alloc(33, 1).toString('base64')}`],
    ['an empty key', 'kid1:'],
    ['a valid key followed by an invalid one', `kid1:${b64A},kid0:short`],
    ['a repeated id', `kid1:${b64A},kid1:${b64B}`],
  ])('should throw a ConfigurationError naming ENCRYPTION_KEYS for %s', (_label, value) => {
    expectConfigurationError(value);
  });

  it('should say that a key id is repeated', () => {
    expect(() => parseEncryptionKeys(`kid1:${b64A},kid0:${b64B},kid1:${b64B}`)).toThrow(/repeats a key id/);
  });

  it('should say that no key is held when the value is empty', () => {
    expect(() => parseEncryptionKeys('')).toThrow(/holds no key/);
  });
});
