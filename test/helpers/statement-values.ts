/** A column written from SQL rather than a parameter (`LAST_INSERT_ID()`). */
export interface SqlExpression {
  sql: string;
}

/**
 * An INSERT's parameters by the column each is written to (`INSERT INTO t (a, b) VALUES (?, ?)`, or `... SELECT ?, X()
 * FROM|WHERE ...`), so a spec asserts them by name and a column added to the statement moves none of them.
 */
export function valuesByColumn({ sql, values }: { sql: string; values: readonly unknown[] }): Record<string, unknown> {
  const match = /^INSERT INTO \S+ \((?<columns>[^)]*)\) (?:VALUES \((?<listed>.*)\)$|SELECT (?<selected>.*?) (?:FROM|WHERE) )/s.exec(sql);
  if (match?.groups === undefined) throw new Error(`not an INSERT this helper reads: ${sql}`);
  const columns = match.groups.columns.split(',').map((column) => column.trim().replace(/[`"]/g, ''));
  const written = (match.groups.listed ?? match.groups.selected).split(',').map((item) => item.trim());
  if (written.length !== columns.length) throw new Error(`${columns.length} columns, ${written.length} values: ${sql}`);
  let parameter = 0;
  const named = Object.fromEntries(
    columns.map((column, index) => [
      column,
      written[index] === '?' ? values[parameter++] : ({ sql: written[index] } satisfies SqlExpression),
    ]),
  );
  if (parameter !== values.length) throw new Error(`${parameter} placeholders, ${values.length} parameters: ${sql}`);
  return named;
}
