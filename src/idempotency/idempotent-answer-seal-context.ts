import { SealContext } from '../crypto/secret-sealer';

/**
 * Where a kept idempotent answer is sealed: the row of its scope and Idempotency-Key, so an answer copied to another
 * request's row does not open. Every seal and open of idempotent_request.answer_sealed goes through it.
 */
export function idempotentAnswerSealContext(scope: string, idempotencyKey: string): SealContext {
  return { table: 'idempotent_request', column: 'answer_sealed', owner: `${scope}/${idempotencyKey}` };
}

/** Where the sealed copy of a kept request's SHA-256 is sealed (idempotent_request.request_sealed): its row, likewise. */
export function idempotentRequestSealContext(scope: string, idempotencyKey: string): SealContext {
  return { table: 'idempotent_request', column: 'request_sealed', owner: `${scope}/${idempotencyKey}` };
}
