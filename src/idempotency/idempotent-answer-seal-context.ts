import { SealContext } from '../crypto/secret-sealer';

// Bound to the row, so that an answer copied to another request's row does not open.
export function idempotentAnswerSealContext(scope: string, idempotencyKey: string): SealContext {
  return { table: 'idempotent_request', column: 'answer_sealed', owner: `${scope}/${idempotencyKey}` };
}

export function idempotentRequestSealContext(scope: string, idempotencyKey: string): SealContext {
  return { table: 'idempotent_request', column: 'request_sealed', owner: `${scope}/${idempotencyKey}` };
}
