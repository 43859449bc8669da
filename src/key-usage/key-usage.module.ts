import { Global, Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { KeyUsageFlusher } from './key-usage-flusher';
import { KeyUsageNotes } from './key-usage-notes';
import { KeyUsageRepository } from './key-usage.repository';

@Global()
@Module({
  providers: [KeyUsageNotes],
  exports: [KeyUsageNotes],
})
export class KeyUsageNotesModule {}

// Not global: Nest shuts global modules down with the database, and the last flush must come before it closes.
@Module({
  imports: [DatabaseModule],
  providers: [KeyUsageRepository, KeyUsageFlusher],
})
export class KeyUsageModule {}
