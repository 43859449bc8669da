import { HttpException, HttpStatus } from '@nestjs/common';
import { isUnavailableError } from '../common/errors/unavailable';
import { BODY_LIMIT_KIB } from './json-body';

export interface ClassifiedError {
  status: number;
  message: string;
}

export const UNAVAILABLE_MESSAGE = 'Service temporarily unavailable, retry later';

const BODY_ERROR_MESSAGES: Record<number, string> = {
  [HttpStatus.PAYLOAD_TOO_LARGE]: `Request body must not exceed ${BODY_LIMIT_KIB} KiB`,
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'Content-Type must be application/json',
};

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: BODY_ERROR_MESSAGES[HttpStatus.UNSUPPORTED_MEDIA_TYPE],
  FST_ERR_CTP_INVALID_TYPE: BODY_ERROR_MESSAGES[HttpStatus.UNSUPPORTED_MEDIA_TYPE],
  FST_ERR_CTP_BODY_TOO_LARGE: BODY_ERROR_MESSAGES[HttpStatus.PAYLOAD_TOO_LARGE],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Request body is not valid JSON',
  ECONNRESET: 'Request body was not received whole',
};

export function classifyError(error: unknown): ClassifiedError {
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return { status, message: BODY_ERROR_MESSAGES[status] ?? httpExceptionMessage(error) };
  }
  // Ahead of the dependency check: a request body the caller cut off arrives as ECONNRESET too, with Fastify's 400.
  const fastifyStatus = clientErrorStatus(error);
  if (fastifyStatus !== undefined) {
    const code = (error as { code?: string }).code ?? '';
    return { status: fastifyStatus, message: FASTIFY_MESSAGES[code] ?? BODY_ERROR_MESSAGES[fastifyStatus] ?? 'Bad request' };
  }
  if (isUnavailableError(error)) return { status: HttpStatus.SERVICE_UNAVAILABLE, message: UNAVAILABLE_MESSAGE };
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: 'Internal server error' };
}

function httpExceptionMessage(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}

function clientErrorStatus(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}
