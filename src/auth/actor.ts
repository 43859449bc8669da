import type { FastifyRequest } from 'fastify';
import { callerRequestIdOf } from '../common/request-id';

export interface ChangeOrigin {
  actor: string;
  requestId: string;
  // Kept beside the service's own id when sane and not key-like; null when none.
  callerRequestId: string | null;
}

// Never the key: only the first 8 hex digits of its SHA-256.
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
