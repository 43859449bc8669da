import type { FastifyRequest } from 'fastify';

export interface ChangeOrigin {
  actor: string;
  requestId: string;
  // Kept beside the service's own id when sane and not key-like; null when none.
  callerRequestId: string | null;
  // Where the change came from (the trace of a leaked key's use); null when not known.
  sourceAddress: string | null;
  userAgent: string | null;
}

// Never the key: only the first 8 hex digits of its SHA-256.
export type RequestWithActor = FastifyRequest & { actor?: string };

export function adminActor(keyDigestHex: string): string {
  return `admin:${keyDigestHex.slice(0, 8)}`;
}

export function dispatcherActor(keyDigestHex: string): string {
  return `dispatcher:${keyDigestHex.slice(0, 8)}`;
}

// A change made with a scoped key names it; the root key's stay the client's.
export function clientActor(clientId: number, scopedKeyId?: number): string {
  return scopedKeyId === undefined ? `client:${clientId}` : `client:${clientId}/key:${scopedKeyId}`;
}
