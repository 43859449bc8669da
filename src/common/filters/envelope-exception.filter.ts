import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyReply, FastifyRequest } from 'fastify';
import { isRefusedCredential } from '../../rate-limit/credential';
import { FailedAuthLimiter } from '../../rate-limit/failed-auth.limiter';
import { classifyError } from './error-classification';
import { ErrorResponseDto } from './error-response.dto';

/** Every error from every layer leaves as `{status, error}`, with no stack, SQL or driver text. */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly failedAuth: FailedAuthLimiter,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const classified = classifyError(exception);
    let { status, message } = classified;
    if (isRefusedCredential(exception)) {
      // Key guessing: past the limit, a refused credential from this address is answered 429, not 401/404.
      const retryAfter = this.failedAuth.recordFailure(request?.ip ?? 'unknown');
      if (retryAfter !== undefined) {
        status = HttpStatus.TOO_MANY_REQUESTS;
        message = 'Too many refused credentials from this address, retry later';
        reply.header('Retry-After', String(retryAfter));
      }
    }
    if (classified.unexpected) {
      this.logger.error(
        { err: exception, reqId: request?.id, route: request?.routeOptions?.url, status },
        status >= 500 && status !== 503 ? 'Unexpected error' : 'Dependency unavailable',
      );
    }
    const body: ErrorResponseDto = { status, error: message };
    this.adapterHost.httpAdapter.reply(reply, body, status);
  }
}
