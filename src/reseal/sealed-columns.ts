import { SealContext } from '../crypto/secret-sealer';
import { SqlValue } from '../database/transactions';
import { idempotentAnswerSealContext, idempotentRequestSealContext } from '../idempotency/idempotent-answer-seal-context';
import { apiKeySealContext, passwordSealContext } from '../sms-config/sms-config-seal-context';

export type RowColumns = Record<string, SqlValue>;

export interface SealedColumn {
  table: string;
  column: string;
  key: string[];
  contextColumns: string[];
  contextOf(row: RowColumns): SealContext;
}

// A key can be retired only once none of these columns holds a value under it.
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'sms_config',
    column: 'password_sealed',
    key: ['id'],
    contextColumns: ['client_id'],
    contextOf: (row) => passwordSealContext(Number(row.client_id)),
  },
  {
    table: 'sms_config',
    column: 'api_key_sealed',
    key: ['id'],
    contextColumns: ['client_id'],
    contextOf: (row) => apiKeySealContext(Number(row.client_id)),
  },
  {
    table: 'idempotent_request',
    column: 'answer_sealed',
    key: ['scope', 'idempotency_key'],
    contextColumns: [],
    contextOf: (row) => idempotentAnswerSealContext(String(row.scope), String(row.idempotency_key)),
  },
  {
    table: 'idempotent_request',
    column: 'request_sealed',
    key: ['scope', 'idempotency_key'],
    contextColumns: [],
    contextOf: (row) => idempotentRequestSealContext(String(row.scope), String(row.idempotency_key)),
  },
];
