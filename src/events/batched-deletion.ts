import { setTimeout as sleep } from 'node:timers/promises';
import { EntityManager } from 'typeorm';
import { OutboxRepository, RELAY_LOCK_BUSY } from './outbox.repository';

// Each batch in a transaction of its own, so the relay waits for one batch at most.
export const RETENTION_BATCH_SIZE = 1000;
const LOCK_BUSY_RETRY_MS = 100;
const LOCK_BUSY_TRIES = 20;

/** Deletes at most `limit` rows in the manager's transaction, and says how many it deleted. */
export type BatchDeletion = (manager: EntityManager, limit: number) => Promise<number>;

/**
 * Deletes batch after batch, each under the relay's lock so that one instance at a time deletes, until a batch comes
 * short; while another instance holds the lock, tries again, and after 20 tries leaves the rest to the next round
 * (false). `counted` hears each batch as it commits; a failure is thrown after the batches before it were counted.
 */
export async function deleteInBatchesAsOnlyRelay(
  outbox: OutboxRepository,
  deleteBatch: BatchDeletion,
  counted: (rows: number) => void,
): Promise<boolean> {
  let busy = 0;
  for (;;) {
    const batch = await outbox.asOnlyRelay((manager) => deleteBatch(manager, RETENTION_BATCH_SIZE));
    if (batch === RELAY_LOCK_BUSY) {
      if (++busy === LOCK_BUSY_TRIES) return false;
      await sleep(LOCK_BUSY_RETRY_MS, undefined, { ref: false });
      continue;
    }
    counted(batch);
    if (batch < RETENTION_BATCH_SIZE) return true;
  }
}
