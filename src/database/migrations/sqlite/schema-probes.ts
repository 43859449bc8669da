import { QueryRunner } from 'typeorm';

/** Adds the column unless it is there, so a migration may run again. */
export async function addColumn(queryRunner: QueryRunner, table: string, column: string, definition: string): Promise<void> {
  const found = (await queryRunner.query('SELECT 1 FROM pragma_table_info(?) WHERE name = ?', [table, column])) as unknown[];
  if (found.length === 0) await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
}
