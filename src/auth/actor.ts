import type { FastifyRequest } from 'fastify';
import { callerRequestIdOf } from '../common/request-id';

/** Who made a change and in which request: every audit entry carries them. */
export interface ChangeOrigin {
  actor: string;
  /** The service's own id for the request (the answer's x-request-id). */
  requestId: string;
  /** The caller's x-request-id (when sane and not key-like), kept beside the service's id; null when none. */
  callerRequestId: string | null;
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
  return { actor: request.actor!, requestId: String(request.id), callerRequestId: callerRequestIdOf(request) };
}
