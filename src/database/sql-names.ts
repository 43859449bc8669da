import { DataSource, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

export class SqlNames<Entity extends ObjectLiteral> {
  readonly table: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly entity: EntityTarget<Entity>,
  ) {
    this.table = dataSource.driver.escape(dataSource.getMetadata(entity).tableName);
  }

  column(property: keyof Entity & string, alias?: string): string {
    const metadata = this.dataSource.getMetadata(this.entity);
    const column = metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${metadata.name} has no column for ${property}`);
    const name = this.dataSource.driver.escape(column.databaseName);
    return alias ? `${alias}.${name}` : name;
  }

  columns(properties: ReadonlyArray<keyof Entity & string>): string {
    return properties.map((property) => this.column(property)).join(', ');
  }

  // better-sqlite3 reads an integer past 2^53 as the nearest double (mysql2 reads BIGINT as text anyway).
  integerTextList(alias: string, properties: ReadonlyArray<keyof Entity & string>): string {
    return properties.map((property) => `${this.integerText(property, alias)} AS ${this.dataSource.driver.escape(property)}`).join(', ');
  }

  integerText(property: keyof Entity & string, alias: string): string {
    return `CAST(${this.column(property, alias)} AS ${this.dataSource.options.type === 'better-sqlite3' ? 'TEXT' : 'CHAR'})`;
  }

  // The query's entities, with these BIGINT columns as their text: the entity would read them as doubles on SQLite.
  async withIntegerTexts<T extends keyof Entity & string>(
    query: SelectQueryBuilder<Entity>,
    alias: string,
    properties: readonly T[],
  ): Promise<Array<Omit<Entity, T> & Record<T, string | null>>> {
    for (const property of properties) query.addSelect(this.integerText(property, alias), property);
    const { entities, raw } = await query.getRawAndEntities<Record<T, string | null>>();
    return entities.map((entity, index) => {
      const read = Object.fromEntries(properties.map((property) => [property, raw[index][property]])) as Record<T, string | null>;
      return { ...entity, ...read };
    });
  }

  selectList(alias: string, properties: ReadonlyArray<(keyof Entity & string) | [keyof Entity & string, string]>): string {
    return properties
      .map((item) => {
        const [property, name] = typeof item === 'string' ? [item, item] : item;
        return `${this.column(property, alias)} AS ${this.dataSource.driver.escape(name)}`;
      })
      .join(', ');
  }
}
