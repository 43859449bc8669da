import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { AuditLog } from '../audit/audit.repository';
import { AuditEntry, JUST_INSERTED } from '../audit/audit-entry';
import { ChangeOrigin } from '../auth/actor';
import { Clock } from '../common/clock';
import { Amount } from '../common/exact-amount';
import { amountOf, microsOf } from '../database/exact-decimal';
import { SqlNames } from '../database/sql-names';
import { sqlTimestamp } from '../database/timestamps';
import { Transactions } from '../database/transactions';
import { WriteScripts } from '../database/write-scripts';
import { SmsConfig } from '../sms-config/sms-config.entity';
import { Client, PumpingGuard } from './client.entity';

export interface NewClient {
  appName: string;
  appDescription: string | null;
  appUrl: string;
  secretKeyDigest: string;
  preferredSmsGateway: string | null;
  isHost: boolean;
}

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
  secretKeyLastUsedFrom: string | null;
  previousSecretKeyLastUsedAt: string | null;
  previousSecretKeyLastUsedFrom: string | null;
  previousKeyExpiresAt: string | null;
  allowedDestinations: string[] | null;
  dailySpendLimit: Amount | null;
  dailySmsLimit: number | null;
  spentToday: Amount;
  sentToday: number;
  pumpingGuard: PumpingGuard;
  allowPremiumNumbers: boolean;
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
  'pumpingGuard',
  'allowPremiumNumbers',
] as const satisfies ReadonlyArray<keyof Client>;

export type ClientChanges = Partial<Pick<Client, (typeof CHANGEABLE_CLIENT_FIELDS)[number]>>;

export interface ClientKeys {
  clientId: number;
  isActive: boolean;
  secretKeyDigest: string;
  previousSecretKeyDigest: string | null;
  secretKeyLastUsedAt: Date | null;
  secretKeyLastUsedFrom: string | null;
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
  'secretKeyLastUsedFrom',
  // Whether there is a previous key; the digest itself is never shown.
  'previousSecretKeyDigest',
  'previousSecretKeyLastUsedAt',
  'previousSecretKeyLastUsedFrom',
  'previousKeyExpiresAt',
  'usageDay',
  'spentToday',
].map((property) => `c.${property}`);
const ADMIN_VIEW_INTEGERS = ['dailySpendLimitMicros', 'spentTodayMicros', 'sentToday'] as const satisfies ReadonlyArray<keyof Client>;
type AdminViewRow = Omit<Client, (typeof ADMIN_VIEW_INTEGERS)[number]> & Record<(typeof ADMIN_VIEW_INTEGERS)[number], string | null>;

const KEYS_SELECTION = [
  'c.id',
  'c.isActive',
  'c.secretKeyDigest',
  'c.previousSecretKeyDigest',
  'c.secretKeyLastUsedAt',
  'c.secretKeyLastUsedFrom',
];

/** `!` escapes LIKE's wildcards in both dialects. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[!%_]/g, (character) => `!${character}`)}%`;
}

@Injectable()
export class ClientRepository {
  private readonly insertSql: string;
  private readonly names: SqlNames<Client>;

  constructor(
    private readonly transactions: Transactions,
    private readonly scripts: WriteScripts,
    private readonly auditLog: AuditLog,
    private readonly clock: Clock,
    @InjectDataSource() dataSource: DataSource,
  ) {
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
      secretKeyLastUsedFrom: client.secretKeyLastUsedFrom,
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
      previousSecretKeyLastUsedFrom: previousKeyExpiresAt === null ? null : keys.secretKeyLastUsedFrom,
      secretKeyLastUsedAt: null,
      secretKeyLastUsedFrom: null,
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
    secretKeyLastUsedFrom: client.secretKeyLastUsedFrom,
    previousSecretKeyLastUsedAt:
      client.previousSecretKeyDigest === null ? null : (client.previousSecretKeyLastUsedAt?.toISOString() ?? null),
    previousSecretKeyLastUsedFrom: client.previousSecretKeyDigest === null ? null : client.previousSecretKeyLastUsedFrom,
    previousKeyExpiresAt: client.previousSecretKeyDigest === null ? null : (client.previousKeyExpiresAt?.toISOString() ?? null),
    allowedDestinations: client.allowedDestinations,
    dailySpendLimit: client.dailySpendLimitMicros === null ? null : amountOf(BigInt(client.dailySpendLimitMicros)),
    dailySmsLimit: client.dailySmsLimit,
    spentToday: counting ? amountOf(BigInt(client.spentTodayMicros ?? 0)) : 0,
    sentToday: counting ? Number(client.sentToday ?? 0) : 0,
    pumpingGuard: client.pumpingGuard,
    allowPremiumNumbers: client.allowPremiumNumbers,
  };
}
