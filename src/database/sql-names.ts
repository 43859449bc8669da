import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * A table's and its columns' names as the entity declares them, quoted for the dialect: the few statements written as
 * SQL (docs/architecture.md lists them) never retype a name.
 */
export class SqlNames<Entity extends ObjectLiteral> {
  readonly table: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly entity: EntityTarget<Entity>,
  ) {
    this.table = dataSource.driver.escape(dataSource.getMetadata(entity).tableName);
  }

  /** The column of a property, quoted; prefixed with `alias.` when given. */
  column(property: keyof Entity & string, alias?: string): string {
    const metadata = this.dataSource.getMetadata(this.entity);
    const column = metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${metadata.name} has no column for ${property}`);
    const name = this.dataSource.driver.escape(column.databaseName);
    return alias ? `${alias}.${name}` : name;
  }

  /** The columns of the properties, comma-separated. */
  columns(properties: ReadonlyArray<keyof Entity & string>): string {
    return properties.map((property) => this.column(property)).join(', ');
  }

  /**
   * `CAST(alias.column AS text) AS property` for each property: BIGINT columns read as their digits, since better-sqlite3
   * reads an integer past 2^53 as the nearest double (mysql2 reads BIGINT as text anyway).
   */
  integerTextList(alias: string, properties: ReadonlyArray<keyof Entity & string>): string {
    return properties.map((property) => `${this.integerText(property, alias)} AS ${this.dataSource.driver.escape(property)}`).join(', ');
  }

  /** `CAST(alias.column AS text)`: a BIGINT column read as its digits. */
  integerText(property: keyof Entity & string, alias: string): string {
    return `CAST(${this.column(property, alias)} AS ${this.dataSource.options.type === 'better-sqlite3' ? 'TEXT' : 'CHAR'})`;
  }

  /** `alias.column AS property` for each property (or `[property, name]` to name it otherwise). */
  selectList(alias: string, properties: ReadonlyArray<(keyof Entity & string) | [keyof Entity & string, string]>): string {
    return properties
      .map((item) => {
        const [property, name] = typeof item === 'string' ? [item, item] : item;
        return `${this.column(property, alias)} AS ${this.dataSource.driver.escape(name)}`;
      })
      .join(', ');
  }
}
