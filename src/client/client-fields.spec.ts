import { DataSource } from 'typeorm';
import { mysqlMetadataOnly } from '../entities';
import { ADD_CLIENT_FIELDS, ADMIN_CLIENT_FIELDS, CHANGEABLE_CLIENT_FIELDS, ClientFields } from './client-fields';

describe('ClientFields', () => {
  let dataSource: DataSource;
  let fields: ClientFields;

  beforeAll(async () => {
    dataSource = await mysqlMetadataOnly();
    fields = new ClientFields(dataSource);
  });

  it('should store in the column of its name every field add and PATCH take', () => {
    const columns = dataSource.getMetadata('Client').columns.map((column) => column.propertyName);
    expect([...ADD_CLIENT_FIELDS, ...CHANGEABLE_CLIENT_FIELDS].filter((field) => !columns.includes(field))).toEqual([]);
  });

  it("should store the request's fields under the key's digest, and each other column's default", () => {
    const createdAt = new Date('2026-11-24T10:15:30.123Z');
    const added = fields.added(
      { appName: 'Billing', appUrl: 'https://billing.example.com', isHost: true },
      { secretKeyDigest: 'd'.repeat(64), createdAt },
    );
    expect(added).toMatchObject({
      appName: 'Billing',
      appDescription: null,
      appUrl: 'https://billing.example.com',
      preferredSmsGateway: null,
      preferredEmailGateway: null,
      isHost: true,
      isActive: true,
      pumpingGuard: 'monitor',
      secretKeyDigest: 'd'.repeat(64),
    });
    const inserted = Object.fromEntries(fields.inserted.map((property, index) => [property, fields.insertValues(added)[index]]));
    expect(inserted).toMatchObject({
      appName: 'Billing',
      isHost: 1,
      secretKeyDigest: 'd'.repeat(64),
      createdAt: '2026-11-24 10:15:30.123',
    });
    expect(fields.inserted).not.toContain('isActive');
  });

  it("should read the admin view's fields from their columns, a time as ISO-8601, and the others as it is told", () => {
    const read = fields.reader<Record<string, unknown>, Record<string, unknown>>(ADMIN_CLIENT_FIELDS, {
      clientId: (row) => row.id,
      updatedAt: () => 'computed',
      previousSecretKeyLastUsedAt: () => null,
      previousSecretKeyLastUsedFrom: () => null,
      previousKeyExpiresAt: () => null,
      dailySpendLimit: () => null,
      spentToday: (_row, today) => today,
      sentToday: () => 0,
    });
    const shown = read(
      { id: 7, appName: 'Billing', createdAt: new Date('2026-11-24T10:15:30.123Z'), secretKeyRotatedAt: null },
      '2026-11-24',
    );
    expect(shown).toMatchObject({
      clientId: 7,
      appName: 'Billing',
      createdAt: '2026-11-24T10:15:30.123Z',
      secretKeyRotatedAt: null,
      updatedAt: 'computed',
      spentToday: '2026-11-24',
    });
    expect(Object.keys(shown)).toEqual(ADMIN_CLIENT_FIELDS);
    expect(() => fields.reader(['notAColumn'], {})).toThrow('client has no column for notAColumn');
  });
});
