/**
 * Fails when the entities and the migrations differ, or when a dialect's index.ts does not list every migration of its
 * folder (`npm run migration:index` writes it). For each dialect, a new database with every migration applied is
 * compared with the entities by TypeORM's schema builder, which must find nothing to change (CI runs it). MySQL: a
 * database of this run's own (`registry_schema_<pid>_<random>`, `<TEST_DATABASE_PREFIX>_schema_...` when set), dropped
 * after, on the server of SCHEMA_MYSQL_URL (default mysql://root@127.0.0.1:3306). `--dialect mysql|sqlite` checks one.
 */
import 'reflect-metadata';
import { join } from 'node:path';
import { formatted, migrationIndexSource, migrationsFolder } from './migration-index';
import { schemaDrift } from './schema-drift';
import { dialectsAsked, withMigratedDatabase } from './schema-databases';
import { readFileIfPresent, runScript } from './script-io';

async function main(): Promise<void> {
  let drifted = false;
  for (const dialect of dialectsAsked()) {
    const index = join(migrationsFolder(dialect), 'index.ts');
    if (readFileIfPresent(index) !== (await formatted(index, migrationIndexSource(migrationsFolder(dialect))))) {
      throw new Error(`src/database/migrations/${dialect}/index.ts does not list the folder's migrations: run \`npm run migration:index\``);
    }
    const drift = await withMigratedDatabase(dialect, schemaDrift);
    if (drift.length === 0) {
      console.log(`migration:check: ${dialect}: the migrations build exactly what the entities say`);
      continue;
    }
    drifted = true;
    console.error(`migration:check: ${dialect}: the entities and the migrations differ; to match the entities, TypeORM would run:`);
    for (const statement of drift) console.error(`  ${statement}`);
  }
  if (drifted) throw new Error('the entities and the migrations differ: change an entity, then run `npm run migration:generate -- <Name>`');
}

runScript(main);
