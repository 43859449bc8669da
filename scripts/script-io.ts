import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** The file's text, or undefined when there is none yet: what a `--check` compares the generated text with. */
export function readFileIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Writes a generated file, or with `--check` writes nothing and exits 1 when the committed one differs (CI runs the
 * checks). `source` names what it is generated from, `command` what regenerates it.
 */
export function writeOrCheck(output: string, generated: string, { source, command }: { source: string; command: string }): void {
  const name = relative(resolve(__dirname, '..'), output);
  if (process.argv.includes('--check')) {
    if (readFileIfPresent(output) !== generated) {
      console.error(`${name} differs from what ${source} generates: run \`${command}\` and commit the result`);
      process.exit(1);
    }
    console.log(`${name} matches ${source}`);
    return;
  }
  writeFileSync(output, generated);
  console.log(`wrote ${output}`);
}

/**
 * The application exactly as it runs (createApp), on a throwaway SQLite file, without listening: what the documents
 * generated from the code are read from.
 */
export async function withApplication<T>(use: (app: NestFastifyApplication) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-generate-'));
  Object.assign(process.env, {
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${join(dataDir, 'registry.sqlite')}`,
    ADMIN_API_KEYS: 'document-generation-only',
    ENCRYPTION_KEYS: `k0:${Buffer.alloc(32).toString('base64')}`,
  });
  // Imported after the environment is set: configuration is read when the application module loads.
  const { createApp } = await import('../src/create-app');
  const app = await createApp();
  try {
    return await use(app);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs a script's main(): exit 0 when it ends, 1 with the error printed when it throws. */
export function runScript(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
