// A number and its decimal string are one owner: drivers return ids either way.
export interface SealContext {
  table: string;
  column: string;
  owner: string | number;
}

const FIELD_AAD_V2 = 'registry:field:v2';

// NUL-separated, owner last: no name holds a NUL, so no two contexts collide.
export function sealedFieldAad(keyId: string, context: SealContext): Buffer {
  return Buffer.from(`${FIELD_AAD_V2}\0${keyId}\0${context.table}\0${context.column}\0${context.owner}`);
}
