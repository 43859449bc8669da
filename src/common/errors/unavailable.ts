import { QueryFailedError } from 'typeorm';

export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError';
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  'ER_AUTOINC_READ_FAILED',
  'ER_QUERY_INTERRUPTED',
  'ER_SERVER_SHUTDOWN',
  'ER_CLIENT_INTERACTION_TIMEOUT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
]);

// mysql2 and TypeORM report a lost connection in messages rather than codes.
const UNAVAILABLE_MESSAGES = [
  /^Pool is closed/,
  /connection is in closed state/,
  /^Connection lost/,
  /connection is not yet established/,
  /^Timeout acquiring a connection/,
];

export function isUnavailableError(error: unknown): boolean {
  if (error instanceof ServiceUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = driverErrorCode(error);
  if (code !== undefined && (UNAVAILABLE_CODES.has(code) || code.startsWith('SQLITE_IOERR'))) return true;
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(error.message));
}

export function driverErrorCode(error: unknown): string | undefined {
  const driverError = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
  const code = (driverError as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Every database wait is bounded, so an unreachable database answers 503 instead of hanging a request. */
export const DATABASE_TIMEOUT_MS = 4000;

export function notAnsweredWithin(milliseconds: number, what: string): ServiceUnavailableError {
  return new ServiceUnavailableError(`${what} did not answer within ${milliseconds} ms`);
}

/** Rejects with ServiceUnavailableError when `operation` has not settled in time; the operation itself is not cancelled. */
export function withTimeout<T>(operation: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(notAnsweredWithin(milliseconds, what)), milliseconds);
  });
  return Promise.race([operation, timeout]).finally(() => clearTimeout(timer));
}
