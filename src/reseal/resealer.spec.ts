import { randomBytes } from 'node:crypto';
import { K1, K2, SealedDatabase, underK2Only } from '../../test/helpers/sealed-database';
import { EncryptionKey } from '../config/app-config';
import { passwordSealContext } from '../sms-config/sms-config-seal-context';
import { isComplete } from './resealer';

/** Listed last, yet first in the alphabet: the summary keeps the order of ENCRYPTION_KEYS. */
const OLD: EncryptionKey = { id: 'aold', key: randomBytes(32) };
/** keyA of test/helpers/test-app.ts, and a password SecretSealer v1 sealed under it (see secret-sealer-v1.spec.ts). */
const LEGACY: EncryptionKey = { id: 'keyA', key: Buffer.from(Array.from({ length: 32 }, (_, index) => (index * 37 + 11) % 256)) };
const V1_PASSWORD = 'keyA:9nUVKuWTWnE-Xa2PfgFDJ1o2wPtzoQbnPKl47TKV1RuzCAXrr3yhXd31QFhxvw_7mg';

describe('Resealer, on a SQLite database made by the real migrations', () => {
  let db: SealedDatabase;

  beforeEach(async () => {
    db = await SealedDatabase.open();
  });

  afterEach(() => db.close());

  it('should seal every value under the first key, batch after batch, so that it opens once the older key is removed', async () => {
    await db.seedSome();
    const { outcome, lines } = await db.reseal({ batchSize: 2 });

    // 5 values under k1 in sms_config (2 already under k2), 4 kept answers (the one in progress has none), 5 kept requests.
    expect(outcome).toEqual({ moved: 14, failed: 0, remaining: [{ keyId: 'k1', count: 0 }], stopped: false });
    expect(isComplete(outcome)).toBe(true);
    expect(lines.at(-1)).toBe('reseal: moved 14; remaining k1=0');
    expect(lines).toContain('reseal: sms_config.password_sealed: 4 read, 3 moved, 1 already under k2, 0 changed meanwhile, 0 failed');
    expect(lines).toContain('reseal: idempotent_request.answer_sealed: 4 read, 4 moved, 0 already under k2, 0 changed meanwhile, 0 failed');
    expect(lines).toContain(
      'reseal: idempotent_request.request_sealed: 5 read, 5 moved, 0 already under k2, 0 changed meanwhile, 0 failed',
    );
    for (const value of db.stored) {
      const sealed = await db.sealedValueOf(value);
      expect(sealed).toMatch(/^k2:v2:/);
      expect(underK2Only.open(sealed, value.context)).toBe(value.plaintext);
    }
    const output = lines.join('\n');
    for (const value of db.stored) expect(output).not.toContain(value.plaintext);
  });

  it('should move nothing the second time, and leave the values as they are', async () => {
    await db.seedSome();
    expect((await db.reseal()).outcome.moved).toBe(14);
    const after = await Promise.all(db.stored.map((value) => db.sealedValueOf(value)));

    const again = await db.reseal();
    expect(again.outcome).toEqual({ moved: 0, failed: 0, remaining: [{ keyId: 'k1', count: 0 }], stopped: false });
    expect(again.lines.at(-1)).toBe('reseal: moved 0; remaining k1=0');
    expect(await Promise.all(db.stored.map((value) => db.sealedValueOf(value)))).toEqual(after);
  });

  it('should name every older key listed, in ENCRYPTION_KEYS order, with 0 once nothing is left under it', async () => {
    await db.seedSome();
    const { outcome, lines } = await db.reseal({ keys: [K2, K1, OLD] });
    expect(outcome.remaining).toEqual([
      { keyId: 'k1', count: 0 },
      { keyId: 'aold', count: 0 },
    ]);
    expect(isComplete(outcome)).toBe(true);
    expect(lines.at(-1)).toBe('reseal: moved 14; remaining k1=0, aold=0');
  });

  it('should answer remaining none only when a single key is listed', async () => {
    await db.addSmsConfig('password', 'api-key', underK2Only);
    const { outcome, lines } = await db.reseal({ keys: [K2] });
    expect(outcome).toEqual({ moved: 0, failed: 0, remaining: [], stopped: false });
    expect(isComplete(outcome)).toBe(true);
    expect(lines.at(-1)).toBe('reseal: moved 0; remaining none');
  });

  it('should seal a value of the format before v2 again, bound to its row', async () => {
    const id = await db.addSmsConfig(null, null);
    await db.sql.execute('UPDATE sms_config SET password_sealed = ? WHERE id = ?', [V1_PASSWORD, id]);

    const { outcome } = await db.reseal({ keys: [K2, LEGACY] });
    expect(outcome.moved).toBe(1);
    const sealed = await db.sealedValueOf({ table: 'sms_config', column: 'password_sealed', where: [id] });
    expect(underK2Only.open(sealed, passwordSealContext(db.clientId))).toBe('password-sealed-by-v1');
  });
});
