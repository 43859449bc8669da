import { randomBytes } from 'node:crypto';
import { K2, SealedDatabase } from '../../test/helpers/sealed-database';
import { EncryptionKey } from '../config/app-config';
import { SecretSealer } from '../crypto/secret-sealer';
import { SqlValue } from '../database/transactions';
import { isComplete } from './resealer';
import { ResealStatements } from './sealed-column.repository';

const GONE: EncryptionKey = { id: 'gone', key: randomBytes(32) };

// What a run does with what it cannot move: a value a writer replaced meanwhile, one that does not open, a stop.
describe('Resealer, on a SQLite database made by the real migrations', () => {
  let db: SealedDatabase;

  beforeEach(async () => {
    db = await SealedDatabase.open();
  });

  afterEach(() => db.close());

  it('should leave a value that a writer replaced between read and write as that writer wrote it', async () => {
    await db.seedSome();
    const target = db.stored.find((value) => value.column === 'password_sealed')!;
    const written = new SecretSealer([K2]).seal('written-meanwhile', target.context);
    let raced = false;
    const racing: ResealStatements = {
      dialect: db.sql.dialect,
      query: (text, values) => db.sql.query(text, values),
      execute: async (text, values) => {
        if (!raced && text.startsWith('UPDATE sms_config SET password_sealed') && values.includes(target.where[0])) {
          raced = true;
          await db.sql.execute('UPDATE sms_config SET password_sealed = ? WHERE id = ?', [written, target.where[0]]);
        }
        return db.sql.execute(text, values);
      },
    };

    const { outcome, lines } = await db.reseal({ statements: racing });
    expect(raced).toBe(true);
    expect(await db.sealedValueOf(target)).toBe(written);
    expect(outcome).toEqual({ moved: 13, failed: 0, remaining: [{ keyId: 'k1', count: 0 }], stopped: false });
    expect(lines).toContain('reseal: sms_config.password_sealed: 4 read, 2 moved, 1 already under k2, 1 changed meanwhile, 0 failed');
  });

  it('should report a value that does not open by its row and column, go on with the others, and fail', async () => {
    await db.seedSome();
    const first = db.stored.find((value) => value.column === 'password_sealed')!;
    const second = db.stored.find((value) => value.column === 'password_sealed' && value.context.owner !== first.context.owner)!;
    // A value copied into another client's row: sealed for the first client, it does not open in the second's.
    const copied = await db.sealedValueOf(first);
    await db.sql.execute('UPDATE sms_config SET password_sealed = ? WHERE id = ?', [copied, second.where[0]]);

    const { outcome, lines } = await db.reseal();
    expect(outcome).toEqual({ moved: 13, failed: 1, remaining: [{ keyId: 'k1', count: 1 }], stopped: false });
    expect(isComplete(outcome)).toBe(false);
    expect(lines).toContain(
      `reseal: sms_config.password_sealed of id ${String(second.where[0])}: does not open under key id k1 ` +
        '(sealed value was altered, sealed under another key or for another place)',
    );
    expect(lines.at(-1)).toBe('reseal: moved 13; remaining k1=1');
    expect(lines.join('\n')).not.toContain(copied);
  });

  it('should report a value under a key id ENCRYPTION_KEYS does not list, name it in what remains, and fail', async () => {
    await db.seedSome();
    await db.addSmsConfig('password-gone', null, new SecretSealer([GONE]));
    await db.addKeptRequest('client-add', 'key-gone', '{"secretKey":"sk_gone"}', new SecretSealer([GONE]));
    const plain = await db.addSmsConfig(null, null);
    await db.sql.execute('UPDATE sms_config SET api_key_sealed = ? WHERE id = ?', ['an-api-key-never-sealed', plain]);

    const { outcome, lines } = await db.reseal();
    expect(outcome.failed).toBe(4);
    expect(outcome.remaining).toEqual([
      { keyId: 'k1', count: 0 },
      { keyId: '(malformed)', count: 1 },
      { keyId: 'gone', count: 3 },
    ]);
    expect(isComplete(outcome)).toBe(false);
    expect(lines).toContain(
      'reseal: idempotent_request.answer_sealed of scope client-add, idempotency_key key-gone: sealed under key id gone, which ENCRYPTION_KEYS does not list',
    );
    expect(lines).toContain(
      'reseal: idempotent_request.request_sealed of scope client-add, idempotency_key key-gone: sealed under key id gone, which ENCRYPTION_KEYS does not list',
    );
    expect(lines).toContain(
      `reseal: sms_config.api_key_sealed of id ${plain}: sealed under key id (malformed), which ENCRYPTION_KEYS does not list`,
    );
    expect(lines.at(-1)).toBe('reseal: moved 14; remaining k1=0, (malformed)=1, gone=3');
    expect(lines.join('\n')).not.toMatch(/password-gone|sk_gone|an-api-key-never-sealed/);
  });

  it('should fail on a value under the current key that does not open, which is not counted as remaining', async () => {
    const id = await db.addSmsConfig('password', null, new SecretSealer([K2]));
    const sealed = await db.sealedValueOf({ table: 'sms_config', column: 'password_sealed', where: [id] });
    const altered = `${sealed.slice(0, -5)}${sealed.at(-5) === 'A' ? 'B' : 'A'}${sealed.slice(-4)}`;
    await db.sql.execute('UPDATE sms_config SET password_sealed = ? WHERE id = ?', [altered, id]);

    const { outcome, lines } = await db.reseal();
    expect(outcome).toEqual({ moved: 0, failed: 1, remaining: [{ keyId: 'k1', count: 0 }], stopped: false });
    expect(isComplete(outcome)).toBe(false);
    expect(lines.at(-1)).toBe('reseal: moved 0; remaining k1=0');
  });

  it('should stop after the value in hand when asked, say how far it got, and finish the rest when run again', async () => {
    await db.seedSome();
    const stop = new AbortController();
    const stopped = await db.reseal({ batchSize: 2, stop });
    expect(stopped.outcome).toEqual({ moved: 2, failed: 0, remaining: [{ keyId: 'k1', count: 12 }], stopped: true });
    expect(isComplete(stopped.outcome)).toBe(false);
    expect(stopped.lines.slice(-2)).toEqual([
      'reseal: stopped (SIGTERM) at sms_config.password_sealed, id 4, after moving 2 of its values; run it again to go on',
      'reseal: moved 2; remaining k1=12',
    ]);

    const rest = await db.reseal({ batchSize: 2 });
    expect(rest.outcome).toEqual({ moved: 12, failed: 0, remaining: [{ keyId: 'k1', count: 0 }], stopped: false });
    expect(rest.lines.at(-1)).toBe('reseal: moved 12; remaining k1=0');
  });

  it('should say so, and fail, when values under an older key remain after a whole run', async () => {
    await db.addSmsConfig('password', null);
    let added = false;
    const lateWriter: ResealStatements = {
      dialect: db.sql.dialect,
      query: async <T>(text: string, values?: SqlValue[]) => {
        // An instance still sealing with k1 adds a configuration once the walk is past it.
        if (text.includes('COUNT(*)') && !added) {
          added = true;
          await db.addSmsConfig('late', null);
        }
        return db.sql.query<T>(text, values);
      },
      execute: (text, values) => db.sql.execute(text, values),
    };

    const { outcome, lines } = await db.reseal({ statements: lateWriter });
    expect(outcome).toEqual({ moved: 1, failed: 0, remaining: [{ keyId: 'k1', count: 1 }], stopped: false });
    expect(isComplete(outcome)).toBe(false);
    expect(lines.slice(-2)).toEqual([
      'reseal: values under older keys were written during the run: once every instance seals with k2 (first in ENCRYPTION_KEYS), run it again',
      'reseal: moved 1; remaining k1=1',
    ]);
  });
});
