import { DataSource } from 'typeorm';

const MIGRATION_LOCK = 'client_registry_migrations';
const MIGRATION_LOCK_WAIT_SECONDS = 60;

/**
 * Applies pending migrations. On MySQL a named lock (GET_LOCK) serialises instances starting together,
 * so only one of them creates the schema and the others find it done. SQLite serialises writers itself.
 */
export async function runMigrationsUnderLock(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'mysql') {
    await dataSource.runMigrations({ transaction: 'all' });
    return;
  }
  const lockHolder = dataSource.createQueryRunner();
  try {
    const [{ acquired }] = (await lockHolder.query('SELECT GET_LOCK(?, ?) AS acquired', [
      MIGRATION_LOCK,
      MIGRATION_LOCK_WAIT_SECONDS,
    ])) as Array<{ acquired: number | null }>;
    if (Number(acquired) !== 1) throw new Error(`Timed out after ${MIGRATION_LOCK_WAIT_SECONDS}s waiting for the migration lock`);
    try {
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await lockHolder.query('SELECT RELEASE_LOCK(?)', [MIGRATION_LOCK]);
    }
  } finally {
    await lockHolder.release();
  }
}
