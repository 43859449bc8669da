const ER_DUP_ENTRY = 1062;

export function isDuplicateKeyError(error: unknown): boolean {
  const driverError = ((error as { driverError?: unknown }).driverError ?? error) as { errno?: number; code?: string };
  return (
    driverError.errno === ER_DUP_ENTRY ||
    driverError.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    driverError.code === 'SQLITE_CONSTRAINT_UNIQUE'
  );
}
