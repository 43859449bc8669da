// In the order they are answered. client:read: get-client and the reads of configurations; sms-config:write: their writes;
// dispatch: route.
export const KEY_SCOPES = ['client:read', 'sms-config:write', 'dispatch'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

const LISTED = KEY_SCOPES.join(', ');

export type ScopesReading = { scopes: KeyScope[] } | { refusal: string };

/** A scoped key's scopes in their answered order, or the refusal naming the entry at fault. */
export function readScopes(value: unknown): ScopesReading {
  if (!Array.isArray(value) || value.length === 0) return { refusal: `scopes must be a non-empty list of ${LISTED}` };
  const given: KeyScope[] = [];
  for (const [index, scope] of value.entries()) {
    if (!KEY_SCOPES.includes(scope as KeyScope)) return { refusal: `scopes[${index}] must be one of ${LISTED}` };
    const repeated = given.indexOf(scope as KeyScope);
    if (repeated !== -1) return { refusal: `scopes[${index}] repeats scopes[${repeated}] (${String(scope)})` };
    given.push(scope as KeyScope);
  }
  return { scopes: KEY_SCOPES.filter((scope) => given.includes(scope)) };
}

// Route, the one route of `dispatch`, is called by the dispatcher from its own address.
export const DISPATCH_ONLY_WITH_SOURCES =
  'allowedSources must be null for a key whose only scope is dispatch: its one route is called by the dispatcher, from its address';

export function isDispatchOnly(scopes: readonly KeyScope[]): boolean {
  return scopes.length === 1 && scopes[0] === 'dispatch';
}

// What a route needs of a client's key: a scope, or the current root key (rotation and key management).
export type RequiredScope = KeyScope | 'root';

export const REQUIRED_SCOPE = 'requiredKeyScope';

// Rotation: a retry with its Idempotency-Key is replayed to the key that sent it, now the previous one; the handler
// refuses the previous key anything else.
export const RETRIED_BY_PREVIOUS_KEY = 'retriedByPreviousKey';

/** A root key reaches every scope, only the current one reaches `root`; a scoped key reaches its own scopes. */
export function reaches(
  key: { isPreviousKey: boolean; scopedKey: { scopes: readonly KeyScope[] } | null },
  required: RequiredScope,
): boolean {
  if (key.scopedKey !== null) return required !== 'root' && key.scopedKey.scopes.includes(required);
  return required !== 'root' || !key.isPreviousKey;
}

export function missingScopeMessage(required: RequiredScope): string {
  return `secretKey does not have the scope ${required}`;
}
