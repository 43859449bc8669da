import type { FastifyRequest } from 'fastify';

/** The client a secretKey belongs to, as the routes it authenticates need it. */
export interface AuthenticatedClient {
  id: number;
  /** SHA-256 of the presented key (hex), the cache key of this client's answer: writes invalidate it. */
  secretKeyDigest: string;
  isActive: boolean;
  /** The key presented is the client's previous one, within its grace period. */
  isPreviousKey: boolean;
  /** The digests of all the client's keys: its answer is cached under each, so a change must drop each. */
  keyDigests: string[];
}

/** How the guards find a key's client; ClientModule provides it, so auth depends on no feature. */
export interface ClientLookup {
  /** The client owning this key, or null when no client has it (malformed keys included). */
  authenticate(secretKey: string): Promise<AuthenticatedClient | null>;
}

export const CLIENT_LOOKUP = Symbol('CLIENT_LOOKUP');

export type RequestWithClient = FastifyRequest & { client?: AuthenticatedClient };
