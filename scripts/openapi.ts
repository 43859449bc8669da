/**
 * Writes openapi.json from the code: the application is built exactly as it runs (createApp), on a throwaway SQLite
 * file, without listening. `--check` writes nothing and fails when the committed file differs (CI runs it).
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readFileIfPresent, runScript } from './script-io';

const OUTPUT = resolve(__dirname, '../openapi.json');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-openapi-'));
  Object.assign(process.env, {
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${join(dataDir, 'registry.sqlite')}`,
    ADMIN_API_KEYS: 'openapi-generation-only',
    ENCRYPTION_KEYS: `k0:${Buffer.alloc(32).toString('base64')}`,
  });
  // Imported after the environment is set: configuration is read when the application module loads.
  const { createApp } = await import('../src/create-app');
  const { buildOpenApiDocument } = await import('../src/swagger');
  const app = await createApp();
  let generated: string;
  try {
    generated = `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  if (process.argv.includes('--check')) {
    const committed = readFileIfPresent(OUTPUT);
    if (committed !== generated) {
      console.error('openapi.json differs from what the code generates: run `npm run openapi` and commit the result');
      process.exit(1);
    }
    console.log('openapi.json matches the code');
    return;
  }
  writeFileSync(OUTPUT, generated);
  console.log(`wrote ${OUTPUT}`);
}

runScript(main);
