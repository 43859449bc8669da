/**
 * Where a sealed value is stored: it opens only with the same table, column and owner, so a value copied into another
 * column, or into a row of another owner, does not open. The owner is whoever the row belongs to, known before the
 * INSERT (an id the database has not assigned yet cannot be bound); a number and its decimal string are the same owner,
 * as drivers return ids either way.
 */
export interface SealContext {
  table: string;
  column: string;
  owner: string | number;
}

const FIELD_AAD_V2 = 'registry:field:v2';

/** NUL-separated: key ids, table and column names hold no NUL, and the owner comes last, so no two contexts collide. */
export function sealedFieldAad(keyId: string, context: SealContext): Buffer {
  return Buffer.from(`${FIELD_AAD_V2}\0${keyId}\0${context.table}\0${context.column}\0${context.owner}`);
}
