import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { AuditController } from './audit.controller';
import { AuditLog } from './audit.repository';

/** The audit log: every feature that changes something records it through AuditLog, in the change's transaction. */
@Module({
  imports: [DatabaseModule],
  controllers: [AuditController],
  providers: [AuditLog],
  exports: [AuditLog],
})
export class AuditModule {}
