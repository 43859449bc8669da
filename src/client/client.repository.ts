import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { AuditLog } from '../audit/audit.repository';
import { AuditEntry, JUST_INSERTED } from '../audit/audit-entry';
import { ChangeOrigin } from '../auth/actor';
import { Clock } from '../common/clock';
import { amountOf, microsOf } from '../database/exact-decimal';
import { SqlNames } from '../database/sql-names';
import { Transactions } from '../database/transactions';
import { WriteScripts } from '../database/write-scripts';
import { SmsConfig } from '../sms-config/sms-config.entity';
import { ADMIN_CLIENT_FIELDS, ClientFields, NewClient } from './client-fields';
import { Client } from './client.entity';
import { AddClientDto } from './dto/add-client.dto';
import { AdminClientDto, UpdateClientDto } from './dto/admin-client.dto';
import { ClientKey } from './keys/client-key.entity';

export interface ClientKeys {
  clientId: number;
  isActive: boolean;
  secretKeyDigest: string;
  previousSecretKeyDigest: string | null;
  secretKeyLastUsedAt: Date | null;
  secretKeyLastUsedFrom: string | null;
  // get-client's answer is cached under these too.
  scopedKeyDigests: string[];
}

const ADMIN_VIEW_INTEGERS = ['dailySpendLimitMicros', 'spentTodayMicros', 'sentToday'] as const satisfies ReadonlyArray<keyof Client>;
type AdminViewRow = Omit<Client, (typeof ADMIN_VIEW_INTEGERS)[number]> & Record<(typeof ADMIN_VIEW_INTEGERS)[number], string | null>;

// The admin view's fields that are no column of their name, or read otherwise; the others are their columns' values.
const ADMIN_VIEW_READS: { [F in keyof AdminClientDto]?: (client: AdminViewRow, today: string) => AdminClientDto[F] } = {
  clientId: (client) => client.id,
  updatedAt: (client) => (client.updatedAt ?? client.createdAt).toISOString(),
  // Shown while there is a previous key; its digest itself never is.
  previousSecretKeyLastUsedAt: (client) => (client.previousSecretKeyDigest === null ? null : isoOrNull(client.previousSecretKeyLastUsedAt)),
  previousSecretKeyLastUsedFrom: (client) => (client.previousSecretKeyDigest === null ? null : client.previousSecretKeyLastUsedFrom),
  previousKeyExpiresAt: (client) => (client.previousSecretKeyDigest === null ? null : isoOrNull(client.previousKeyExpiresAt)),
  dailySpendLimit: (client) => (client.dailySpendLimitMicros === null ? null : amountOf(BigInt(client.dailySpendLimitMicros))),
  spentToday: (client, today) => (client.usageDay === today ? amountOf(BigInt(client.spentTodayMicros ?? 0)) : 0),
  sentToday: (client, today) => (client.usageDay === today ? Number(client.sentToday ?? 0) : 0),
};

const KEYS_SELECTION = [
  'c.id',
  'c.isActive',
  'c.secretKeyDigest',
  'c.previousSecretKeyDigest',
  'c.secretKeyLastUsedAt',
  'c.secretKeyLastUsedFrom',
  'c.scopedKeyDigests',
];

/** `!` escapes LIKE's wildcards in both dialects. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[!%_]/g, (character) => `!${character}`)}%`;
}

@Injectable()
export class ClientRepository {
  private readonly insertSql: string;
  private readonly names: SqlNames<Client>;
  private readonly fields: ClientFields;
  private readonly readAdminView: (client: AdminViewRow, today: string) => AdminClientDto;

  constructor(
    private readonly transactions: Transactions,
    private readonly scripts: WriteScripts,
    private readonly auditLog: AuditLog,
    private readonly clock: Clock,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const client = new SqlNames(dataSource, Client);
    this.names = client;
    this.fields = new ClientFields(dataSource);
    const { inserted } = this.fields;
    this.insertSql = `INSERT INTO ${client.table} (${client.columns(inserted)}) VALUES (${inserted.map(() => '?').join(', ')})`;
    this.readAdminView = this.fields.reader(ADMIN_CLIENT_FIELDS, ADMIN_VIEW_READS);
  }

  private get manager(): EntityManager {
    return this.transactions.manager;
  }

  // The client as stored: the request's fields, each other column's default.
  async insert(request: AddClientDto, secretKeyDigest: string, origin: ChangeOrigin): Promise<NewClient> {
    const client = this.fields.added(request, { secretKeyDigest, createdAt: new Date() });
    const audit = this.auditLog.statement({ action: 'client.created', origin, clientId: JUST_INSERTED });
    await this.scripts.run([{ sql: this.insertSql, values: this.fields.insertValues(client) }, audit]);
    return client;
  }

  async list(
    afterId: number,
    limit: number,
    appNamePrefix?: string,
    previousKeyUsedSince?: { since: Date; used: boolean },
  ): Promise<AdminClientDto[]> {
    const query = this.clients().where('c.id > :afterId', { afterId });
    if (appNamePrefix !== undefined) query.andWhere("c.appName LIKE :prefix ESCAPE '!'", { prefix: likePrefix(appNamePrefix) });
    if (previousKeyUsedSince !== undefined) {
      const inUse = 'c.previousSecretKeyDigest IS NOT NULL AND c.previousSecretKeyLastUsedAt >= :since';
      query.andWhere(previousKeyUsedSince.used ? inUse : `NOT (${inUse} AND c.previousSecretKeyLastUsedAt IS NOT NULL)`, {
        since: previousKeyUsedSince.since,
      });
    }
    return this.adminViews(query.orderBy('c.id').limit(limit + 1));
  }

  async findById(clientId: number): Promise<AdminClientDto | null> {
    const [found] = await this.adminViews(this.clients().where({ id: clientId }));
    return found ?? null;
  }

  // Locked on MySQL; SQLite runs one transaction at a time anyway.
  async lockKeys(clientId: number): Promise<ClientKeys | null> {
    const query = this.clients().select(KEYS_SELECTION).where({ id: clientId });
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
      scopedKeyDigests: client.scopedKeyDigests ?? [],
    };
  }

  // Answers the columns it wrote, as rotateKey does: what the change drops from get-client's cache is decided from them.
  async update(clientId: number, changes: UpdateClientDto, audit: AuditEntry[]): Promise<string[]> {
    const { dailySpendLimit } = changes;
    const twin =
      dailySpendLimit === undefined
        ? {}
        : { dailySpendLimitMicros: dailySpendLimit === null ? null : microsOf(dailySpendLimit).toString() };
    const written = await this.updateRow(clientId, { ...changes, ...twin, updatedAt: new Date() });
    for (const entry of audit) await this.auditLog.record(entry);
    return written;
  }

  async delete(clientId: number, origin: ChangeOrigin): Promise<void> {
    await this.manager.delete(SmsConfig, { clientId });
    await this.manager.delete(ClientKey, { clientId });
    await this.manager.delete(Client, { id: clientId });
    await this.auditLog.record({ action: 'client.deleted', origin, clientId });
  }

  // A null expiry revokes the current key at once; an earlier previous key ends here.
  async rotateKey(keys: ClientKeys, newDigest: string, previousKeyExpiresAt: Date | null, origin: ChangeOrigin): Promise<string[]> {
    const now = new Date();
    const written = await this.updateRow(keys.clientId, {
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
    return written;
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

  private async updateRow(clientId: number, values: Partial<Client>): Promise<string[]> {
    await this.manager.createQueryBuilder().update(Client).set(values).where({ id: clientId }).updateEntity(false).execute();
    return Object.keys(values);
  }

  private async adminViews(query: SelectQueryBuilder<Client>): Promise<AdminClientDto[]> {
    const today = this.clock.today();
    return (await this.names.withIntegerTexts(query, 'c', ADMIN_VIEW_INTEGERS)).map((client) => this.readAdminView(client, today));
  }

  // Every column: the admin view reads any a field of its DTO is named after.
  private clients() {
    return this.manager.getRepository(Client).createQueryBuilder('c');
  }
}

function isoOrNull(time: Date | null): string | null {
  return time?.toISOString() ?? null;
}
