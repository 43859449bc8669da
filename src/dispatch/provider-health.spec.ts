import { ProviderHealth, healthAfterReport, healthStanding } from './provider-health';

const NOW = Date.parse('2026-11-25T10:00:00.000Z');
const MS = 30_000;
const healthy: ProviderHealth = { consecutiveFailures: 0, unhealthyUntil: null };

describe('provider health', () => {
  it('should turn unhealthy at the fifth failure in a row, once, for DISPATCH_UNHEALTHY_MS', () => {
    let health = healthy;
    for (let report = 1; report <= 4; report++) {
      const next = healthAfterReport(health, { sent: 0, failed: 1 }, NOW, MS);
      expect(next).toEqual({ health: { consecutiveFailures: report, unhealthyUntil: null }, crossing: null });
      health = next.health;
    }
    expect(healthAfterReport(health, { sent: 0, failed: 1 }, NOW, MS)).toEqual({
      health: { consecutiveFailures: 5, unhealthyUntil: NOW + MS },
      crossing: 'sms-config.unhealthy',
    });
  });

  it('should count a batch of failures at once, and a send should clear them', () => {
    expect(healthAfterReport(healthy, { sent: 0, failed: 7 }, NOW, MS).crossing).toBe('sms-config.unhealthy');
    const four = { consecutiveFailures: 4, unhealthyUntil: null };
    expect(healthAfterReport(four, { sent: 1, failed: 30 }, NOW, MS)).toEqual({ health: healthy, crossing: null });
  });

  it('should not extend nor announce again while skipped', () => {
    const skipped = { consecutiveFailures: 5, unhealthyUntil: NOW + 10_000 };
    expect(healthAfterReport(skipped, { sent: 0, failed: 3 }, NOW, MS)).toEqual({
      health: { consecutiveFailures: 8, unhealthyUntil: NOW + 10_000 },
      crossing: null,
    });
  });

  it('should make one offered again unhealthy as long again at its next failure, without an event', () => {
    const offeredAgain = { consecutiveFailures: 5, unhealthyUntil: NOW - 1 };
    expect(healthStanding(offeredAgain, NOW)).toBe('offeredAgain');
    expect(healthAfterReport(offeredAgain, { sent: 0, failed: 1 }, NOW, MS)).toEqual({
      health: { consecutiveFailures: 6, unhealthyUntil: NOW + MS },
      crossing: null,
    });
  });

  it('should leave one offered again as it is on a report of the balance alone', () => {
    const offeredAgain = { consecutiveFailures: 5, unhealthyUntil: NOW - 1 };
    expect(healthAfterReport(offeredAgain, { sent: 0, failed: 0 }, NOW, MS)).toEqual({ health: offeredAgain, crossing: null });
  });

  it('should make it healthy on a send, skipped or offered again, and announce it once', () => {
    for (const unhealthyUntil of [NOW + 10_000, NOW - 1]) {
      expect(healthAfterReport({ consecutiveFailures: 9, unhealthyUntil }, { sent: 1, failed: 0 }, NOW, MS)).toEqual({
        health: healthy,
        crossing: 'sms-config.healthy',
      });
    }
    expect(healthAfterReport(healthy, { sent: 5, failed: 0 }, NOW, MS).crossing).toBeNull();
  });

  it('should tell skipped from offered again at the instant it ends', () => {
    const health = { consecutiveFailures: 5, unhealthyUntil: NOW };
    expect(healthStanding(health, NOW - 1)).toBe('skipped');
    expect(healthStanding(health, NOW)).toBe('offeredAgain');
    expect(healthStanding(healthy, NOW)).toBe('healthy');
  });
});
