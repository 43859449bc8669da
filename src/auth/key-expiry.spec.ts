import { EXPIRES_AT_FORMAT, EXPIRES_AT_RANGE, readExpiresAt } from './key-expiry';

const NOW = Date.parse('2026-11-29T10:00:00.000Z');

function answered(value: unknown): string {
  const reading = readExpiresAt(value, NOW);
  if ('refusal' in reading) throw new Error(reading.refusal);
  return new Date(reading.expiresAt).toISOString();
}

function refusalOf(value: unknown): string {
  const reading = readExpiresAt(value, NOW);
  if (!('refusal' in reading)) throw new Error(`taken: ${reading.expiresAt}`);
  return reading.refusal;
}

describe('readExpiresAt', () => {
  it.each([
    ['Z', '2027-01-31T12:00:00Z', '2027-01-31T12:00:00.000Z'],
    ['a positive offset', '2027-01-31T12:00:00+02:00', '2027-01-31T10:00:00.000Z'],
    ['a negative offset with minutes', '2027-01-31T12:00:00-05:30', '2027-01-31T17:30:00.000Z'],
    ['one fraction digit', '2027-01-31T12:00:00.5Z', '2027-01-31T12:00:00.500Z'],
    ['three fraction digits', '2027-01-31T12:00:00.123Z', '2027-01-31T12:00:00.123Z'],
    ['an offset that crosses the day', '2027-01-01T01:00:00+03:00', '2026-12-31T22:00:00.000Z'],
  ])('should take %s and answer it in UTC', (_case, value, expected) => {
    expect(answered(value)).toBe(expected);
  });

  it('should take 29 February of a leap year', () => {
    expect(readExpiresAt('2028-02-29T00:00:00Z', Date.parse('2027-06-01T00:00:00Z'))).toEqual({
      expiresAt: Date.parse('2028-02-29T00:00:00Z'),
    });
  });

  it('should take exactly 60 s and exactly 366 days ahead', () => {
    expect(answered('2026-11-29T10:01:00Z')).toBe('2026-11-29T10:01:00.000Z');
    expect(answered('2027-11-30T10:00:00Z')).toBe('2027-11-30T10:00:00.000Z');
  });

  it.each([
    ['59.999 s ahead', '2026-11-29T10:00:59.999Z'],
    ['a time past', '2026-11-29T09:00:00Z'],
    ['366 days and 1 ms ahead', '2027-11-30T10:00:00.001Z'],
  ])('should refuse %s', (_case, value) => {
    expect(refusalOf(value)).toBe(EXPIRES_AT_RANGE);
  });

  it.each([
    ['no zone', '2027-01-31T12:00:00'],
    ['four fraction digits', '2027-01-31T12:00:00.1234Z'],
    ['a space for T', '2027-01-31 12:00:00Z'],
    ['a lower-case z', '2027-01-31T12:00:00z'],
    ['an offset without a colon', '2027-01-31T12:00:00+0200'],
    ['30 February', '2027-02-30T12:00:00Z'],
    ['29 February of a common year', '2027-02-29T12:00:00Z'],
    ['hour 24', '2027-01-31T24:00:00Z'],
    ['a leap second', '2027-06-30T23:59:60Z'],
    ['an offset of 24 hours', '2027-01-31T12:00:00+24:00'],
    ['offset minutes past 59', '2027-01-31T12:00:00+02:60'],
    ['a date alone', '2027-01-31'],
    ['epoch milliseconds', 1801396800000],
    ['a text of something else', 'next year'],
  ])('should refuse %s as not an instant', (_case, value) => {
    expect(refusalOf(value)).toBe(EXPIRES_AT_FORMAT);
  });
});
