import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule } from '../database/database.module';
import { IdempotencySweeper } from './idempotency-sweeper';
import { IdempotencyService } from './idempotency.service';
import { IdempotentRequestRepository } from './idempotent-request.repository';
import { IdempotentRequest } from './idempotent-request.entity';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([IdempotentRequest]), DatabaseModule],
  providers: [IdempotencyService, IdempotentRequestRepository, IdempotencySweeper],
  exports: [IdempotencyService],
})
export class IdempotencyModule {}
