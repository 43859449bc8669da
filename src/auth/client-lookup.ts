import type { FastifyRequest } from 'fastify';
import type { Network } from '../common/networks';
import type { KeyScope } from './key-scopes';

/** What a scoped key may do and from where; a root key has none (it does everything). */
export interface ScopedKeyGrant {
  keyId: number;
  scopes: readonly KeyScope[];
  allowedSources: readonly Network[] | null;
}

export interface AuthenticatedClient {
  id: number;
  secretKeyDigest: string;
  isActive: boolean;
  isPreviousKey: boolean;
  scopedKey: ScopedKeyGrant | null;
  // The answer is cached under each, so a change must drop each.
  keyDigests: string[];
}

// ClientModule provides it, so auth depends on no feature.
export interface ClientLookup {
  authenticate(secretKey: string): Promise<AuthenticatedClient | null>;
}

export const CLIENT_LOOKUP = Symbol('CLIENT_LOOKUP');

export type RequestWithClient = FastifyRequest & { client?: AuthenticatedClient };
