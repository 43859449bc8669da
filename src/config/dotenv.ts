import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

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
