import { Global, Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { IdempotencySweeper } from './idempotency-sweeper';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyService } from './idempotency.service';
import { IdempotentRequestRepository } from './idempotent-request.repository';

/** Global for the interceptor that @Idempotent() puts on routes of any feature. */
@Global()
@Module({
  imports: [DatabaseModule],
  providers: [IdempotencyService, IdempotencyInterceptor, IdempotentRequestRepository, IdempotencySweeper],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
