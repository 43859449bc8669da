import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import DataLoader from 'dataloader';
import { DataSource } from 'typeorm';
import { networksOf } from '../auth/allowed-sources';
import { ScopedKeyGrant } from '../auth/client-lookup';
import { KeyScope } from '../auth/key-scopes';
import { KeyShape } from '../auth/scoped-key';
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
    scopedKeyDigests: string | null;
    smsConfigId: number | null;
  } & Partial<ScopedKeyColumns>;

// What the read of a scoped key adds to the client's row.
interface ScopedKeyColumns {
  scopedKeyId: number | string;
  scopedKeyDigest: string;
  scopedKeyScopes: string;
  scopedKeySources: string | null;
  scopedKeyExpiresAt: Date | string | null;
}

// A batch is padded to the next of these sizes, so each connection prepares at most six statements.
const READ_SIZES = [1, 2, 4, 8, 16, 32];
export const MAX_DIGESTS_PER_READ = READ_SIZES[READ_SIZES.length - 1];

// The answer's fields, and what the guards' lookup reads: whose key it is, whether it may be used.
const CLIENT_SELECTION: Array<ClientStoredField | 'previousKeyExpiresAt' | 'scopedKeyDigests' | [keyof Client, string]> = [
  ['id', 'clientId'],
  ...CLIENT_STORED_FIELDS,
  ['isActive', 'clientIsActive'],
  ['secretKeyDigest', 'currentKeyDigest'],
  ['previousSecretKeyDigest', 'previousKeyDigest'],
  'previousKeyExpiresAt',
  'scopedKeyDigests',
];

type ShownSmsConfigColumns = ReturnType<SmsConfigFields['columnsOf']>;

// A root key's digest: two lookups by a unique index, not one with OR, which cost a miss 60% more on MySQL
// (docs/architecture.md). A scoped key's: one, by client_key's. Each a statement of its own, which costs a root key's
// miss nothing for the scoped keys (BENCHMARKS.md).
function clientWithSmsConfigsSql(dataSource: DataSource, shown: ShownSmsConfigColumns, digests: number, shape: KeyShape): string {
  const client = new SqlNames(dataSource, Client);
  const smsConfig = new SqlNames(dataSource, SmsConfig);
  const key = new SqlNames(dataSource, ClientKey);
  const columns = `${client.selectList('c', CLIENT_SELECTION)}, ${smsConfig.selectList('s', [
    ['id', 'smsConfigId'],
    ...shown.columns,
  ])}, ${smsConfig.integerTextList('s', shown.twins)}`;
  const withSmsConfigs = `LEFT JOIN ${smsConfig.table} s ON ${smsConfig.column('clientId', 's')} = ${client.column('id', 'c')}`;
  const marks = Array.from({ length: digests }, () => '?').join(', ');
  if (shape === 'scoped') {
    const scopedKey = key.selectList('k', [
      ['id', 'scopedKeyId'],
      ['keyDigest', 'scopedKeyDigest'],
      ['scopes', 'scopedKeyScopes'],
      ['allowedSources', 'scopedKeySources'],
      ['expiresAt', 'scopedKeyExpiresAt'],
    ]);
    return `SELECT ${KeyKind.Scoped} AS keyKind, ${scopedKey}, ${columns} FROM ${key.table} k
    JOIN ${client.table} c ON ${client.column('id', 'c')} = ${key.column('clientId', 'k')} ${withSmsConfigs}
    WHERE ${key.column('keyDigest', 'k')} IN (${marks})`;
  }
  return `SELECT ${KeyKind.Current} AS keyKind, ${columns} FROM ${client.table} c ${withSmsConfigs}
  WHERE ${client.column('secretKeyDigest', 'c')} IN (${marks})
  UNION ALL
  SELECT ${KeyKind.Previous} AS keyKind, ${columns} FROM ${client.table} c ${withSmsConfigs}
  WHERE ${client.column('previousSecretKeyDigest', 'c')} IN (${marks})`;
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
    kind === KeyKind.Previous ? client.previousKeyExpiresAt : kind === KeyKind.Scoped ? (client.scopedKeyExpiresAt ?? null) : null,
  );
  if (keyExpiresAt !== null && keyExpiresAt <= Date.now()) return null;
  const rootKeyDigests =
    client.previousKeyDigest === null ? [client.currentKeyDigest] : [client.currentKeyDigest, client.previousKeyDigest];
  return {
    clientId: Number(client.clientId),
    isActive: Boolean(Number(client.clientIsActive)),
    isPreviousKey: kind === KeyKind.Previous,
    keyExpiresAt,
    scopedKey: kind === KeyKind.Scoped ? scopedKeyGrantOf(client as ClientWithSmsConfigRow & ScopedKeyColumns) : null,
    keyDigests:
      client.scopedKeyDigests === null ? rootKeyDigests : [...rootKeyDigests, ...(JSON.parse(client.scopedKeyDigests) as string[])],
    ...readClientFields(client),
    // A client without configurations is one row whose sms_config columns are all null.
    smsConfigs: client.smsConfigId === null ? [] : rows.map(readSmsConfig),
  };
}

function scopedKeyGrantOf(row: ScopedKeyColumns): ScopedKeyGrant {
  const sources = row.scopedKeySources === null ? null : (JSON.parse(row.scopedKeySources) as string[] | null);
  return {
    keyId: Number(row.scopedKeyId),
    scopes: JSON.parse(row.scopedKeyScopes) as KeyScope[],
    allowedSources: sources === null ? null : networksOf(sources),
  };
}

// The read the get-client cache fills from: a client with its configurations, by the digest of one of its keys. The
// columns it reads decide what a write drops from the cache (GetClientColumns).
@Injectable()
export class GetClientRepository implements GetClientColumns {
  readonly owner: ReadonlySet<string>;
  readonly client: ReadonlySet<string>;
  readonly smsConfig: ReadonlySet<string>;
  private readonly withSmsConfigsSql = { root: new Map<number, string>(), scoped: new Map<number, string>() };
  private readonly readSmsConfig: (row: SmsConfigRow) => SmsConfigSummaryDto;
  // Misses of different keys of a shape in one turn of the event loop are read by one statement.
  private readonly byDigest = { root: this.loaderOf('root'), scoped: this.loaderOf('scoped') };

  constructor(
    private readonly transactions: Transactions,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const smsConfigFields = new SmsConfigFields(dataSource);
    const shown = smsConfigFields.columnsOf(GET_CLIENT_SMS_CONFIG_FIELDS);
    for (const shape of ['root', 'scoped'] as const) {
      for (const size of READ_SIZES) this.withSmsConfigsSql[shape].set(size, clientWithSmsConfigsSql(dataSource, shown, size, shape));
    }
    this.readSmsConfig = smsConfigFields.reader(GET_CLIENT_SMS_CONFIG_FIELDS);
    const clientColumns = CLIENT_SELECTION.map((item) => (typeof item === 'string' ? item : item[0]));
    this.client = new Set(CLIENT_STORED_FIELDS);
    this.owner = new Set(clientColumns.filter((column) => !this.client.has(column)));
    this.smsConfig = new Set<string>(['id', 'clientId', ...shown.columns, ...shown.twins]);
  }

  findWithSmsConfigsByDigest(secretKeyDigest: string, shape: KeyShape): Promise<ClientWithSmsConfigs | null> {
    // Inside a transaction the read takes its connection (on SQLite, the only one), so it cannot wait for a batch.
    if (this.transactions.active) return this.findManyWithSmsConfigs([secretKeyDigest], shape).then(([found]) => found);
    return this.byDigest[shape].load(secretKeyDigest);
  }

  async findManyWithSmsConfigs(digests: readonly string[], shape: KeyShape): Promise<Array<ClientWithSmsConfigs | null>> {
    const size = READ_SIZES.find((readSize) => readSize >= digests.length)!;
    const padded = [...digests, ...Array<string>(size - digests.length).fill(digests[0])];
    clientReadBatchKeys.observe(digests.length);
    const values = shape === 'root' ? [...padded, ...padded] : padded;
    const rows = await this.transactions.sql<ClientWithSmsConfigRow>(this.withSmsConfigsSql[shape].get(size)!, values);
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

  private loaderOf(shape: KeyShape): DataLoader<string, ClientWithSmsConfigs | null> {
    return new DataLoader((digests: readonly string[]) => this.findManyWithSmsConfigs(digests, shape), {
      cache: false,
      maxBatchSize: MAX_DIGESTS_PER_READ,
      batchScheduleFn: (read) => setImmediate(read),
    });
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
