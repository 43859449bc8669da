import { HttpException, HttpStatus } from '@nestjs/common';

/** A 429 that says when to come back: the exception filter answers it with `Retry-After`. */
export class RetryLaterException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}
