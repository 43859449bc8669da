import { ExecutionContext, Injectable, PipeTransform, createParamDecorator } from '@nestjs/common';
import { HoldsSecretKey, IdempotencyService, KeepAnswer, ReplayedAnswer } from './idempotency.service';
import { IdempotentCall, idempotentCallOf } from './idempotent-call';

/** The request's Idempotency-Key, if it has one, bound to IdempotencyService: without it, the work just runs. */
export interface Idempotency {
  once<T>(work: () => Promise<T>, secretKey?: HoldsSecretKey<T>): Promise<T | ReplayedAnswer>;
  keptBy<T>(work: (keep?: KeepAnswer<T>) => Promise<T>): Promise<T | ReplayedAnswer>;
}

@Injectable()
class BindIdempotency implements PipeTransform<IdempotentCall | undefined, Idempotency> {
  constructor(private readonly idempotency: IdempotencyService) {}

  transform(call: IdempotentCall | undefined): Idempotency {
    return {
      once: (work, secretKey) => this.idempotency.once(call, work, secretKey),
      keptBy: (work) => this.idempotency.keptBy(call, work),
    };
  }
}

const IdempotentCallOf = createParamDecorator((_: unknown, context: ExecutionContext) => idempotentCallOf(context));

// Bound by a pipe and run by the handler, not an interceptor: an interceptor cost a quarter of add client's time (BENCHMARKS.md).
export const IdempotencyOf = (): ParameterDecorator => IdempotentCallOf(BindIdempotency);
