import { CallHandler, ExecutionContext, HttpStatus, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, from, lastValueFrom } from 'rxjs';
import { RequestWithClient } from '../auth/client-lookup';
import { sha256Hex } from '../auth/digest';
import { SqlExecutor } from '../database/sql-executor';
import { RequestWithCredential } from '../rate-limit/credential';
import type { RequestWithRawBody } from '../http/json-body';
import { REPLAYED_HEADER, idempotencyKeyOf } from './idempotency-key';
import { IdempotencyService } from './idempotency.service';

type IdempotentRequest = FastifyRequest & RequestWithClient & RequestWithCredential & RequestWithRawBody;

/**
 * Runs a request that carries an Idempotency-Key at most once: the request and the keeping of its answer in one
 * transaction, a retry answered from what was kept (with `Idempotent-Replayed: true`). Without the header, nothing
 * changes. Runs after the guards, so the key is scoped to the credential they authenticated.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly sql: SqlExecutor,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<IdempotentRequest>();
    const key = idempotencyKeyOf(request.headers);
    if (key === undefined) return next.handle();
    return from(this.runOnce(request, context.switchToHttp().getResponse<FastifyReply>(), key, next));
  }

  private async runOnce(request: IdempotentRequest, reply: FastifyReply, key: string, next: CallHandler): Promise<unknown> {
    const scope = scopeOf(request);
    const start = await this.idempotency.start(scope, key, requestDigestOf(request));
    if (start.kind === 'replay') {
      void reply.status(start.statusCode).header(REPLAYED_HEADER, 'true').header('content-type', 'application/json; charset=utf-8');
      return start.answer;
    }
    try {
      return await this.sql.transaction(async () => {
        const answer = await lastValueFrom(next.handle() as Observable<unknown>);
        // Fastify sends an object as JSON.stringify writes it: the kept answer is the bytes the caller gets.
        await this.idempotency.finish(scope, key, start.claim, HttpStatus.OK, JSON.stringify(answer));
        return answer;
      });
    } catch (error) {
      await this.idempotency.abandon(scope, key, start.claim).catch((releaseError: Error) =>
        // The claim then lapses after CLAIM_MS, and a retry takes it over.
        this.logger.warn(`Idempotency-Key not given back after a failed request: ${releaseError.message}`),
      );
      throw error;
    }
  }
}

/** A client's keys share its scope (a retry may come with its new key); an admin key has its own. */
function scopeOf(request: IdempotentRequest): string {
  return request.client ? `client:${request.client.id}` : `admin:${request.credentialDigest}`;
}

/** Method, path and body, as bytes: "the same request". */
function requestDigestOf(request: IdempotentRequest): string {
  return sha256Hex(`${request.method} ${request.url}\n${request.rawBody ?? ''}`);
}
