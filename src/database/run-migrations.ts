import { lock } from 'proper-lockfile';
import { DataSource, Migration } from 'typeorm';

const MIGRATION_LOCK = 'client_registry_migrations';
const MIGRATION_LOCK_WAIT_SECONDS = 60;

// Of several instances starting together, only one creates the schema; the others find it done.
export async function runMigrationsUnderLock(dataSource: DataSource): Promise<Migration[]> {
  if (dataSource.options.type !== 'better-sqlite3') return runMigrationsUnderMysqlLock(dataSource);
  const release = await lock(String(dataSource.options.database), {
    lockfilePath: `${String(dataSource.options.database)}.migration-lock`,
    retries: { retries: MIGRATION_LOCK_WAIT_SECONDS * 10, minTimeout: 100, maxTimeout: 100 },
  });
  try {
    return await dataSource.runMigrations({ transaction: 'all' });
  } finally {
    await release();
  }
}

async function runMigrationsUnderMysqlLock(dataSource: DataSource): Promise<Migration[]> {
  const lockHolder = dataSource.createQueryRunner();
  try {
    const [{ acquired }] = (await lockHolder.query('SELECT GET_LOCK(?, ?) AS acquired', [
      MIGRATION_LOCK,
      MIGRATION_LOCK_WAIT_SECONDS,
    ])) as Array<{ acquired: number | null }>;
    if (Number(acquired) !== 1) throw new Error(`Timed out after ${MIGRATION_LOCK_WAIT_SECONDS}s waiting for the migration lock`);
    try {
      return await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await lockHolder.query('SELECT RELEASE_LOCK(?)', [MIGRATION_LOCK]);
    }
  } finally {
    await lockHolder.release();
  }
}
