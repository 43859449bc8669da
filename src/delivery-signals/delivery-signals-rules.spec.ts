import { deliveryRateOf, isDemoted } from './delivery-rate';
import { readDestination, routedDestination } from './destination-number';
import { countsTowardBaseline, pumpingSignalsOf } from './pumping-guard';
import { firstMinuteOf, isShareBelow, lastMinuteBefore, minuteOf } from './signal-windows';

const RULES = { minSent: 20, velocityFactor: 2, minConversionMillionths: 200_000 };
const window = (sent: number, settledCodesSent = 0, verified = 0) => ({ sent, codesSent: settledCodesSent, settledCodesSent, verified });

describe('delivery signal rules', () => {
  it('should take the minutes that start in (now − W, now]', () => {
    const tenOClock = Date.UTC(2026, 10, 20, 10, 0, 0);
    expect(firstMinuteOf(tenOClock, 900_000)).toBe(minuteOf(tenOClock) - 14);
    expect(firstMinuteOf(tenOClock + 30_000, 900_000)).toBe(minuteOf(tenOClock) - 14);
    expect(firstMinuteOf(tenOClock + 60_000, 900_000)).toBe(minuteOf(tenOClock) - 13);
  });

  it('should leave out of the conversion the minutes that start in the grace, rounded up to whole minutes', () => {
    const now = Date.UTC(2026, 10, 20, 10, 2, 0);
    expect(lastMinuteBefore(now, 120_000)).toBe(minuteOf(now) - 2);
    expect(lastMinuteBefore(now - 1, 120_000)).toBe(minuteOf(now) - 3);
    expect(lastMinuteBefore(now, 61_000)).toBe(minuteOf(now) - 2);
    expect(lastMinuteBefore(now, 0)).toBe(minuteOf(now));
  });

  it('should compare shares on integers, exactly at the bound', () => {
    expect(isShareBelow(4, 20, 200_000)).toBe(false);
    expect(isShareBelow(3, 20, 200_000)).toBe(true);
    expect(isShareBelow(0, 1, 0)).toBe(false);
    expect(isShareBelow(2 ** 52, 2 ** 52 + 1, 1_000_000)).toBe(true);
  });

  it('should floor the delivery rate to 4 decimals and demote under the threshold only', () => {
    const rules = { minReceipts: 20, demoteBelowMillionths: 800_000 };
    expect(deliveryRateOf({ delivered: 19, undelivered: 0 }, rules)).toBeNull();
    expect(deliveryRateOf({ delivered: 20, undelivered: 9 }, rules)).toBe(0.6896);
    expect(deliveryRateOf({ delivered: 2, undelivered: 1 }, { ...rules, minReceipts: 1 })).toBe(0.6666);
    expect(isDemoted({ delivered: 16, undelivered: 4 }, rules)).toBe(false);
    expect(isDemoted({ delivered: 15, undelivered: 5 }, rules)).toBe(true);
    expect(isDemoted({ delivered: 0, undelivered: 19 }, rules)).toBe(false);
    expect(isDemoted({ delivered: 0, undelivered: 100 }, { ...rules, demoteBelowMillionths: 0 })).toBe(false);
  });

  it('should find velocity past the floor and past the factor × B, and conversion from the floor of settled codes', () => {
    expect(pumpingSignalsOf(window(20), 0, RULES)).toEqual([]);
    expect(pumpingSignalsOf(window(21), 0, RULES)).toEqual(['velocity']);
    expect(pumpingSignalsOf(window(70), 35, RULES)).toEqual([]);
    expect(pumpingSignalsOf(window(71), 35, RULES)).toEqual(['velocity']);
    expect(pumpingSignalsOf(window(20, 19, 0), 100, RULES)).toEqual([]);
    expect(pumpingSignalsOf(window(20, 20, 3), 100, RULES)).toEqual(['conversion']);
    expect(pumpingSignalsOf(window(20, 20, 4), 100, RULES)).toEqual([]);
    expect(pumpingSignalsOf(window(21, 20, 0), 0, RULES)).toEqual(['velocity', 'conversion']);
  });

  it('should teach the baseline in monitor always, and in block only while the range is not suspected', () => {
    expect(countsTowardBaseline('monitor', true)).toBe(true);
    expect(countsTowardBaseline('block', false)).toBe(true);
    expect(countsTowardBaseline('block', true)).toBe(false);
  });

  it.each([
    ['+447400123456', '+447400123456', '44', '+44740012xxxx', null],
    ['+441534123456', '+441534123456', '44', '+44153412xxxx', null],
    ['+12025550123', '+12025550123', '1', '+1202555xxxx', null],
    ['+19005551234', '+19005551234', '1', '+1900555xxxx', 'premium-rate'],
    ['+33810123456', '+33810123456', '33', '+3381012xxxx', 'shared-cost'],
    // A trunk 0 after the calling code, or a 1 doubled in the North American plan, spells the same number.
    ['+4407400123456', '+447400123456', '44', '+44740012xxxx', null],
    ['+330612345678', '+33612345678', '33', '+3361234xxxx', null],
    ['+610412345678', '+61412345678', '61', '+6141234xxxx', null],
    ['+112025550123', '+12025550123', '1', '+1202555xxxx', null],
  ])('should read %s as %s, calling code %s, range %s, refused type %p', (destination, e164, callingCode, range, refusedType) => {
    const number = readDestination(destination);
    expect({ e164: number?.e164, callingCode: number?.callingCode, range: number?.range, refusedType: number?.refusedType() }).toEqual({
      e164,
      callingCode,
      range,
      refusedType,
    });
  });

  it.each([
    ['+999123456789', 'an unknown calling code'],
    ['+0123456789', 'calling code 0'],
    ['+4474001', 'too short for its country'],
    ['+447400123456789', 'too long for its country'],
    ['+3306123456789', 'too long once its trunk 0 is read'],
  ])('should read %s (%s) as no number', (destination) => {
    expect(readDestination(destination)).toBeNull();
    expect(routedDestination(destination)).toBeNull();
  });

  it('should route a number only in its E.164 spelling', () => {
    expect(routedDestination('+447400123456')?.e164).toBe('+447400123456');
    expect(routedDestination('+4407400123456')).toBeNull();
    expect(routedDestination('+112025550123')).toBeNull();
  });
});
