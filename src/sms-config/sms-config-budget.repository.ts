import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JUST_INSERTED } from '../audit/audit-entry';
import { AuditLog } from '../audit/audit.repository';
import { ChangeOrigin } from '../auth/actor';
import { retryDeadlockVictims } from '../database/deadlock-retry';
import { SqlNames } from '../database/sql-names';
import { sqlTimestamp } from '../database/timestamps';
import { ScriptStatement, Transactions } from '../database/transactions';
import { WriteScripts } from '../database/write-scripts';
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
import { NewSmsConfig, SmsConfigChanges, SmsConfigFields } from './sms-config-fields';
import { SmsConfig } from './sms-config.entity';

// Named, not imported: client/ reads sms-config/, never the other way.
interface ClientCounter {
  id: number;
  smsConfigCount: number;
}

/** A client's configurations counted against the 100 and the 256 KiB of get-client answer, and the add that counts in. */
@Injectable()
export class SmsConfigBudgetRepository {
  // The query builder cannot write these; how they count and lock: docs/architecture.md, The data layer.
  private readonly countInSql: string;
  private readonly insertIfCountedSql: string;
  private readonly widestPart: number;
  private readonly count: string;
  private readonly fields: SmsConfigFields;

  constructor(
    private readonly transactions: Transactions,
    private readonly scripts: WriteScripts,
    private readonly auditLog: AuditLog,
    @InjectDataSource() dataSource: DataSource,
  ) {
    this.fields = new SmsConfigFields(dataSource);
    const client = new SqlNames<ClientCounter>(dataSource, 'Client');
    const smsConfig = new SqlNames(dataSource, SmsConfig);
    const count = client.column('smsConfigCount');
    this.count = count;
    const octets = (column: string) => (transactions.dialect === 'mysql' ? `OCTET_LENGTH(${column})` : `length(CAST(${column} AS BLOB))`);
    const answerBound = ANSWER_TEXT_PROPERTIES.map((property) => `6 * COALESCE(${octets(smsConfig.column(property, 's'))}, 0)`).join(' + ');
    // Correlated with the row the UPDATE has locked, so it is read after the lock, and counts what committed before it.
    const storedAnswerBound = `(SELECT COALESCE(SUM(${ANSWER_BYTES_BESIDE_TEXT + 4 * ANSWER_TEXT_PROPERTIES.length} + ${answerBound}), 0) FROM ${smsConfig.table} s WHERE ${smsConfig.column('clientId', 's')} = ${client.table}.${client.column('id')})`;
    const metadata = dataSource.getMetadata(SmsConfig);
    this.widestPart = widestAnswerBytes((property) => Number(metadata.findColumnWithPropertyName(property)!.length));
    // Reading the stored parts takes gap locks that deadlocked concurrent adds; a client with so few that even the widest fit skips it.
    const fitsUnread = `${count} <= ?`;
    this.countInSql = `UPDATE ${client.table} SET ${count} = ${count} + 1 WHERE ${client.column('id')} = ? AND ${count} < ? AND (? IS NULL OR ${fitsUnread} OR ${storedAnswerBound} + ? <= ?)`;
    const added = ['clientId', ...this.fields.written, 'createdAt'] as const;
    const changedOne = transactions.dialect === 'mysql' ? 'FROM DUAL WHERE ROW_COUNT() = 1' : 'WHERE changes() = 1';
    this.insertIfCountedSql = `INSERT INTO ${smsConfig.table} (${smsConfig.columns(added)}) SELECT ${added.map(() => '?').join(', ')} ${changedOne}`;
  }

  /**
   * Counts the configuration in and inserts it with its audit entry, in one round trip: under the over-estimate of the
   * stored answer (`bounded`), or under the limit alone (after `assertRoomFor`). Undefined when it did not count in.
   */
  // `also`: what the change ends its transaction with (its lines in the change sequence: WriteScripts.run's `last`).
  async insertIfRoom(
    smsConfig: NewSmsConfig,
    origin: ChangeOrigin,
    part: number,
    bounded: boolean,
    also: ScriptStatement[] = [],
  ): Promise<number | undefined> {
    const values = [smsConfig.clientId, ...this.fields.addValues(smsConfig), sqlTimestamp(new Date())];
    const audit = this.auditLog.statement({
      action: 'sms-config.created',
      origin,
      clientId: smsConfig.clientId,
      smsConfigId: JUST_INSERTED,
    });
    const counted = [
      smsConfig.clientId,
      MAX_SMS_CONFIGS_PER_CLIENT,
      bounded ? 1 : null,
      Math.floor((MAX_SMS_CONFIG_ANSWER_BYTES - 1 - part) / this.widestPart),
      part,
      MAX_SMS_CONFIG_ANSWER_BYTES - 1,
    ];
    const add = () => this.scripts.run([{ sql: this.countInSql, values: counted }, { sql: this.insertIfCountedSql, values }, audit], also);
    // Inside a larger transaction (Idempotency-Key), a deadlock rolls all of it back: it is answered, not retried here.
    const [countedIn, inserted] = await (this.transactions.active ? add() : retryDeadlockVictims(add));
    return countedIn.affectedRows === 0 || inserted.affectedRows === 0 ? undefined : inserted.insertId;
  }

  // Inside the add's transaction, after lockOwner(): the exact count, read with the stored parts.
  async assertRoomFor(clientId: number, part: number): Promise<void> {
    const stored = await this.answerPartsOf(clientId);
    if (stored.length >= MAX_SMS_CONFIGS_PER_CLIENT) throw new SmsConfigLimitReachedException();
    if (answerBytesOfAll([...stored.map(({ bytes }) => bytes), part]) > MAX_SMS_CONFIG_ANSWER_BYTES) {
      throw new SmsConfigAnswerBudgetExceededException();
    }
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

  // Inside the delete's transaction, after lockOwner().
  async countOut(clientId: number): Promise<void> {
    await this.transactions.manager
      .createQueryBuilder()
      .update('Client')
      .set({ smsConfigCount: () => `${this.count} - 1` })
      .where('id = :clientId', { clientId })
      .updateEntity(false)
      .execute();
  }

  private async answerPartsOf(clientId: number): Promise<Array<{ smsConfigId: number; texts: AnswerTexts; bytes: number }>> {
    const found = await this.transactions.manager
      .getRepository(SmsConfig)
      .createQueryBuilder('s')
      .select(['s.id', ...ANSWER_TEXT_PROPERTIES.map((property) => `s.${property}`)])
      .where({ clientId })
      .getMany();
    return found.map((texts) => ({ smsConfigId: texts.id, texts, bytes: answerBytesOf(texts) }));
  }
}
