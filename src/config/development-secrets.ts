import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DevelopmentSecrets {
  adminApiKey: string;
  encryptionKeys: string;
}

export function loadDevelopmentSecrets(dataDir: string): { secrets: DevelopmentSecrets; file: string; created: boolean } {
  const file = join(dataDir, 'development-secrets.json');
  try {
    return { secrets: JSON.parse(readFileSync(file, 'utf8')) as DevelopmentSecrets, file, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets: DevelopmentSecrets = {
    adminApiKey: `ak_${randomBytes(32).toString('base64url')}`,
    encryptionKeys: `dev1:${randomBytes(32).toString('base64')}`,
  };
  mkdirSync(dataDir, { recursive: true });
  // Written aside then linked into place, so a concurrent start never reads a half-written file.
  const draft = `${file}.${process.pid}.tmp`;
  writeFileSync(draft, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadDevelopmentSecrets(dataDir);
    throw error;
  } finally {
    unlinkSync(draft);
  }
  return { secrets, file, created: true };
}
