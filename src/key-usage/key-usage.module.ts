import { Global, Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { KeyUsageFlusher } from './key-usage-flusher';
import { KeyUsageNotes } from './key-usage-notes';
import { KeyUsageRepository } from './key-usage.repository';

/** Global for KeyUsageNotes: every SecretKeyGuard and get-client's edge note the keys they authenticate. */
@Global()
@Module({
  providers: [KeyUsageNotes],
  exports: [KeyUsageNotes],
})
export class KeyUsageNotesModule {}

/**
 * The writing of the notes. Not global: Nest shuts global modules down with the database's, and the last flush, at
 * shutdown, must come before the database closes, as the outbox relay's does.
 */
@Module({
  imports: [DatabaseModule],
  providers: [KeyUsageRepository, KeyUsageFlusher],
})
export class KeyUsageModule {}
