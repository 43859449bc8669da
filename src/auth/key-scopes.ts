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
