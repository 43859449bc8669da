/**
 * Writes kit/schema.ts, the types of the typed client, from the committed openapi.json (openapi-typescript), formatted
 * with the repository's Prettier settings so that `npm run lint` accepts it as written. `--check` writes nothing and
 * fails when the committed file differs (CI runs it after openapi:check).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { runScript, writeOrCheck } from './script-io';

const SOURCE = resolve(__dirname, '../openapi.json');
const OUTPUT = resolve(__dirname, '../kit/schema.ts');
const HEADER = '// Generated from openapi.json by `npm run kit` (openapi-typescript): do not edit, regenerate.\n\n';

async function generate(): Promise<string> {
  const document = JSON.parse(readFileSync(SOURCE, 'utf8')) as OpenAPI3;
  // A property with a default may still be left out of a request: only `required` makes it required.
  const types = astToString(await openapiTS(document, { silent: true, defaultNonNullable: false }));
  return format(HEADER + types, { ...(await resolveConfig(OUTPUT)), filepath: OUTPUT });
}

async function main(): Promise<void> {
  const generated = await generate();

  writeOrCheck(OUTPUT, generated, { source: 'openapi.json', command: 'npm run kit' });
}

runScript(main);
