import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { AuditLog } from '../audit/audit.repository';
import { ChangeOrigin } from '../auth/actor';
import { SqlNames } from '../database/sql-names';
import { epochMsOf } from '../database/timestamps';
import { ScriptStatement, Transactions } from '../database/transactions';
import { DestinationPriceRepository } from './destination-price.repository';
import { RequestedDestinationPrice } from './dto/destination-price.dto';
import { RESOLVED_SMS_CONFIG_FIELDS, ResolvedSmsConfigDto } from './dto/sms-config-lifecycle.dto';
import { SMS_CONFIG_LIST_FIELDS, SMS_CONFIG_VIEW_FIELDS, SmsConfigDto, StoredSmsConfigView } from './dto/sms-config-response.dto';
import { SmsConfigBudgetRepository } from './sms-config-budget.repository';
import { SmsConfigLimitReachedException, answerBytesOf } from './sms-config-limit';
import { SmsConfig } from './sms-config.entity';
import { AmountTwin, NewSmsConfig, SmsConfigChanges, SmsConfigFields, SmsConfigRow } from './sms-config-fields';
import { ISSUING_KEY_TAG_LENGTH, TokenStanding } from './verify-api-key-validity';

export interface SealedSecrets {
  smsConfigId: number;
  clientId: number;
  passwordSealed: string | null;
  apiKeySealed: string | null;
  credentialVersion: number;
}

// What resolve's rules read, shown or not: the token's configuration and client, and the hosts approval judges.
const RESOLUTION_RULE_FIELDS = ['smsConfigId', 'clientId', 'isActive', 'smsApi', 'providerUrl', 'balanceUrl'];

export interface SmsConfigToResolve
  extends
    Omit<ResolvedSmsConfigDto, 'password' | 'apiKey' | 'destinationApproved'>,
    SealedSecrets,
    Omit<TokenStanding, 'isActive' | 'credentialVersion'> {
  clientIsActive: boolean;
}

const SEALED_PROPERTIES = ['s.id', 's.clientId', 's.passwordSealed', 's.apiKeySealed', 's.credentialVersion'];

// Named, not imported: client/ reads sms-config/, never the other way.
interface ClientStanding {
  id: number;
  isActive: boolean;
  secretKeyDigest: string;
  previousSecretKeyDigest: string | null;
  previousKeyExpiresAt: Date | null;
  secretKeyRotatedAt: Date | null;
}

interface ScopedKeyStanding {
  id: number;
  clientId: number;
  keyDigest: string;
  expiresAt: Date | null;
}

@Injectable()
export class SmsConfigRepository {
  // Plain SQL: on the dispatcher's hot path the query builder's join cost 5x the CPU.
  private readonly toResolveSql: string;
  private readonly names: SqlNames<SmsConfig>;
  private readonly listed: Selection<SmsConfigDto>;
  private readonly viewed: Selection<Omit<StoredSmsConfigView, 'destinationPrices'>>;
  private readonly readToResolve: (row: SmsConfigRow) => Omit<ResolvedSmsConfigDto, 'password' | 'apiKey' | 'destinationApproved'>;
  private readonly fields: SmsConfigFields;

  constructor(
    private readonly transactions: Transactions,
    private readonly auditLog: AuditLog,
    private readonly destinationPrices: DestinationPriceRepository,
    private readonly budget: SmsConfigBudgetRepository,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const fields = new SmsConfigFields(dataSource);
    this.fields = fields;
    const client = new SqlNames<ClientStanding>(dataSource, 'Client');
    const scopedKey = new SqlNames<ScopedKeyStanding>(dataSource, 'ClientKey');
    const smsConfig = new SqlNames(dataSource, SmsConfig);
    this.names = smsConfig;
    this.listed = selectionOf(fields, SMS_CONFIG_LIST_FIELDS);
    this.viewed = selectionOf(fields, SMS_CONFIG_VIEW_FIELDS);
    const toResolveFields = [...new Set([...fields.storedFieldsOf(RESOLVED_SMS_CONFIG_FIELDS), ...RESOLUTION_RULE_FIELDS])];
    this.readToResolve = fields.reader(toResolveFields);
    const toResolve = fields.columnsOf(toResolveFields);
    this.toResolveSql = `SELECT ${smsConfig.selectList('s', [
      ...new Set<keyof SmsConfig>([...toResolve.columns, 'passwordSealed', 'apiKeySealed', 'credentialVersion']),
    ])}, ${smsConfig.integerTextList('s', toResolve.twins)}, ${client.selectList('c', [
      ['isActive', 'clientIsActive'],
      ['secretKeyDigest', 'currentKeyDigest'],
      ['previousSecretKeyDigest', 'previousKeyDigest'],
      'previousKeyExpiresAt',
      'secretKeyRotatedAt',
    ])}, ${scopedKey.selectList('k', [
      ['id', 'scopedKeyId'],
      ['expiresAt', 'scopedKeyExpiresAt'],
    ])}
      FROM ${smsConfig.table} s JOIN ${client.table} c ON ${client.column('id', 'c')} = ${smsConfig.column('clientId', 's')}
      LEFT JOIN ${scopedKey.table} k ON ${scopedKey.column('clientId', 'k')} = ${client.column('id', 'c')}
        AND SUBSTR(${scopedKey.column('keyDigest', 'k')}, 1, ${ISSUING_KEY_TAG_LENGTH}) = ?
      WHERE ${smsConfig.column('id', 's')} = ? AND ${smsConfig.column('clientId', 's')} = ?`;
  }

  private get manager(): EntityManager {
    return this.transactions.manager;
  }

  // `also`: what the add ends its transaction with (its lines in the change sequence).
  async add(
    smsConfig: NewSmsConfig,
    origin: ChangeOrigin,
    destinationPrices: readonly RequestedDestinationPrice[] = [],
    also: ScriptStatement[] = [],
  ): Promise<number> {
    const part = answerBytesOf(smsConfig);
    // Most adds fit under the over-estimate: one round trip. The others, and those with prices, count exactly, under the client's lock.
    if (destinationPrices.length === 0) {
      const added = await this.budget.insertIfRoom(smsConfig, origin, part, true, also);
      if (added !== undefined) return added;
    }
    return this.transactions.run(async () => {
      await this.lockOwner(smsConfig.clientId);
      await this.destinationPrices.assertRoomFor(smsConfig.clientId, destinationPrices.length);
      await this.budget.assertRoomFor(smsConfig.clientId, part);
      const smsConfigId = (await this.budget.insertIfRoom(smsConfig, origin, part, false, also)) ?? throwLimitReached();
      if (destinationPrices.length > 0) await this.destinationPrices.replace(smsConfigId, smsConfig.clientId, destinationPrices);
      return smsConfigId;
    });
  }

  async findOne(smsConfigId: number, clientId: number): Promise<StoredSmsConfigView | null> {
    const [found] = await this.select(this.viewed, (query) => query.where({ id: smsConfigId, clientId }));
    return found === undefined ? null : { ...found, destinationPrices: await this.destinationPrices.listFor(smsConfigId) };
  }

  findSealed(smsConfigId: number, clientId: number): Promise<SealedSecrets | null> {
    return this.sealedSecrets(smsConfigId, clientId, false);
  }

  // Every change of a client takes this lock first, so its audit entries are numbered in commit order (docs/events.md).
  async lockOwner(clientId: number): Promise<void> {
    if (this.transactions.dialect !== 'mysql') return;
    await this.manager
      .createQueryBuilder('Client', 'c')
      .select('c.id')
      .where('c.id = :clientId', { clientId })
      .setLock('pessimistic_write')
      .getRawOne();
  }

  lockSealed(smsConfigId: number, clientId: number): Promise<SealedSecrets | null> {
    return this.sealedSecrets(smsConfigId, clientId, true);
  }

  private async sealedSecrets(smsConfigId: number, clientId: number, lock: boolean): Promise<SealedSecrets | null> {
    const query = this.smsConfigs(SEALED_PROPERTIES).where({ id: smsConfigId, clientId });
    if (lock && this.transactions.dialect === 'mysql') query.setLock('pessimistic_write');
    const found = await query.getOne();
    return found === null ? null : toSealedSecrets(found);
  }

  // issuingKeyTag: the token's, to find the scoped key it was issued under, if it still exists.
  async findToResolve(smsConfigId: number, clientId: number, issuingKeyTag: string | null): Promise<SmsConfigToResolve | null> {
    type Row = SmsConfigRow & {
      passwordSealed: string | null;
      apiKeySealed: string | null;
      credentialVersion: number | string;
      clientIsActive: number | boolean;
      currentKeyDigest: string;
      previousKeyDigest: string | null;
      previousKeyExpiresAt: Date | string | null;
      secretKeyRotatedAt: Date | string | null;
      scopedKeyId: number | string | null;
      scopedKeyExpiresAt: Date | string | null;
    };
    const [row] = await this.transactions.sql<Row>(this.toResolveSql, [issuingKeyTag ?? '', smsConfigId, clientId]);
    if (row === undefined) return null;
    return {
      ...this.readToResolve(row),
      clientIsActive: Boolean(Number(row.clientIsActive)),
      passwordSealed: row.passwordSealed,
      apiKeySealed: row.apiKeySealed,
      credentialVersion: Number(row.credentialVersion),
      currentKeyDigest: row.currentKeyDigest,
      previousKeyDigest: row.previousKeyDigest,
      previousKeyExpiresAt: epochMsOf(row.previousKeyExpiresAt),
      secretKeyRotatedAt: epochMsOf(row.secretKeyRotatedAt),
      issuingScopedKey: row.scopedKeyId === null ? null : { expiresAt: epochMsOf(row.scopedKeyExpiresAt) },
    };
  }

  // Inside the change's transaction, after lockOwner(); null or [] as destinationPrices removes them.
  async update(
    smsConfigId: number,
    clientId: number,
    changes: SmsConfigChanges,
    origin: ChangeOrigin,
    {
      credentialVersion,
      destinationPrices,
    }: { credentialVersion?: number; destinationPrices?: readonly RequestedDestinationPrice[] | null } = {},
  ): Promise<void> {
    if (destinationPrices !== undefined) {
      await this.destinationPrices.assertRoomFor(clientId, destinationPrices?.length ?? 0, smsConfigId);
      await this.destinationPrices.replace(smsConfigId, clientId, destinationPrices ?? []);
    }
    await this.manager
      .createQueryBuilder()
      .update(SmsConfig)
      .set({
        ...this.fields.changedColumns(changes),
        ...(credentialVersion === undefined ? {} : { credentialVersion }),
        updatedAt: new Date(),
      })
      .where({ id: smsConfigId })
      .updateEntity(false)
      .execute();
    const fields = Object.keys(changes);
    const changed = destinationPrices === undefined ? fields : [...fields, 'destinationPrices'];
    await this.auditLog.record({ action: 'sms-config.updated', origin, clientId, smsConfigId, changed });
  }

  async delete(smsConfigId: number, clientId: number, origin: ChangeOrigin): Promise<boolean> {
    return this.transactions.run(async (manager) => {
      await this.lockOwner(clientId);
      const { affected } = await manager.delete(SmsConfig, { id: smsConfigId, clientId });
      if (affected === 0) return false;
      await this.budget.countOut(clientId);
      await this.auditLog.record({ action: 'sms-config.deleted', origin, clientId, smsConfigId });
      return true;
    });
  }

  async recordResolution(smsConfigId: number, clientId: number, origin: ChangeOrigin): Promise<void> {
    await this.auditLog.record({ action: 'sms-config.credentials-resolved', origin, clientId, smsConfigId });
  }

  listByClient(clientId: number): Promise<SmsConfigDto[]> {
    return this.select(this.listed, (query) => query.where({ clientId }).orderBy('s.id'));
  }

  private async select<T>(
    selection: Selection<T>,
    filter: (query: SelectQueryBuilder<SmsConfig>) => SelectQueryBuilder<SmsConfig>,
  ): Promise<T[]> {
    const query = filter(this.smsConfigs(selection.columns));
    return (await this.names.withIntegerTexts(query, 's', selection.twins)).map(selection.read);
  }

  private smsConfigs(selection: string[]) {
    return this.manager.getRepository(SmsConfig).createQueryBuilder('s').select(selection);
  }
}

// An answer's columns (the id always: the entity is built from it), the twins read as text, and how a row reads as it.
interface Selection<T> {
  columns: string[];
  twins: AmountTwin[];
  read: (row: SmsConfigRow) => T;
}

function selectionOf<T>(fields: SmsConfigFields, answerFields: readonly string[]): Selection<T> {
  const stored = fields.storedFieldsOf(answerFields);
  const { columns, twins } = fields.columnsOf(stored);
  return { columns: [...new Set(['id', ...columns])].map((column) => `s.${column}`), twins, read: fields.reader(stored) };
}

function throwLimitReached(): never {
  throw new SmsConfigLimitReachedException();
}

function toSealedSecrets(smsConfig: SmsConfig): SealedSecrets {
  return {
    smsConfigId: smsConfig.id,
    clientId: smsConfig.clientId,
    passwordSealed: smsConfig.passwordSealed,
    apiKeySealed: smsConfig.apiKeySealed,
    credentialVersion: smsConfig.credentialVersion,
  };
}
