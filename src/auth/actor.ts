import type { FastifyRequest } from 'fastify';

/** Who made a change and in which request (its x-request-id): every audit entry carries both. */
export interface ChangeOrigin {
  actor: string;
  requestId: string;
}

/** The guards name the authenticated caller; never by its key, only by the first 8 hex digits of the key's SHA-256. */
export type RequestWithActor = FastifyRequest & { actor?: string };

export function adminActor(keyDigestHex: string): string {
  return `admin:${keyDigestHex.slice(0, 8)}`;
}

export function dispatcherActor(keyDigestHex: string): string {
  return `dispatcher:${keyDigestHex.slice(0, 8)}`;
}

export function clientActor(clientId: number): string {
  return `client:${clientId}`;
}

export function changeOriginOf(request: RequestWithActor): ChangeOrigin {
  return { actor: request.actor!, requestId: String(request.id) };
}
