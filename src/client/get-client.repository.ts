import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import DataLoader from 'dataloader';
import { DataSource } from 'typeorm';
import { networksOf } from '../auth/allowed-sources';
import { ScopedKeyGrant } from '../auth/client-lookup';
import { KeyScope } from '../auth/key-scopes';
import { GetClientColumns } from '../client-cache/client-cache-invalidator';
import { clientReadBatchKeys } from '../client-cache/client-cache.metrics';
import { SqlNames } from '../database/sql-names';
import { epochMsOf } from '../database/timestamps';
import { Transactions } from '../database/transactions';
import { SmsConfig } from '../sms-config/sms-config.entity';
import { SmsConfigFields, SmsConfigRow } from '../sms-config/sms-config-fields';
import { GET_CLIENT_SMS_CONFIG_FIELDS, SmsConfigSummaryDto } from '../sms-config/dto/sms-config-response.dto';
import { Client } from './client.entity';
import { CLIENT_FIELDS, ClientDto } from './dto/client-response.dto';
import { ClientKey } from './keys/client-key.entity';

const CLIENT_STORED_FIELDS = CLIENT_FIELDS.filter(
  (field): field is Exclude<(typeof CLIENT_FIELDS)[number], 'secretKey' | 'smsConfig'> => field !== 'secretKey' && field !== 'smsConfig',
);
type ClientStoredField = (typeof CLIENT_STORED_FIELDS)[number];

// Both drivers read booleans as 0/1.
const CLIENT_FIELD_READS: Partial<Record<ClientStoredField, (value: unknown) => unknown>> = { isHost: Boolean };

export interface ClientWithSmsConfigs extends Pick<ClientDto, ClientStoredField> {
  clientId: number;
  isActive: boolean;
  isPreviousKey: boolean;
  keyExpiresAt: number | null;
  scopedKey: ScopedKeyGrant | null;
  keyDigests: string[];
  smsConfigs: SmsConfigSummaryDto[];
}

// Which key of the client the digest is, as each branch of the read says.
enum KeyKind {
  Previous = 0,
  Current = 1,
  Scoped = 2,
}

type ClientWithSmsConfigRow = Record<ClientStoredField, unknown> &
  SmsConfigRow & {
    clientId: number | string;
    clientIsActive: number | boolean;
    keyKind: number | string;
    currentKeyDigest: string;
    previousKeyDigest: string | null;
    previousKeyExpiresAt: Date | string | null;
    scopedKeyDigests: string | string[] | null;
    scopedKeyId: number | string | null;
    scopedKeyDigest: string | null;
    scopedKeyScopes: string | null;
    scopedKeySources: string | null;
    scopedKeyExpiresAt: Date | string | null;
    smsConfigId: number | null;
  };

// A batch is padded to the next of these sizes, so each connection prepares at most six statements.
const READ_SIZES = [1, 2, 4, 8, 16, 32];
export const MAX_DIGESTS_PER_READ = READ_SIZES[READ_SIZES.length - 1];

// The answer's fields, and what the guards' lookup reads: whose key it is, whether it may be used.
const CLIENT_SELECTION: Array<ClientStoredField | 'previousKeyExpiresAt' | [keyof Client, string]> = [
  ['id', 'clientId'],
  ...CLIENT_STORED_FIELDS,
  ['isActive', 'clientIsActive'],
  ['secretKeyDigest', 'currentKeyDigest'],
  ['previousSecretKeyDigest', 'previousKeyDigest'],
  'previousKeyExpiresAt',
];

type ShownSmsConfigColumns = ReturnType<SmsConfigFields['columnsOf']>;

// One lookup by a unique index per kind of key, not one with OR, which cost a miss 60% more on MySQL
// (docs/architecture.md); each row also lists the digests of the client's scoped keys, under which its answer is cached too.
function clientWithSmsConfigsSql(dataSource: DataSource, shown: ShownSmsConfigColumns, digests: number): string {
  const client = new SqlNames(dataSource, Client);
  const smsConfig = new SqlNames(dataSource, SmsConfig);
  const key = new SqlNames(dataSource, ClientKey);
  const arrayOf = dataSource.options.type === 'better-sqlite3' ? 'json_group_array' : 'JSON_ARRAYAGG';
  const scopedKeyDigests = `(SELECT ${arrayOf}(${key.column('keyDigest', 'd')}) FROM ${key.table} d
    WHERE ${key.column('clientId', 'd')} = ${client.column('id', 'c')}) AS scopedKeyDigests`;
  const columns = `${client.selectList('c', CLIENT_SELECTION)}, ${scopedKeyDigests}, ${smsConfig.selectList('s', [
    ['id', 'smsConfigId'],
    ...shown.columns,
  ])}, ${smsConfig.integerTextList('s', shown.twins)}`;
  const withSmsConfigs = `LEFT JOIN ${smsConfig.table} s ON ${smsConfig.column('clientId', 's')} = ${client.column('id', 'c')}`;
  const rootKey =
    'NULL AS scopedKeyId, NULL AS scopedKeyDigest, NULL AS scopedKeyScopes, NULL AS scopedKeySources, NULL AS scopedKeyExpiresAt';
  const scopedKey = key.selectList('k', [
    ['id', 'scopedKeyId'],
    ['keyDigest', 'scopedKeyDigest'],
    ['scopes', 'scopedKeyScopes'],
    ['allowedSources', 'scopedKeySources'],
    ['expiresAt', 'scopedKeyExpiresAt'],
  ]);
  const marks = Array.from({ length: digests }, () => '?').join(', ');
  return `SELECT ${KeyKind.Current} AS keyKind, ${rootKey}, ${columns} FROM ${client.table} c ${withSmsConfigs}
  WHERE ${client.column('secretKeyDigest', 'c')} IN (${marks})
  UNION ALL
  SELECT ${KeyKind.Previous} AS keyKind, ${rootKey}, ${columns} FROM ${client.table} c ${withSmsConfigs}
  WHERE ${client.column('previousSecretKeyDigest', 'c')} IN (${marks})
  UNION ALL
  SELECT ${KeyKind.Scoped} AS keyKind, ${scopedKey}, ${columns} FROM ${key.table} k
  JOIN ${client.table} c ON ${client.column('id', 'c')} = ${key.column('clientId', 'k')} ${withSmsConfigs}
  WHERE ${key.column('keyDigest', 'k')} IN (${marks})`;
}

function clientOf(
  rows: ClientWithSmsConfigRow[] | undefined,
  readSmsConfig: (row: SmsConfigRow) => SmsConfigSummaryDto,
): ClientWithSmsConfigs | null {
  if (rows === undefined) return null;
  const [client] = rows;
  if (rows.length > 1) rows.sort((a, b) => Number(a.smsConfigId) - Number(b.smsConfigId));
  const kind = Number(client.keyKind) as KeyKind;
  const keyExpiresAt = epochMsOf(
    kind === KeyKind.Previous ? client.previousKeyExpiresAt : kind === KeyKind.Scoped ? client.scopedKeyExpiresAt : null,
  );
  if (keyExpiresAt !== null && keyExpiresAt <= Date.now()) return null;
  const rootKeyDigests =
    client.previousKeyDigest === null ? [client.currentKeyDigest] : [client.currentKeyDigest, client.previousKeyDigest];
  return {
    clientId: Number(client.clientId),
    isActive: Boolean(Number(client.clientIsActive)),
    isPreviousKey: kind === KeyKind.Previous,
    keyExpiresAt,
    scopedKey: kind === KeyKind.Scoped ? scopedKeyGrantOf(client) : null,
    keyDigests: [...rootKeyDigests, ...digestListOf(client.scopedKeyDigests)],
    ...readClientFields(client),
    // A client without configurations is one row whose sms_config columns are all null.
    smsConfigs: client.smsConfigId === null ? [] : rows.map(readSmsConfig),
  };
}

function scopedKeyGrantOf(row: ClientWithSmsConfigRow): ScopedKeyGrant {
  const sources = row.scopedKeySources === null ? null : (JSON.parse(row.scopedKeySources) as string[] | null);
  return {
    keyId: Number(row.scopedKeyId),
    scopes: JSON.parse(row.scopedKeyScopes!) as KeyScope[],
    allowedSources: sources === null ? null : networksOf(sources),
  };
}

// MySQL's driver parses a JSON column, MariaDB's JSON is text; an empty aggregate is NULL on MySQL.
function digestListOf(digests: string | string[] | null): string[] {
  if (digests === null) return [];
  return typeof digests === 'string' ? (JSON.parse(digests) as string[]) : digests;
}

// The read the get-client cache fills from: a client with its configurations, by the digest of one of its keys. The
// columns it reads decide what a write drops from the cache (GetClientColumns).
@Injectable()
export class GetClientRepository implements GetClientColumns {
  readonly owner: ReadonlySet<string>;
  readonly client: ReadonlySet<string>;
  readonly smsConfig: ReadonlySet<string>;
  private readonly withSmsConfigsSql = new Map<number, string>();
  private readonly readSmsConfig: (row: SmsConfigRow) => SmsConfigSummaryDto;
  // Misses of different keys in one turn of the event loop are read by one statement.
  private readonly byDigest = new DataLoader((digests: readonly string[]) => this.findManyWithSmsConfigs(digests), {
    cache: false,
    maxBatchSize: MAX_DIGESTS_PER_READ,
    batchScheduleFn: (read) => setImmediate(read),
  });

  constructor(
    private readonly transactions: Transactions,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const smsConfigFields = new SmsConfigFields(dataSource);
    const shown = smsConfigFields.columnsOf(GET_CLIENT_SMS_CONFIG_FIELDS);
    for (const size of READ_SIZES) this.withSmsConfigsSql.set(size, clientWithSmsConfigsSql(dataSource, shown, size));
    this.readSmsConfig = smsConfigFields.reader(GET_CLIENT_SMS_CONFIG_FIELDS);
    const clientColumns = CLIENT_SELECTION.map((item) => (typeof item === 'string' ? item : item[0]));
    this.client = new Set(CLIENT_STORED_FIELDS);
    this.owner = new Set(clientColumns.filter((column) => !this.client.has(column)));
    this.smsConfig = new Set<string>(['id', 'clientId', ...shown.columns, ...shown.twins]);
  }

  findWithSmsConfigsByDigest(secretKeyDigest: string): Promise<ClientWithSmsConfigs | null> {
    // Inside a transaction the read takes its connection (on SQLite, the only one), so it cannot wait for a batch.
    if (this.transactions.active) return this.findManyWithSmsConfigs([secretKeyDigest]).then(([found]) => found);
    return this.byDigest.load(secretKeyDigest);
  }

  async findManyWithSmsConfigs(digests: readonly string[]): Promise<Array<ClientWithSmsConfigs | null>> {
    const size = READ_SIZES.find((readSize) => readSize >= digests.length)!;
    const padded = [...digests, ...Array<string>(size - digests.length).fill(digests[0])];
    clientReadBatchKeys.observe(digests.length);
    const rows = await this.transactions.sql<ClientWithSmsConfigRow>(this.withSmsConfigsSql.get(size)!, [...padded, ...padded, ...padded]);
    const rowsByDigest = new Map<string, ClientWithSmsConfigRow[]>();
    for (const row of rows) {
      const kind = Number(row.keyKind) as KeyKind;
      const digest =
        kind === KeyKind.Current ? row.currentKeyDigest : kind === KeyKind.Previous ? row.previousKeyDigest! : row.scopedKeyDigest!;
      const found = rowsByDigest.get(digest);
      if (found === undefined) rowsByDigest.set(digest, [row]);
      else found.push(row);
    }
    return digests.map((digest) => clientOf(rowsByDigest.get(digest), this.readSmsConfig));
  }
}

function readClientFields(row: ClientWithSmsConfigRow): Pick<ClientDto, ClientStoredField> {
  const shown = {} as Record<ClientStoredField, unknown>;
  for (const field of CLIENT_STORED_FIELDS) {
    const read = CLIENT_FIELD_READS[field];
    shown[field] = read ? read(row[field]) : row[field];
  }
  return shown as Pick<ClientDto, ClientStoredField>;
}
