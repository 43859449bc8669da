import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { JUST_INSERTED } from '../audit/audit-entry';
import { AuditLog } from '../audit/audit.repository';
import { ChangeOrigin } from '../auth/actor';
import { retryDeadlockVictims } from '../database/deadlock-retry';
import { microsOf } from '../database/exact-decimal';
import { SqlNames } from '../database/sql-names';
import { epochMsOf, sqlTimestamp } from '../database/timestamps';
import { Transactions, SqlValue } from '../database/transactions';
import { WriteScripts } from '../database/write-scripts';
import { DestinationPriceRepository } from './destination-price.repository';
import { RequestedDestinationPrice } from './dto/destination-price.dto';
import { RESOLVED_SMS_CONFIG_FIELDS } from './dto/sms-config-lifecycle.dto';
import { SMS_CONFIG_LIST_FIELDS, SMS_CONFIG_VIEW_FIELDS, SmsConfigDto, StoredSmsConfigView } from './dto/sms-config-response.dto';
import {
  ANSWER_BYTES_BESIDE_TEXT,
  ANSWER_TEXT_PROPERTIES,
  AnswerTexts,
  MAX_SMS_CONFIGS_PER_CLIENT,
  MAX_SMS_CONFIG_ANSWER_BYTES,
  SmsConfigAnswerBudgetExceededException,
  SmsConfigLimitReachedException,
  answerBytesOf,
  answerBytesOfAll,
  widestAnswerBytes,
} from './sms-config-limit';
import { SmsConfig } from './sms-config.entity';
import {
  AMOUNT_TWINS,
  AmountTwin,
  StoredSmsConfigField,
  StoredSmsConfigFields,
  SmsConfigRow,
  columnsOf,
  fieldReader,
  storedFieldsOf,
} from './sms-config-fields';
import { TokenStanding } from './verify-api-key-validity';

type NullableOptional<T> = { [K in keyof T as null extends T[K] ? K : never]?: T[K] } & {
  [K in keyof T as null extends T[K] ? never : K]: T[K];
};

export type NewSmsConfig = NullableOptional<
  Omit<SmsConfig, 'id' | 'client' | 'createdAt' | 'updatedAt' | 'credentialVersion' | 'consecutiveFailures' | 'unhealthyUntil' | AmountTwin>
>;

function twinOf(amount: unknown): string | null {
  return amount === null || amount === undefined ? null : microsOf(amount as number | string).toString();
}

export const CHANGEABLE_SMS_CONFIG_FIELDS = {
  providerName: 'providerName',
  providerUrl: 'providerUrl',
  username: 'username',
  password: 'passwordSealed',
  apiKey: 'apiKeySealed',
  senderId: 'senderId',
  smsType: 'smsType',
  smsApi: 'smsApi',
  balanceUrl: 'balanceUrl',
  balance: 'balance',
  perSmsCost: 'perSmsCost',
  isActive: 'isActive',
  lowBalanceThreshold: 'lowBalanceThreshold',
} as const satisfies Record<string, keyof SmsConfig>;

export type SmsConfigChanges = Partial<Record<keyof typeof CHANGEABLE_SMS_CONFIG_FIELDS, SqlValue>>;

export interface SealedSecrets {
  smsConfigId: number;
  clientId: number;
  passwordSealed: string | null;
  apiKeySealed: string | null;
  credentialVersion: number;
}

const RESOLUTION_RULE_FIELDS = [
  'smsConfigId',
  'clientId',
  'isActive',
  'smsApi',
  'providerUrl',
  'balanceUrl',
] as const satisfies ReadonlyArray<StoredSmsConfigField>;
const RESOLVED_STORED_FIELDS = storedFieldsOf(RESOLVED_SMS_CONFIG_FIELDS);
type ToResolveField = (typeof RESOLVED_STORED_FIELDS)[number] | (typeof RESOLUTION_RULE_FIELDS)[number];

export interface SmsConfigToResolve
  extends Pick<StoredSmsConfigFields, ToResolveField>, SealedSecrets, Omit<TokenStanding, 'isActive' | 'credentialVersion'> {
  clientIsActive: boolean;
}

const ADD_PROPERTIES = [
  'clientId',
  'providerName',
  'providerUrl',
  'username',
  'passwordSealed',
  'apiKeySealed',
  'senderId',
  'smsType',
  'smsApi',
  'balanceUrl',
  'balance',
  'perSmsCost',
  'isActive',
  'lowBalanceThreshold',
  'balanceMicros',
  'perSmsCostMicros',
  'lowBalanceThresholdMicros',
  'createdAt',
] as const satisfies ReadonlyArray<keyof SmsConfig>;

const SEALED_PROPERTIES = ['s.id', 's.clientId', 's.passwordSealed', 's.apiKeySealed', 's.credentialVersion'];

const LISTED_FIELDS = storedFieldsOf(SMS_CONFIG_LIST_FIELDS);
const VIEW_FIELDS = storedFieldsOf(SMS_CONFIG_VIEW_FIELDS);
const TO_RESOLVE_FIELDS = [...new Set<ToResolveField>([...RESOLVED_STORED_FIELDS, ...RESOLUTION_RULE_FIELDS])];
const readListed = fieldReader(LISTED_FIELDS);
const readView = fieldReader(VIEW_FIELDS);
const readToResolve = fieldReader(TO_RESOLVE_FIELDS);

// The id always: the entity is built from it.
function selectionOf(fields: readonly StoredSmsConfigField[]): { selection: string[]; twins: AmountTwin[] } {
  const { columns, twins } = columnsOf(fields);
  return { selection: [...new Set(['id', ...columns])].map((column) => `s.${column}`), twins };
}

const LISTED_SELECTION = selectionOf(LISTED_FIELDS);
const VIEW_SELECTION = selectionOf(VIEW_FIELDS);

// Named, not imported: client/ reads sms-config/, never the other way.
interface ClientCounter {
  id: number;
  smsConfigCount: number;
  isActive: boolean;
  secretKeyDigest: string;
  previousSecretKeyDigest: string | null;
  previousKeyExpiresAt: Date | null;
  secretKeyRotatedAt: Date | null;
}

@Injectable()
export class SmsConfigRepository {
  // The query builder cannot write these; how they count and lock: docs/architecture.md, The data layer.
  private readonly countInSql: string;
  private readonly insertIfCountedSql: string;
  private readonly smsConfigCount: string;
  private readonly widestPart: number;
  // Plain SQL: on the dispatcher's hot path the query builder's join cost 5x the CPU.
  private readonly toResolveSql: string;
  private readonly names: SqlNames<SmsConfig>;

  constructor(
    private readonly transactions: Transactions,
    private readonly scripts: WriteScripts,
    private readonly auditLog: AuditLog,
    private readonly destinationPrices: DestinationPriceRepository,
    @InjectDataSource() dataSource: DataSource,
  ) {
    const client = new SqlNames<ClientCounter>(dataSource, 'Client');
    const smsConfig = new SqlNames(dataSource, SmsConfig);
    this.names = smsConfig;
    this.smsConfigCount = client.column('smsConfigCount');
    const octets = (column: string) => (transactions.dialect === 'mysql' ? `OCTET_LENGTH(${column})` : `length(CAST(${column} AS BLOB))`);
    const answerBound = ANSWER_TEXT_PROPERTIES.map((property) => `6 * COALESCE(${octets(smsConfig.column(property, 's'))}, 0)`).join(' + ');
    // Correlated with the row the UPDATE has locked, so it is read after the lock, and counts what committed before it.
    const storedAnswerBound = `(SELECT COALESCE(SUM(${ANSWER_BYTES_BESIDE_TEXT + 4 * ANSWER_TEXT_PROPERTIES.length} + ${answerBound}), 0) FROM ${smsConfig.table} s WHERE ${smsConfig.column('clientId', 's')} = ${client.table}.${client.column('id')})`;
    const metadata = dataSource.getMetadata(SmsConfig);
    this.widestPart = widestAnswerBytes((property) => Number(metadata.findColumnWithPropertyName(property)!.length));
    // Reading the stored parts takes gap locks that deadlocked concurrent adds; a client with so few that even the widest fit skips it.
    const fitsUnread = `${this.smsConfigCount} <= ?`;
    this.countInSql = `UPDATE ${client.table} SET ${this.smsConfigCount} = ${this.smsConfigCount} + 1 WHERE ${client.column('id')} = ? AND ${this.smsConfigCount} < ? AND (? IS NULL OR ${fitsUnread} OR ${storedAnswerBound} + ? <= ?)`;
    const placeholders = ADD_PROPERTIES.map(() => '?').join(', ');
    const changedOne = transactions.dialect === 'mysql' ? 'FROM DUAL WHERE ROW_COUNT() = 1' : 'WHERE changes() = 1';
    this.insertIfCountedSql = `INSERT INTO ${smsConfig.table} (${smsConfig.columns(ADD_PROPERTIES)}) SELECT ${placeholders} ${changedOne}`;
    const toResolve = columnsOf(TO_RESOLVE_FIELDS);
    this.toResolveSql = `SELECT ${smsConfig.selectList('s', [
      ...new Set<keyof SmsConfig>([...toResolve.columns, 'passwordSealed', 'apiKeySealed', 'credentialVersion']),
    ])}, ${smsConfig.integerTextList('s', toResolve.twins)}, ${client.selectList('c', [
      ['isActive', 'clientIsActive'],
      ['secretKeyDigest', 'currentKeyDigest'],
      ['previousSecretKeyDigest', 'previousKeyDigest'],
      'previousKeyExpiresAt',
      'secretKeyRotatedAt',
    ])}
      FROM ${smsConfig.table} s JOIN ${client.table} c ON ${client.column('id', 'c')} = ${smsConfig.column('clientId', 's')}
      WHERE ${smsConfig.column('id', 's')} = ? AND ${smsConfig.column('clientId', 's')} = ?`;
  }

  private get manager(): EntityManager {
    return this.transactions.manager;
  }

  async add(smsConfig: NewSmsConfig, origin: ChangeOrigin, destinationPrices: readonly RequestedDestinationPrice[] = []): Promise<number> {
    const part = answerBytesOf(smsConfig);
    // Most adds fit under the over-estimate: one round trip. The others, and those with prices, count exactly, under the client's lock.
    if (destinationPrices.length === 0) {
      const added = await this.addIfRoom(smsConfig, origin, part, true);
      if (added !== undefined) return added;
    }
    return this.transactions.run(async () => {
      await this.lockOwner(smsConfig.clientId);
      await this.destinationPrices.assertRoomFor(smsConfig.clientId, destinationPrices.length);
      const stored = await this.answerPartsOf(smsConfig.clientId);
      if (stored.length >= MAX_SMS_CONFIGS_PER_CLIENT) throw new SmsConfigLimitReachedException();
      if (answerBytesOfAll([...stored.map(({ bytes }) => bytes), part]) > MAX_SMS_CONFIG_ANSWER_BYTES) {
        throw new SmsConfigAnswerBudgetExceededException();
      }
      const smsConfigId = (await this.addIfRoom(smsConfig, origin, part, false)) ?? throwLimitReached();
      if (destinationPrices.length > 0) await this.destinationPrices.replace(smsConfigId, smsConfig.clientId, destinationPrices);
      return smsConfigId;
    });
  }

  // Inside the change's transaction, after lockOwner(); a change that does not grow its part is let through.
  async assertAnswerFits(smsConfigId: number, clientId: number, changes: SmsConfigChanges): Promise<void> {
    const changed = ANSWER_TEXT_PROPERTIES.filter((property) => changes[property] !== undefined);
    if (changed.length === 0) return;
    const stored = await this.answerPartsOf(clientId);
    const before = stored.find((part) => part.smsConfigId === smsConfigId);
    if (before === undefined) return;
    const after = answerBytesOf({ ...before.texts, ...Object.fromEntries(changed.map((property) => [property, changes[property]])) });
    if (after <= before.bytes) return;
    const total = answerBytesOfAll(stored.map((part) => (part === before ? after : part.bytes)));
    if (total > MAX_SMS_CONFIG_ANSWER_BYTES) throw new SmsConfigAnswerBudgetExceededException();
  }

  private async answerPartsOf(clientId: number): Promise<Array<{ smsConfigId: number; texts: AnswerTexts; bytes: number }>> {
    const found = await this.smsConfigs(['s.id', ...ANSWER_TEXT_PROPERTIES.map((property) => `s.${property}`)])
      .where({ clientId })
      .getMany();
    return found.map((texts) => ({ smsConfigId: texts.id, texts, bytes: answerBytesOf(texts) }));
  }

  private async addIfRoom(smsConfig: NewSmsConfig, origin: ChangeOrigin, part: number, bounded: boolean): Promise<number | undefined> {
    const twinned = Object.entries(AMOUNT_TWINS).map(([amount, twin]) => [twin, twinOf(smsConfig[amount as keyof typeof AMOUNT_TWINS])]);
    const twins = Object.fromEntries(twinned) as Record<AmountTwin, string | null>;
    const values: SqlValue[] = ADD_PROPERTIES.map((property) => {
      if (property === 'createdAt') return sqlTimestamp(new Date());
      const value = property in twins ? twins[property as AmountTwin] : (smsConfig[property as keyof NewSmsConfig] ?? null);
      return typeof value === 'boolean' ? Number(value) : value;
    });
    const audit = this.auditLog.statement({
      action: 'sms-config.created',
      origin,
      clientId: smsConfig.clientId,
      smsConfigId: JUST_INSERTED,
    });
    const add = () =>
      this.scripts.run([
        {
          sql: this.countInSql,
          values: [
            smsConfig.clientId,
            MAX_SMS_CONFIGS_PER_CLIENT,
            bounded ? 1 : null,
            Math.floor((MAX_SMS_CONFIG_ANSWER_BYTES - 1 - part) / this.widestPart),
            part,
            MAX_SMS_CONFIG_ANSWER_BYTES - 1,
          ],
        },
        { sql: this.insertIfCountedSql, values },
        audit,
      ]);
    // Inside a larger transaction (Idempotency-Key), a deadlock rolls all of it back: it is answered, not retried here.
    const [countedIn, inserted] = await (this.transactions.active ? add() : retryDeadlockVictims(add));
    return countedIn.affectedRows === 0 || inserted.affectedRows === 0 ? undefined : inserted.insertId;
  }

  async findOne(smsConfigId: number, clientId: number): Promise<StoredSmsConfigView | null> {
    const [found] = await this.withTwins(
      this.smsConfigs(VIEW_SELECTION.selection).where({ id: smsConfigId, clientId }),
      VIEW_SELECTION.twins,
    );
    return found === undefined ? null : { ...readView(found), destinationPrices: await this.destinationPrices.listFor(smsConfigId) };
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

  async findToResolve(smsConfigId: number, clientId: number): Promise<SmsConfigToResolve | null> {
    type Row = SmsConfigRow & {
      passwordSealed: string | null;
      apiKeySealed: string | null;
      credentialVersion: number | string;
      clientIsActive: number | boolean;
      currentKeyDigest: string;
      previousKeyDigest: string | null;
      previousKeyExpiresAt: Date | string | null;
      secretKeyRotatedAt: Date | string | null;
    };
    const [row] = await this.transactions.sql<Row>(this.toResolveSql, [smsConfigId, clientId]);
    if (row === undefined) return null;
    return {
      ...readToResolve(row),
      clientIsActive: Boolean(Number(row.clientIsActive)),
      passwordSealed: row.passwordSealed,
      apiKeySealed: row.apiKeySealed,
      credentialVersion: Number(row.credentialVersion),
      currentKeyDigest: row.currentKeyDigest,
      previousKeyDigest: row.previousKeyDigest,
      previousKeyExpiresAt: epochMsOf(row.previousKeyExpiresAt),
      secretKeyRotatedAt: epochMsOf(row.secretKeyRotatedAt),
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
    const fields = Object.keys(changes) as Array<keyof SmsConfigChanges>;
    if (destinationPrices !== undefined) {
      await this.destinationPrices.assertRoomFor(clientId, destinationPrices?.length ?? 0, smsConfigId);
      await this.destinationPrices.replace(smsConfigId, clientId, destinationPrices ?? []);
    }
    const values = Object.fromEntries(
      fields.flatMap((field) => {
        const column: Array<[string, SqlValue | undefined]> = [[CHANGEABLE_SMS_CONFIG_FIELDS[field], changes[field]]];
        return field in AMOUNT_TWINS ? [...column, [AMOUNT_TWINS[field as keyof typeof AMOUNT_TWINS], twinOf(changes[field])]] : column;
      }),
    );
    await this.manager
      .createQueryBuilder()
      .update(SmsConfig)
      .set({ ...values, ...(credentialVersion === undefined ? {} : { credentialVersion }), updatedAt: new Date() })
      .where({ id: smsConfigId })
      .updateEntity(false)
      .execute();
    const changed = destinationPrices === undefined ? fields : [...fields, 'destinationPrices'];
    await this.auditLog.record({ action: 'sms-config.updated', origin, clientId, smsConfigId, changed });
  }

  async delete(smsConfigId: number, clientId: number, origin: ChangeOrigin): Promise<boolean> {
    return this.transactions.run(async (manager) => {
      await this.lockOwner(clientId);
      const { affected } = await manager.delete(SmsConfig, { id: smsConfigId, clientId });
      if (affected === 0) return false;
      await manager
        .createQueryBuilder()
        .update('Client')
        .set({ smsConfigCount: () => `${this.smsConfigCount} - 1` })
        .where('id = :clientId', { clientId })
        .updateEntity(false)
        .execute();
      await this.auditLog.record({ action: 'sms-config.deleted', origin, clientId, smsConfigId });
      return true;
    });
  }

  async recordResolution(smsConfigId: number, clientId: number, origin: ChangeOrigin): Promise<void> {
    await this.auditLog.record({ action: 'sms-config.credentials-resolved', origin, clientId, smsConfigId });
  }

  async listByClient(clientId: number): Promise<SmsConfigDto[]> {
    const query = this.smsConfigs(LISTED_SELECTION.selection).where({ clientId }).orderBy('s.id');
    return (await this.withTwins(query, LISTED_SELECTION.twins)).map(readListed);
  }

  private smsConfigs(selection: string[]) {
    return this.manager.getRepository(SmsConfig).createQueryBuilder('s').select(selection);
  }

  private withTwins<T extends AmountTwin>(query: SelectQueryBuilder<SmsConfig>, twins: readonly T[]) {
    return this.names.withIntegerTexts(query, 's', twins);
  }
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
