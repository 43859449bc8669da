import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyReply, FastifyRequest } from 'fastify';
import { classifyError } from './error-classification';
import { ErrorResponseDto } from './error-response.dto';

/** Every error from every layer leaves as `{status, error}`, with no stack, SQL or driver text. */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { status, message, unexpected } = classifyError(exception);
    if (unexpected) {
      this.logger.error(
        { err: exception, reqId: request?.id, route: request?.url, status },
        status >= 500 && status !== 503 ? 'Unexpected error' : 'Dependency unavailable',
      );
    }
    const body: ErrorResponseDto = { status, error: message };
    this.adapterHost.httpAdapter.reply(reply, body, status);
  }
}
