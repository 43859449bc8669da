import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule } from '../database/database.module';
import { AuditController } from './audit.controller';
import { AuditLog } from './audit.repository';
import { AuditEvent } from './audit-event.entity';

/** The audit log: every feature that changes something records it through AuditLog, in the change's transaction. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent]), DatabaseModule],
  controllers: [AuditController],
  providers: [AuditLog],
  exports: [AuditLog],
})
export class AuditModule {}
