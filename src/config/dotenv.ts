import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Loads `<cwd>/.env` into the environment when there is one, before the configuration is read. A variable already in
 * the environment wins over the file, even one set to ''. Parsed by Node's own parser (the one of process.loadEnvFile);
 * the values are never logged. Returns the file read, or undefined when there is none.
 */
export function loadDotEnv(cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = join(cwd, '.env');
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  for (const [name, value] of Object.entries(parseEnv(content))) {
    if (env[name] === undefined && value !== undefined) env[name] = value;
  }
  return file;
}
