import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import DataLoader from 'dataloader';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { AuditLog } from '../audit/audit.repository';
import { AuditEntry, JUST_INSERTED } from '../audit/audit-entry';
import { ChangeOrigin } from '../auth/actor';
import { clientReadBatchKeys } from '../client-cache/client-cache.metrics';
import { Clock } from '../common/clock';
import { Amount } from '../common/exact-amount';
import { amountOf, microsOf } from '../database/exact-decimal';
import { SqlNames } from '../database/sql-names';
import { epochMsOf, sqlTimestamp } from '../database/timestamps';
import { Transactions } from '../database/transactions';
import { WriteScripts } from '../database/write-scripts';
import { SmsConfig } from '../sms-config/sms-config.entity';
import { SmsConfigFields, SmsConfigRow } from '../sms-config/sms-config-fields';
import { GET_CLIENT_SMS_CONFIG_FIELDS, SmsConfigSummaryDto } from '../sms-config/dto/sms-config-response.dto';
import { Client } from './client.entity';
import { CLIENT_FIELDS, ClientDto } from './dto/client-response.dto';

export interface NewClient {
  appName: string;
  appDescription: string | null;
  appUrl: string;
  secretKeyDigest: string;
  preferredSmsGateway: string | null;
  isHost: boolean;
}

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
  keyDigests: string[];
  smsConfigs: SmsConfigSummaryDto[];
}

type ClientWithSmsConfigRow = Record<ClientStoredField, unknown> &
  SmsConfigRow & {
    clientId: number | string;
    clientIsActive: number | boolean;
    isCurrentKey: number | boolean;
    currentKeyDigest: string;
    previousKeyDigest: string | null;
    previousKeyExpiresAt: Date | string | null;
    smsConfigId: number | null;
  };

export interface AdminClientView {
  clientId: number;
  appName: string;
  appDescription: string | null;
  appUrl: string;
  preferredSmsGateway: string | null;
  preferredEmailGateway: string | null;
  preferredPushNotificationGateway: string | null;
  isHost: boolean;
  isActive: boolean;
  smsConfigCount: number;
  createdAt: string;
  updatedAt: string;
  secretKeyRotatedAt: string | null;
  secretKeyLastUsedAt: string | null;
  previousSecretKeyLastUsedAt: string | null;
  previousKeyExpiresAt: string | null;
  allowedDestinations: string[] | null;
  dailySpendLimit: Amount | null;
  dailySmsLimit: number | null;
  spentToday: Amount;
  sentToday: number;
}

export const CHANGEABLE_CLIENT_FIELDS = [
  'appName',
  'appDescription',
  'appUrl',
  'preferredSmsGateway',
  'preferredEmailGateway',
  'preferredPushNotificationGateway',
  'isHost',
  'isActive',
  'allowedDestinations',
  'dailySpendLimit',
  'dailySmsLimit',
] as const satisfies ReadonlyArray<keyof Client>;

export type ClientChanges = Partial<Pick<Client, (typeof CHANGEABLE_CLIENT_FIELDS)[number]>>;

export interface ClientKeys {
  clientId: number;
  isActive: boolean;
  secretKeyDigest: string;
  previousSecretKeyDigest: string | null;
  secretKeyLastUsedAt: Date | null;
}

const INSERT_PROPERTIES = [
  'appName',
  'appDescription',
  'appUrl',
  'secretKeyDigest',
  'preferredSmsGateway',
  'isHost',
  'createdAt',
] as const satisfies ReadonlyArray<keyof Client>;

const ADMIN_VIEW_SELECTION = [
  'id',
  ...CHANGEABLE_CLIENT_FIELDS,
  'smsConfigCount',
  'createdAt',
  'updatedAt',
  'secretKeyRotatedAt',
  'secretKeyLastUsedAt',
  // Whether there is a previous key; the digest itself is never shown.
  'previousSecretKeyDigest',
  'previousSecretKeyLastUsedAt',
  'previousKeyExpiresAt',
  'usageDay',
  'spentToday',
].map((property) => `c.${property}`);
const ADMIN_VIEW_INTEGERS = ['dailySpendLimitMicros', 'spentTodayMicros', 'sentToday'] as const satisfies ReadonlyArray<keyof Client>;
type AdminViewRow = Omit<Client, (typeof ADMIN_VIEW_INTEGERS)[number]> & Record<(typeof ADMIN_VIEW_INTEGERS)[number], string | null>;

const KEYS_SELECTION = ['c.id', 'c.isActive', 'c.secretKeyDigest', 'c.previousSecretKeyDigest', 'c.secretKeyLastUsedAt'];

/** `!` escapes LIKE's wildcards in both dialects. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[!%_]/g, (character) => `!${character}`)}%`;
}

// A batch is padded to the next of these sizes, so each connection prepares at most six statements.
const READ_SIZES = [1, 2, 4, 8, 16, 32];
export const MAX_DIGESTS_PER_READ = READ_SIZES[READ_SIZES.length - 1];

// Two lookups by a unique index, not one with OR, which cost a miss 60% more on MySQL (docs/architecture.md).
function clientWithSmsConfigsSql(dataSource: DataSource, digests: number): string {
  const client = new SqlNames(dataSource, Client);
  const smsConfig = new SqlNames(dataSource, SmsConfig);
  const shown = new SmsConfigFields(dataSource).columnsOf(GET_CLIENT_SMS_CONFIG_FIELDS);
  const columns = `${client.selectList('c', [
    ['id', 'clientId'],
    ...CLIENT_STORED_FIELDS,
    ['isActive', 'clientIsActive'],
    ['secretKeyDigest', 'currentKeyDigest'],
    ['previousSecretKeyDigest', 'previousKeyDigest'],
    'previousKeyExpiresAt',
  ])}, ${smsConfig.selectList('s', [['id', 'smsConfigId'], ...shown.columns])}, ${smsConfig.integerTextList('s', shown.twins)}
  FROM ${client.table} c LEFT JOIN ${smsConfig.table} s ON ${smsConfig.column('clientId', 's')} = ${client.column('id', 'c')}`;
  const marks = Array.from({ length: digests }, () => '?').join(', ');
  return `SELECT 1 AS isCurrentKey, ${columns} WHERE ${client.column('secretKeyDigest', 'c')} IN (${marks})
  UNION ALL
  SELECT 0 AS isCurrentKey, ${columns} WHERE ${client.column('previousSecretKeyDigest', 'c')} IN (${marks})`;
}

function clientOf(
  rows: ClientWithSmsConfigRow[] | undefined,
  readSmsConfig: (row: SmsConfigRow) => SmsConfigSummaryDto,
): ClientWithSmsConfigs | null {
  if (rows === undefined) return null;
  const [client] = rows;
  if (rows.length > 1) rows.sort((a, b) => Number(a.smsConfigId) - Number(b.smsConfigId));
  const isPreviousKey = !Number(client.isCurrentKey);
  const keyExpiresAt = isPreviousKey ? epochMsOf(client.previousKeyExpiresAt) : null;
  if (keyExpiresAt !== null && keyExpiresAt <= Date.now()) return null;
  return {
    clientId: Number(client.clientId),
    isActive: Boolean(Number(client.clientIsActive)),
    isPreviousKey,
    keyExpiresAt,
    keyDigests: client.previousKeyDigest === null ? [client.currentKeyDigest] : [client.currentKeyDigest, client.previousKeyDigest],
    ...readClientFields(client),
    // A client without configurations is one row whose sms_config columns are all null.
    smsConfigs: client.smsConfigId === null ? [] : rows.map(readSmsConfig),
  };
}

@Injectable()
export class ClientRepository {
  private readonly withSmsConfigsSql = new Map<number, string>();
  // Misses of different keys in one turn of the event loop are read by one statement.
  private readonly byDigest = new DataLoader((digests: readonly string[]) => this.findManyWithSmsConfigs(digests), {
    cache: false,
    maxBatchSize: MAX_DIGESTS_PER_READ,
    batchScheduleFn: (read) => setImmediate(read),
  });
  private readonly insertSql: string;
  private readonly names: SqlNames<Client>;
  private readonly readSmsConfig: (row: SmsConfigRow) => SmsConfigSummaryDto;

  constructor(
    private readonly transactions: Transactions,
    private readonly scripts: WriteScripts,
    private readonly auditLog: AuditLog,
    private readonly clock: Clock,
    @InjectDataSource() dataSource: DataSource,
  ) {
    for (const size of READ_SIZES) this.withSmsConfigsSql.set(size, clientWithSmsConfigsSql(dataSource, size));
    this.readSmsConfig = new SmsConfigFields(dataSource).reader(GET_CLIENT_SMS_CONFIG_FIELDS);
    const client = new SqlNames(dataSource, Client);
    this.names = client;
    this.insertSql = `INSERT INTO ${client.table} (${client.columns(INSERT_PROPERTIES)}) VALUES (${INSERT_PROPERTIES.map(() => '?').join(', ')})`;
  }

  private get manager(): EntityManager {
    return this.transactions.manager;
  }

  async insert(client: NewClient, origin: ChangeOrigin): Promise<number> {
    const values = INSERT_PROPERTIES.map((property) => {
      if (property === 'createdAt') return sqlTimestamp(new Date());
      const value = client[property];
      return typeof value === 'boolean' ? Number(value) : value;
    });
    const audit = this.auditLog.statement({ action: 'client.created', origin, clientId: JUST_INSERTED });
    const [inserted] = await this.scripts.run([{ sql: this.insertSql, values }, audit]);
    return inserted.insertId;
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
    const rows = await this.transactions.sql<ClientWithSmsConfigRow>(this.withSmsConfigsSql.get(size)!, [...padded, ...padded]);
    const rowsByDigest = new Map<string, ClientWithSmsConfigRow[]>();
    for (const row of rows) {
      const digest = Number(row.isCurrentKey) ? row.currentKeyDigest : row.previousKeyDigest!;
      const found = rowsByDigest.get(digest);
      if (found === undefined) rowsByDigest.set(digest, [row]);
      else found.push(row);
    }
    return digests.map((digest) => clientOf(rowsByDigest.get(digest), this.readSmsConfig));
  }

  async list(
    afterId: number,
    limit: number,
    appNamePrefix?: string,
    previousKeyUsedSince?: { since: Date; used: boolean },
  ): Promise<AdminClientView[]> {
    const query = this.clients(ADMIN_VIEW_SELECTION).where('c.id > :afterId', { afterId });
    if (appNamePrefix !== undefined) query.andWhere("c.appName LIKE :prefix ESCAPE '!'", { prefix: likePrefix(appNamePrefix) });
    if (previousKeyUsedSince !== undefined) {
      const inUse = 'c.previousSecretKeyDigest IS NOT NULL AND c.previousSecretKeyLastUsedAt >= :since';
      query.andWhere(previousKeyUsedSince.used ? inUse : `NOT (${inUse} AND c.previousSecretKeyLastUsedAt IS NOT NULL)`, {
        since: previousKeyUsedSince.since,
      });
    }
    return this.adminViews(query.orderBy('c.id').limit(limit + 1));
  }

  async findById(clientId: number): Promise<AdminClientView | null> {
    const [found] = await this.adminViews(this.clients(ADMIN_VIEW_SELECTION).where({ id: clientId }));
    return found ?? null;
  }

  // Locked on MySQL; SQLite runs one transaction at a time anyway.
  async lockKeys(clientId: number): Promise<ClientKeys | null> {
    const query = this.clients(KEYS_SELECTION).where({ id: clientId });
    if (this.transactions.dialect === 'mysql') query.setLock('pessimistic_write');
    const client = await query.getOne();
    if (client === null) return null;
    return {
      clientId: client.id,
      isActive: client.isActive,
      secretKeyDigest: client.secretKeyDigest,
      previousSecretKeyDigest: client.previousSecretKeyDigest,
      secretKeyLastUsedAt: client.secretKeyLastUsedAt,
    };
  }

  async update(clientId: number, changes: ClientChanges, audit: AuditEntry[]): Promise<void> {
    const { dailySpendLimit } = changes;
    const twin =
      dailySpendLimit === undefined
        ? {}
        : { dailySpendLimitMicros: dailySpendLimit === null ? null : microsOf(dailySpendLimit).toString() };
    await this.updateRow(clientId, { ...changes, ...twin, updatedAt: new Date() });
    for (const entry of audit) await this.auditLog.record(entry);
  }

  async delete(clientId: number, origin: ChangeOrigin): Promise<void> {
    await this.manager.delete(SmsConfig, { clientId });
    await this.manager.delete(Client, { id: clientId });
    await this.auditLog.record({ action: 'client.deleted', origin, clientId });
  }

  // A null expiry revokes the current key at once; an earlier previous key ends here.
  async rotateKey(keys: ClientKeys, newDigest: string, previousKeyExpiresAt: Date | null, origin: ChangeOrigin): Promise<Date> {
    const now = new Date();
    await this.updateRow(keys.clientId, {
      secretKeyDigest: newDigest,
      previousSecretKeyDigest: previousKeyExpiresAt === null ? null : keys.secretKeyDigest,
      previousKeyExpiresAt,
      // The key keeps its last use as it becomes the previous one (read under the row's lock); the new key has none.
      previousSecretKeyLastUsedAt: previousKeyExpiresAt === null ? null : keys.secretKeyLastUsedAt,
      secretKeyLastUsedAt: null,
      secretKeyRotatedAt: now,
      updatedAt: now,
    });
    await this.auditLog.record({ action: 'client.secret-key.rotated', origin, clientId: keys.clientId, changed: ['secretKey'] });
    return now;
  }

  // Whatever the previous key's grace.
  async clientIdOfKey(secretKeyDigest: string): Promise<number | null> {
    const found = await this.manager
      .getRepository(Client)
      .createQueryBuilder('c')
      .select('c.id', 'id')
      .where('c.secretKeyDigest = :digest OR c.previousSecretKeyDigest = :digest', { digest: secretKeyDigest })
      .getRawOne<{ id: number | string }>();
    return found ? Number(found.id) : null;
  }

  async recordSecretKeyReplay(clientId: number | null, origin: ChangeOrigin): Promise<void> {
    await this.auditLog.record({ action: 'client.secret-key.replayed', origin, clientId });
  }

  private async updateRow(clientId: number, values: Partial<Client>): Promise<void> {
    await this.manager.createQueryBuilder().update(Client).set(values).where({ id: clientId }).updateEntity(false).execute();
  }

  private async adminViews(query: SelectQueryBuilder<Client>): Promise<AdminClientView[]> {
    const today = this.clock.today();
    return (await this.names.withIntegerTexts(query, 'c', ADMIN_VIEW_INTEGERS)).map((client) => toAdminClientView(client, today));
  }

  private clients(selection: string[]) {
    return this.manager.getRepository(Client).createQueryBuilder('c').select(selection);
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

function toAdminClientView(client: AdminViewRow, today: string): AdminClientView {
  const counting = client.usageDay === today;
  return {
    clientId: client.id,
    appName: client.appName,
    appDescription: client.appDescription,
    appUrl: client.appUrl,
    preferredSmsGateway: client.preferredSmsGateway,
    preferredEmailGateway: client.preferredEmailGateway,
    preferredPushNotificationGateway: client.preferredPushNotificationGateway,
    isHost: client.isHost,
    isActive: client.isActive,
    smsConfigCount: client.smsConfigCount,
    createdAt: client.createdAt.toISOString(),
    updatedAt: (client.updatedAt ?? client.createdAt).toISOString(),
    secretKeyRotatedAt: client.secretKeyRotatedAt?.toISOString() ?? null,
    secretKeyLastUsedAt: client.secretKeyLastUsedAt?.toISOString() ?? null,
    previousSecretKeyLastUsedAt:
      client.previousSecretKeyDigest === null ? null : (client.previousSecretKeyLastUsedAt?.toISOString() ?? null),
    previousKeyExpiresAt: client.previousSecretKeyDigest === null ? null : (client.previousKeyExpiresAt?.toISOString() ?? null),
    allowedDestinations: client.allowedDestinations,
    dailySpendLimit: client.dailySpendLimitMicros === null ? null : amountOf(BigInt(client.dailySpendLimitMicros)),
    dailySmsLimit: client.dailySmsLimit,
    spentToday: counting ? amountOf(BigInt(client.spentTodayMicros ?? 0)) : 0,
    sentToday: counting ? Number(client.sentToday ?? 0) : 0,
  };
}
