/**
 * `npm run migration:generate -- <Name>`: writes, for each dialect, the migration that takes a database built by the
 * existing migrations to what the entities say (TypeORM's schema builder on a new, migrated database), as
 * src/database/migrations/<dialect>/<timestamp>-<Name>.ts. Then review each one: only add (a new table, a nullable or
 * defaulted column, an index), let every step run again after a failure (schema-probes.ts), and list it in
 * MYSQL_MIGRATIONS / SQLITE_MIGRATIONS (src/database/database-options.ts). `--dialect mysql|sqlite` writes one.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Query } from 'typeorm/driver/Query';
import { dialectsAsked, withMigratedDatabase } from './schema-databases';
import { runScript } from './script-io';

async function main(): Promise<void> {
  const name = process.argv.slice(2).find((argument, index, all) => !argument.startsWith('--') && all[index - 1] !== '--dialect');
  if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error('usage: npm run migration:generate -- <PascalCaseName>');
  const timestamp = Date.now();
  for (const dialect of dialectsAsked()) {
    const log = await withMigratedDatabase(dialect, (dataSource) => dataSource.driver.createSchemaBuilder().log());
    if (log.upQueries.length === 0) {
      console.log(`migration:generate: ${dialect}: the entities and the migrations agree; nothing to write`);
      continue;
    }
    const path = resolve(__dirname, `../src/database/migrations/${dialect}/${timestamp}-${name}.ts`);
    writeFileSync(path, migrationSource(`${name}${timestamp}`, log.upQueries, [...log.downQueries].reverse()));
    console.log(`migration:generate: ${dialect}: wrote ${path}; review it and list it in database-options.ts`);
  }
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
