/**
 * Writes openapi.json from the code: the application is built exactly as it runs (createApp), on a throwaway SQLite
 * file, without listening. `--check` writes nothing and fails when the committed file differs (CI runs it).
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { runScript, withApplication, writeOrCheck } from './script-io';

const OUTPUT = resolve(__dirname, '../openapi.json');

async function main(): Promise<void> {
  const generated = await withApplication(async (app) => {
    const { buildOpenApiDocument } = await import('../src/swagger');
    return `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  });
  writeOrCheck(OUTPUT, generated, { source: 'the code', command: 'npm run openapi' });
}

runScript(main);
