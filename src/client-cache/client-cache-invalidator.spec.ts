import { ScriptStatement, Transactions } from '../database/transactions';
import { CacheInvalidationBus, PROVIDER_HOSTS_LINE } from './cache-invalidation.bus';
import { ChangeSequence } from './change-sequence';
import { ClientCache } from './client-cache';
import { CacheChange, ClientCacheInvalidator, GetClientColumns } from './client-cache-invalidator';

const COLUMNS: GetClientColumns = {
  owner: new Set(['id', 'isActive', 'secretKeyDigest', 'previousSecretKeyDigest', 'previousKeyExpiresAt']),
  client: new Set(['appUrl', 'isHost']),
  smsConfig: new Set(['providerName', 'balance']),
};
const KEYS = ['c'.repeat(64), 'p'.repeat(64)];

describe('ClientCacheInvalidator', () => {
  let ended: ScriptStatement[];
  let cache: { drop: jest.Mock; dropAnswer: jest.Mock };
  let bus: { publish: jest.Mock; publishProviderHostsChanged: jest.Mock };
  let invalidator: ClientCacheInvalidator;

  beforeEach(() => {
    ended = [];
    cache = { drop: jest.fn(), dropAnswer: jest.fn() };
    bus = { publish: jest.fn(), publishProviderHostsChanged: jest.fn() };
    // In a writer's transaction that commits at once.
    const transactions = {
      active: true,
      endWith: (statement: ScriptStatement) => void ended.push(statement),
      afterCommit: (callback: () => void) => callback(),
    } as unknown as Transactions;
    const sequence = { appendStatement: (lines: string[]) => ({ sql: 'append', values: lines }) } as unknown as ChangeSequence;
    invalidator = new ClientCacheInvalidator(
      cache as unknown as ClientCache,
      bus as unknown as CacheInvalidationBus,
      sequence,
      transactions,
      COLUMNS,
    );
  });

  /** The lines the change's transaction ended with, and what this instance dropped and published. */
  const outcome = async (change: CacheChange) => {
    await invalidator.changed(change);
    return {
      lines: ended.flatMap(({ values }) => values),
      dropped: cache.drop.mock.calls.map(([digest]) => digest as string),
      answersDropped: cache.dropAnswer.mock.calls.map(([digest]) => digest as string),
      published: bus.publish.mock.calls,
    };
  };

  it('should drop nothing, and write no line, for columns neither the answer nor the guards read', async () => {
    expect(await outcome({ keys: KEYS, client: ['dailySmsLimit', 'notes', 'updatedAt'] })).toEqual({
      lines: [],
      dropped: [],
      answersDropped: [],
      published: [],
    });
    expect(await outcome({ keys: KEYS, smsConfig: ['lowBalanceThreshold', 'apiKeySealed'] })).toMatchObject({ lines: [], published: [] });
    expect(invalidator.changeStatements({ keys: KEYS, smsConfig: ['lowBalanceThreshold'] })).toEqual([]);
  });

  it("should drop the answer under every key for a column the answer shows, a configuration's too", async () => {
    expect(await outcome({ keys: KEYS, client: ['appUrl', 'dailySmsLimit'] })).toEqual({
      lines: KEYS,
      dropped: [],
      answersDropped: KEYS,
      published: KEYS.map((digest) => [digest, 'answer']),
    });
    ended = [];
    cache.dropAnswer.mockClear();
    expect(await outcome({ keys: KEYS, smsConfig: ['balance'] })).toMatchObject({ lines: KEYS, answersDropped: KEYS });
  });

  it('should drop the whole entry of every key for a column the guards read, and for a client deleted', async () => {
    expect(await outcome({ keys: KEYS, client: ['isActive', 'appUrl'] })).toEqual({
      lines: KEYS.map((digest) => `key:${digest}`),
      dropped: KEYS,
      answersDropped: [],
      published: KEYS.map((digest) => [digest, 'key']),
    });
    ended = [];
    cache.drop.mockClear();
    expect(await outcome({ keys: KEYS, client: 'row' })).toMatchObject({ lines: KEYS.map((digest) => `key:${digest}`), dropped: KEYS });
  });

  it('should drop the answer for a configuration added or deleted, in the add’s own script when it asks for statements', () => {
    const [statement] = invalidator.changeStatements({ keys: KEYS, smsConfig: 'row' });
    expect(statement.values).toEqual(KEYS);
    expect(cache.dropAnswer).not.toHaveBeenCalled();
    statement.afterCommit!();
    expect(cache.dropAnswer.mock.calls.map(([digest]) => digest as string)).toEqual(KEYS);
  });

  it('should tell every instance to read the approved hosts again, dropping no client', async () => {
    expect(await outcome({ providerHosts: true })).toEqual({
      lines: [PROVIDER_HOSTS_LINE],
      dropped: [],
      answersDropped: [],
      published: [],
    });
    expect(bus.publishProviderHostsChanged).toHaveBeenCalledTimes(1);
  });
});
