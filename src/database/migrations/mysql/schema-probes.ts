import { QueryRunner } from 'typeorm';

/** What a migration that may run again looks for before making it (MySQL commits DDL one statement at a time). */
export async function addColumn(queryRunner: QueryRunner, table: string, column: string, definition: string): Promise<void> {
  const found = (await queryRunner.query(
    'SELECT 1 FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = ?',
    [table, column],
  )) as unknown[];
  if (found.length === 0) await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
}

export async function indexExists(queryRunner: QueryRunner, table: string, index: string): Promise<boolean> {
  const found = (await queryRunner.query(
    'SELECT 1 FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = ? AND index_name = ?',
    [table, index],
  )) as unknown[];
  return found.length > 0;
}
