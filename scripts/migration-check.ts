/**
 * Fails when the entities and the migrations differ. For each dialect, a new database with every migration applied is
 * compared with the entities by TypeORM's schema builder, which must find nothing to change (CI runs it). MySQL: a
 * database of this run's own (`registry_schema_<pid>_<random>`, `<TEST_DATABASE_PREFIX>_schema_...` when set), dropped
 * after, on the server of SCHEMA_MYSQL_URL (default mysql://root@127.0.0.1:3306). `--dialect mysql|sqlite` checks one.
 */
import 'reflect-metadata';
import { schemaDrift } from './schema-drift';
import { dialectsAsked, withMigratedDatabase } from './schema-databases';
import { runScript } from './script-io';

async function main(): Promise<void> {
  let drifted = false;
  for (const dialect of dialectsAsked()) {
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
