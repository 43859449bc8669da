import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Observable, TimeoutError, catchError, throwError, timeout } from 'rxjs';
import { ServiceUnavailableError } from '../filters/error-classification';

/**
 * No handler may keep its caller waiting longer than this: a database that accepts connections but never answers
 * would otherwise hang the request. Longer than the driver and broker timeouts, so their own errors come first.
 */
export const REQUEST_DEADLINE_MS = 4500;

/**
 * Answers 503 when the request has not been handled by the deadline, counted from its arrival: the time a guard
 * already spent (guards run before interceptors and bound their own waits: see withDeadline) is deducted.
 */
@Injectable()
export class RequestDeadlineInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const elapsed = context.switchToHttp().getResponse<FastifyReply>().elapsedTime;
    return next.handle().pipe(
      timeout(Math.max(0, REQUEST_DEADLINE_MS - elapsed)),
      catchError((error: unknown) =>
        throwError(() => (error instanceof TimeoutError ? new ServiceUnavailableError('request deadline exceeded') : error)),
      ),
    );
  }
}

/** Bounds one wait that runs outside the interceptor (a guard), with the same 503 when it is exceeded. */
export function withDeadline<T>(operation: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ServiceUnavailableError(`${what} did not answer within ${milliseconds} ms`)), milliseconds);
  });
  return Promise.race([operation, deadline]).finally(() => clearTimeout(timer));
}
