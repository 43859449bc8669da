import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyReply, FastifyRequest } from 'fastify';
import { RetryLaterException } from '../common/errors/retry-later.exception';
import { DrainingException } from '../health/draining.exception';
import { toEnvelope } from './envelope';

@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const envelope = toEnvelope(exception);
    if (envelope.status >= 500 && !(exception instanceof DrainingException)) {
      this.logger.error(
        { err: exception, reqId: request?.id, route: request?.routeOptions?.url, status: envelope.status },
        envelope.status === 503 ? 'Dependency unavailable' : 'Unexpected error',
      );
    }
    if (exception instanceof RetryLaterException) reply.header('Retry-After', String(exception.retryAfterSeconds));
    this.adapterHost.httpAdapter.reply(reply, envelope, envelope.status);
  }
}
