/**
 * `npm run migration:generate -- <Name>`: writes, for each dialect, the migration that takes a database built by the
 * existing migrations to what the entities say (TypeORM's schema builder on a new, migrated database), as
 * src/database/migrations/<dialect>/<timestamp>-<Name>.ts. Then review each one: only add (a new table, a nullable or
 * defaulted column, an index), and let every step run again after a failure (schema-probes.ts). Each is listed in
 * MYSQL_MIGRATIONS / SQLITE_MIGRATIONS (src/database/database-options.ts) here. `--dialect mysql|sqlite` writes one.
 */
import 'reflect-metadata';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Query } from 'typeorm/driver/Query';
import { dialectsAsked, withMigratedDatabase } from './schema-databases';
import { runScript } from './script-io';

async function main(): Promise<void> {
  const name = process.argv.slice(2).find((argument, index, all) => !argument.startsWith('--') && all[index - 1] !== '--dialect');
  if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error('usage: npm run migration:generate -- <PascalCaseName>');
  const timestamp = nextTimestamp();
  for (const dialect of dialectsAsked()) {
    const log = await withMigratedDatabase(dialect, (dataSource) => dataSource.driver.createSchemaBuilder().log());
    if (log.upQueries.length === 0) {
      console.log(`migration:generate: ${dialect}: the entities and the migrations agree; nothing to write`);
      continue;
    }
    const path = resolve(__dirname, `../src/database/migrations/${dialect}/${timestamp}-${name}.ts`);
    writeFileSync(path, migrationSource(`${name}${timestamp}`, log.upQueries, [...log.downQueries].reverse()));
    listMigration(dialect, `${name}${timestamp}`, `${timestamp}-${name}`);
    console.log(`migration:generate: ${dialect}: wrote ${path} and listed it in database-options.ts; review it`);
  }
}

/**
 * Now, or one past the latest migration's timestamp if that is later (one of them is dated ahead): TypeORM runs
 * migrations in timestamp order, and the new one must run last.
 */
function nextTimestamp(): number {
  const existing = (['mysql', 'sqlite'] as const).flatMap((dialect) =>
    readdirSync(resolve(__dirname, `../src/database/migrations/${dialect}`)).map((file) => Number(/^(\d+)-/.exec(file)?.[1] ?? 0)),
  );
  return Math.max(Date.now(), ...existing.map((timestamp) => timestamp + 1));
}

/** Imports the migration in database-options.ts and appends it to its dialect's list, where it runs last. */
function listMigration(dialect: 'mysql' | 'sqlite', className: string, fileName: string): void {
  const path = resolve(__dirname, '../src/database/database-options.ts');
  const alias = `${dialect === 'mysql' ? 'Mysql' : 'Sqlite'}${className}`;
  const list = `${dialect.toUpperCase()}_MIGRATIONS = [`;
  let source = readFileSync(path, 'utf8');
  const lastImport = source.lastIndexOf('\nimport ');
  const importEnd = source.indexOf('\n', lastImport + 1);
  source = `${source.slice(0, importEnd)}\nimport { ${className} as ${alias} } from './migrations/${dialect}/${fileName}';${source.slice(importEnd)}`;
  const listEnd = source.indexOf('\n];', source.indexOf(list));
  if (source.indexOf(list) < 0 || listEnd < 0) throw new Error(`${list} not found in ${path}`);
  writeFileSync(path, `${source.slice(0, listEnd)}\n  ${alias},${source.slice(listEnd)}`);
}

function migrationSource(className: string, up: Query[], down: Query[]): string {
  const statements = (queries: Query[]) =>
    queries
      .map(
        ({ query, parameters }) =>
          `    await queryRunner.query(${JSON.stringify(query)}${parameters?.length ? `, ${JSON.stringify(parameters)}` : ''});`,
      )
      .join('\n');
  return `import { MigrationInterface, QueryRunner } from 'typeorm';

/** Generated from the entities by npm run migration:generate: say here what it adds and why. */
export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${statements(up)}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${statements(down)}
  }
}
`;
}

runScript(main);
