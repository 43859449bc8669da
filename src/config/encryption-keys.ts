import { EncryptionKey } from './app-config';
import { ConfigurationError } from './environment';

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

export function parseEncryptionKeys(value: string): EncryptionKey[] {
  const keys = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map(parseEncryptionKey);
  if (keys.length === 0) throw new ConfigurationError('Invalid configuration: ENCRYPTION_KEYS holds no key');
  const ids = new Set(keys.map((key) => key.id));
  if (ids.size !== keys.length) throw new ConfigurationError('Invalid configuration: ENCRYPTION_KEYS repeats a key id');
  return keys;
}

function parseEncryptionKey(entry: string): EncryptionKey {
  const separator = entry.indexOf(':');
  const id = entry.slice(0, separator);
  const key = Buffer.from(entry.slice(separator + 1), 'base64');
  if (separator < 1 || !KEY_ID.test(id) || key.length !== 32) {
    throw new ConfigurationError(
      'Invalid configuration: ENCRYPTION_KEYS entries must be <id>:<base64 of 32 bytes>, the id made of letters, digits, - and _',
    );
  }
  return { id, key };
}
