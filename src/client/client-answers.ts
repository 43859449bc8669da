/**
 * The answers of the client registry the edge sends (get-client-at-edge.ts), synchronously from the cache or after one
 * read on a miss. ClientService implements it.
 */
export abstract class ClientAnswers {
  /**
   * From the cache: the serialized answer; null when the key is known but the full way answers it (no client has it,
   * or its client is disabled); undefined when the cache does not know the key.
   */
  abstract cachedAnswer(secretKey: string, secretKeyDigest: string): string | null | undefined;
  /** A cache miss: the answer read from the database (one read shared by concurrent misses), filling the cache; null as above. */
  abstract loadAnswer(secretKey: string, secretKeyDigest: string): Promise<string | null>;
}
