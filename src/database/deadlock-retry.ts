import { setTimeout as sleep } from 'node:timers/promises';

const ER_LOCK_DEADLOCK = 1213;
// MariaDB's answer when the table's AUTO-INC lock of an INSERT ... SELECT deadlocks: the transaction is a victim as well.
const ER_AUTOINC_READ_FAILED = 1467;
const VICTIM_ERRNOS = new Set([ER_LOCK_DEADLOCK, ER_AUTOINC_READ_FAILED]);
export const DEADLOCK_ATTEMPTS = 5;

// The victim was rolled back whole, so running it again is safe; a random pause, doubling per attempt, lets the winners commit first.
export async function retryDeadlockVictims<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= DEADLOCK_ATTEMPTS || !VICTIM_ERRNOS.has((error as { errno?: number }).errno ?? 0)) throw error;
      await sleep(Math.random() * 4 * 2 ** attempt);
    }
  }
}
