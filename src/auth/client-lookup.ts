import type { FastifyRequest } from 'fastify';

export interface AuthenticatedClient {
  id: number;
  secretKeyDigest: string;
  isActive: boolean;
  isPreviousKey: boolean;
  // The answer is cached under each, so a change must drop each.
  keyDigests: string[];
}

// ClientModule provides it, so auth depends on no feature.
export interface ClientLookup {
  authenticate(secretKey: string): Promise<AuthenticatedClient | null>;
}

export const CLIENT_LOOKUP = Symbol('CLIENT_LOOKUP');

export type RequestWithClient = FastifyRequest & { client?: AuthenticatedClient };
