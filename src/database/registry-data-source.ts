import { DataSource, DataSourceOptions } from 'typeorm';
import { EntityMetadata } from 'typeorm/metadata/EntityMetadata';

/** On SQLite the outbox index holds only the unpublished entries (a partial index), which MySQL cannot make. */
const SQLITE_PARTIAL_INDEXES: Record<string, { columns: string[]; where: string }> = {
  IDX_audit_event_unpublished: { columns: ['id'], where: 'unpublished = 1' },
};

/**
 * The service's DataSource: TypeORM's, with the entities read as SQLite declares them. The entities state the MySQL
 * schema exactly (the production database); the SQLite migrations spell a few of those columns SQLite's way, which one
 * decorator cannot say for both dialects: CHAR(n) (a type SQLite takes but TypeORM's list lacks), TEXT for MEDIUMTEXT,
 * DATETIME without a fraction (SQLite keeps the text written), no character set or collation (SQLite compares bytes), INTEGER for the BIGINT key (AUTOINCREMENT needs it), NO
 * ACTION for RESTRICT, and the partial outbox index. Schema checks and generated migrations see each dialect as it is.
 */
export class RegistryDataSource extends DataSource {
  constructor(options: DataSourceOptions) {
    super(options);
    if (this.isSqlite) {
      this.driver.supportedDataTypes.push('char', 'mediumtext');
      this.driver.withLengthColumnTypes.push('char');
    }
  }

  private get isSqlite(): boolean {
    return this.options.type === 'better-sqlite3';
  }

  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.isSqlite) this.entityMetadatas.forEach(asSqliteDeclaresIt);
  }
}

function asSqliteDeclaresIt(entity: EntityMetadata): void {
  for (const column of entity.columns) {
    if (column.type === 'mediumtext') column.type = 'text';
    if (column.type === 'datetime') column.precision = undefined;
    column.charset = undefined;
    column.collation = undefined;
    if (column.isGenerated && column.type === 'bigint') column.type = 'integer';
  }
  for (const foreignKey of entity.foreignKeys) {
    if (foreignKey.onUpdate === 'RESTRICT') foreignKey.onUpdate = 'NO ACTION';
  }
  for (const index of entity.indices) {
    const partial = index.name === undefined ? undefined : SQLITE_PARTIAL_INDEXES[index.name];
    if (!partial) continue;
    index.columns = partial.columns.map((name) => entity.findColumnWithDatabaseName(name)!);
    index.where = partial.where;
  }
}
