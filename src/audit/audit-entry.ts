import type { ChangeOrigin } from '../auth/actor';

export const AUDIT_ACTIONS = [
  'client.created',
  'client.updated',
  'client.disabled',
  'client.enabled',
  'client.deleted',
  'client.secret-key.rotated',
  'client.secret-key.replayed',
  'sms-config.created',
  'sms-config.updated',
  'sms-config.deleted',
  'sms-config.credentials-resolved',
  'sms-config.balance-low',
  'sms-config.balance-set',
  'sms-config.unhealthy',
  'sms-config.healthy',
  'exchange.declared',
  'provider-host.approved',
  'provider-host.removed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Audited, but not published as a domain event: a resolution, or the replay of a kept answer holding a secret key,
 * changes nothing a consumer caches or counts.
 */
export const UNPUBLISHED_ACTIONS: readonly AuditAction[] = ['sms-config.credentials-resolved', 'client.secret-key.replayed'];

/** Whether the entry is also a domain event, written to the outbox (unpublished) for the relay (src/events). */
export function isPublished(action: AuditAction): boolean {
  return !UNPUBLISHED_ACTIONS.includes(action);
}

/** The id of the row the statement just before this one inserted, for entries written in the same script as it. */
export const JUST_INSERTED = Symbol('JUST_INSERTED');

/** What a change records about itself: never a value, only the names of the fields it changed. */
export interface AuditEntry {
  action: AuditAction;
  origin: ChangeOrigin;
  clientId: number | null | typeof JUST_INSERTED;
  smsConfigId?: number | null | typeof JUST_INSERTED;
  changed?: string[];
}
