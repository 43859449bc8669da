import { ServiceUnavailableException } from '@nestjs/common';

/**
 * /health's answer from the moment a stop begins: 503, so load balancers stop sending. It is the drain working, not a
 * failure: the exception filter logs no error for it, and the access log writes its line at info.
 */
export class DrainingException extends ServiceUnavailableException {
  constructor() {
    super('shutting down');
  }
}
