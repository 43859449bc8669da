import { HttpException, HttpStatus } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';

export interface ClassifiedError {
  status: number;
  message: string;
  /** Unexpected failures are logged with their stack; expected client errors are not. */
  unexpected: boolean;
}

/** Node and driver codes meaning "the database or broker cannot be reached now", not "the request is wrong". */
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
  'ER_QUERY_INTERRUPTED',
  'ER_SERVER_SHUTDOWN',
  'ER_CLIENT_INTERACTION_TIMEOUT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
]);

const BODY_ERROR_MESSAGES: Record<number, string> = {
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'Request body must not exceed 64 KiB',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'Content-Type must be application/json',
};

/** Fastify's own request errors, answered in the envelope with messages of our own. */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: BODY_ERROR_MESSAGES[HttpStatus.UNSUPPORTED_MEDIA_TYPE],
  FST_ERR_CTP_INVALID_TYPE: BODY_ERROR_MESSAGES[HttpStatus.UNSUPPORTED_MEDIA_TYPE],
  FST_ERR_CTP_BODY_TOO_LARGE: BODY_ERROR_MESSAGES[HttpStatus.PAYLOAD_TOO_LARGE],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
};

/** mysql2 and TypeORM say "the connection is gone" in messages rather than codes. */
const UNAVAILABLE_MESSAGES = [
  /^Pool is closed/,
  /connection is in closed state/,
  /^Connection lost/,
  /connection is not yet established/,
  /^Timeout acquiring a connection/,
];

export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError';
}

export function classifyError(error: unknown): ClassifiedError {
  if (error instanceof HttpException) {
    const status = error.getStatus();
    // Nest re-throws Fastify's body errors as HttpExceptions with generic texts: say what the limit is.
    const message = BODY_ERROR_MESSAGES[status] ?? httpExceptionMessage(error);
    return { status, message, unexpected: status >= 500 };
  }
  if (error instanceof ServiceUnavailableError || isUnavailableError(error)) {
    return { status: HttpStatus.SERVICE_UNAVAILABLE, message: 'Service temporarily unavailable, retry later', unexpected: true };
  }
  const fastifyStatus = clientErrorStatus(error);
  if (fastifyStatus !== undefined) {
    const code = (error as { code?: string }).code ?? '';
    return { status: fastifyStatus, message: FASTIFY_MESSAGES[code] ?? defaultMessage(fastifyStatus), unexpected: false };
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: 'Internal server error', unexpected: true };
}

function httpExceptionMessage(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}

export function isUnavailableError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const driverError = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
  const code = (driverError as { code?: unknown }).code;
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  if (typeof code === 'string' && code.startsWith('SQLITE_IOERR')) return true;
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(error.message));
}

function clientErrorStatus(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

function defaultMessage(status: number): string {
  return BODY_ERROR_MESSAGES[status] ?? 'Bad request';
}
