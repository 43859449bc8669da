import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseModule } from '../database/database.module';
import { AuditController } from './audit.controller';
import { AuditLog } from './audit.repository';
import { AuditEvent } from './audit-event.entity';

// Global: every feature that changes something writes its audit entry through AuditLog.
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent]), DatabaseModule],
  controllers: [AuditController],
  providers: [AuditLog],
  exports: [AuditLog],
})
export class AuditModule {}
