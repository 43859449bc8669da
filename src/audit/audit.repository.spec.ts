import { valuesByColumn } from '../../test/helpers/statement-values';
import { adminActor } from '../auth/actor';
import { DataSource } from 'typeorm';
import { mysqlMetadataOnly } from '../entities';
import { Transactions } from '../database/transactions';
import { AuditLog } from './audit.repository';
import { AUDIT_ACTIONS } from './audit-entry';

/** An executor that records what it is asked, with a transaction whose commit the test decides. */
function executorDouble() {
  const pendingAfterCommit: Array<() => void> = [];
  const sql = {
    dialect: 'mysql',
    sql: jest.fn(() => Promise.resolve([])),
    afterCommit: jest.fn((callback: () => void) => pendingAfterCommit.push(callback)),
  };
  const commit = () => pendingAfterCommit.splice(0).forEach((callback) => callback());
  return { sql: sql as unknown as Transactions, commit };
}

describe('AuditLog as the outbox', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = await mysqlMetadataOnly();
  });
  const origin = { actor: adminActor('ab'.repeat(32)), requestId: 'req-1', callerRequestId: null, sourceAddress: null, userAgent: null };

  it('should write every action but resolutions as unpublished (1), a resolution as nothing to publish (0)', () => {
    const { sql } = executorDouble();
    const auditLog = new AuditLog(sql, dataSource);
    const flags = Object.fromEntries(
      AUDIT_ACTIONS.map((action) => [action, valuesByColumn(auditLog.statement({ action, origin, clientId: 1 })).unpublished]),
    );
    expect(flags).toEqual({
      'client.created': 1,
      'client.daily-limit-reached': 1,
      'client.pumping-suspected': 1,
      'client.pumping-blocked': 1,
      'client.pumping-lifted': 1,
      'client.updated': 1,
      'client.disabled': 1,
      'client.enabled': 1,
      'client.key-created': 1,
      'client.key-deleted': 1,
      'client.deleted': 1,
      'client.secret-key.rotated': 1,
      'client.secret-key.replayed': 0,
      'sms-config.created': 1,
      'sms-config.updated': 1,
      'sms-config.deleted': 1,
      'sms-config.credentials-resolved': 0,
      'sms-config.balance-low': 1,
      'sms-config.balance-set': 1,
      'sms-config.unhealthy': 1,
      'sms-config.healthy': 1,
      'exchange.declared': 1,
      'provider-host.approved': 1,
      'provider-host.removed': 1,
    });
  });

  it('should tell its listeners once the transaction that wrote an event commits, not before, and not for a resolution', async () => {
    const { sql, commit } = executorDouble();
    const auditLog = new AuditLog(sql, dataSource);
    const heard = jest.fn();
    auditLog.onEventsCommitted(heard);
    await auditLog.record({ action: 'client.updated', origin, clientId: 1, changed: ['appUrl'] });
    expect(heard).not.toHaveBeenCalled();
    commit();
    expect(heard).toHaveBeenCalledTimes(1);
    await auditLog.record({ action: 'sms-config.credentials-resolved', origin, clientId: 1, smsConfigId: 2 });
    commit();
    expect(heard).toHaveBeenCalledTimes(1);
    // A script's statement carries the announcement for WriteScripts.run() to make after its commit.
    expect(auditLog.statement({ action: 'client.created', origin, clientId: 1 }).afterCommit).toEqual(expect.any(Function));
    expect(auditLog.statement({ action: 'sms-config.credentials-resolved', origin, clientId: 1 }).afterCommit).toBeUndefined();
  });

  it('should write where the request came from and the details beside the entry, null when there are none', () => {
    const auditLog = new AuditLog(executorDouble().sql, dataSource);
    const traced = { ...origin, sourceAddress: '203.0.113.7', userAgent: 'curl/8.5.0' };
    const approved = auditLog.statement({
      action: 'provider-host.approved',
      origin: traced,
      clientId: null,
      details: { host: 'api.twilio.com' },
    });
    expect(valuesByColumn(approved)).toMatchObject({
      source_address: '203.0.113.7',
      user_agent: 'curl/8.5.0',
      details: '{"host":"api.twilio.com"}',
    });
    const updated = auditLog.statement({ action: 'client.updated', origin, clientId: 1, changed: ['appUrl'] });
    expect(valuesByColumn(updated)).toMatchObject({ source_address: null, user_agent: null, details: null });
  });
});
