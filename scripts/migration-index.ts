/**
 * `npm run migration:index`: writes src/database/migrations/<dialect>/index.ts whole, for each dialect: every migration
 * of the folder (`<timestamp>-<Name>.ts`, exporting `<Name><timestamp>`) imported and listed in timestamp order, the
 * order TypeORM runs them in. `npm run migration:generate` writes it after each migration; run this after writing one by
 * hand; `npm run migration:check` fails while an index is not what its folder holds. `--dialect mysql|sqlite` writes one.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { dialectsAsked } from './schema-databases';
import { SchemaDialect } from './schema-drift';
import { runScript } from './script-io';

/** A dialect's folder of migrations. */
export function migrationsFolder(dialect: SchemaDialect): string {
  return resolve(__dirname, `../src/database/migrations/${dialect}`);
}

/** The migrations of a folder in timestamp order: each file's name without `.ts`, its timestamp, name and class. */
export function migrationsIn(folder: string): Array<{ file: string; timestamp: number; name: string; className: string }> {
  return readdirSync(folder)
    .map((file) => /^(\d+)-([A-Za-z0-9]+)\.ts$/.exec(file))
    .filter((match) => match !== null)
    .map(([, timestamp, name]) => ({ file: `${timestamp}-${name}`, timestamp: Number(timestamp), name, className: `${name}${timestamp}` }))
    .sort((a, b) => a.timestamp - b.timestamp || a.file.localeCompare(b.file));
}

/** The folder's index.ts, before prettier: the list is named after the folder (`MYSQL_MIGRATIONS`, `SQLITE_MIGRATIONS`). */
export function migrationIndexSource(folder: string): string {
  const migrations = migrationsIn(folder);
  const imports = migrations.map(({ file, className }) => `import { ${className} } from './${file}';\n`).join('');
  const list = migrations.map(({ className }) => `  ${className},\n`).join('');
  return `// Written whole by npm run migration:generate (or migration:index) from the migrations of this folder: never by hand.
${imports}
/** In timestamp order. Each may run again after failing at any statement, and none needs privileges beyond its own database. */
export const ${basename(folder).toUpperCase()}_MIGRATIONS = [\n${list}];
`;
}

/** Writes the folder's index.ts. */
export async function writeMigrationIndex(folder: string, format = formatted): Promise<void> {
  const path = join(folder, 'index.ts');
  writeFileSync(path, await format(path, migrationIndexSource(folder)));
}

/** The text as prettier writes the file at `path`. */
export async function formatted(path: string, text: string): Promise<string> {
  // Loaded here only: prettier's CommonJS build imports dynamically, which jest (the test of these scripts) cannot.
  const { format, resolveConfig } = await import('prettier');
  return format(text, { ...(await resolveConfig(path)), filepath: path });
}

async function main(): Promise<void> {
  for (const dialect of dialectsAsked()) {
    await writeMigrationIndex(migrationsFolder(dialect));
    console.log(`migration:index: ${dialect}: wrote ${join(migrationsFolder(dialect), 'index.ts')}`);
  }
}

if (require.main === module) runScript(main);
