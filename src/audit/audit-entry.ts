import type { ChangeOrigin } from '../auth/actor';

export const AUDIT_ACTIONS = [
  'client.created',
  'client.updated',
  'client.disabled',
  'client.enabled',
  'client.deleted',
  'client.secret-key.rotated',
  'client.secret-key.replayed',
  'client.key-created',
  'client.key-deleted',
  'client.daily-limit-reached',
  'client.pumping-suspected',
  'client.pumping-blocked',
  'client.pumping-lifted',
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

// A resolution, or the replay of a kept answer, changes nothing a consumer of the events caches or counts.
export const UNPUBLISHED_ACTIONS: readonly AuditAction[] = ['sms-config.credentials-resolved', 'client.secret-key.replayed'];

export function isPublished(action: AuditAction): boolean {
  return !UNPUBLISHED_ACTIONS.includes(action);
}

// The id inserted by the statement just before, for an entry written in the same script.
export const JUST_INSERTED = Symbol('JUST_INSERTED');

export interface AuditEntry {
  action: AuditAction;
  origin: ChangeOrigin;
  clientId: number | null | typeof JUST_INSERTED;
  smsConfigId?: number | null | typeof JUST_INSERTED;
  changed?: string[];
  details?: AuditDetails | null;
}

// Values only the service writes or checked (a host, a range, a scoped key's id, name and scopes), never a secret.
export type AuditDetails = Record<string, string | number | readonly string[]>;
