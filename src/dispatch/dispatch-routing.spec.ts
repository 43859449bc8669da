import { RoutableSmsConfig, route } from './dispatch-routing';

const NOW = Date.parse('2026-11-25T10:00:00.000Z');

function config(smsConfigId: number, fields: Partial<RoutableSmsConfig> = {}): RoutableSmsConfig {
  return {
    smsConfigId,
    providerName: `provider-${smsConfigId}`,
    smsType: 'Transactional',
    isActive: true,
    balanceMicros: 100_000_000n,
    perSmsCostMicros: 10_000n,
    consecutiveFailures: 0,
    unhealthyUntil: null,
    ...fields,
  };
}
const ids = (configs: RoutableSmsConfig[]) => configs.map(({ smsConfigId }) => smsConfigId);
/** Configurations 7 and 8 send to hosts that are not approved. */
const UNAPPROVED = new Set([7, 8]);
const NO_LIMITS = { dailySpendLimitMicros: null, dailySmsLimit: null, spentMicros: 0n, sent: 0 };
const request = {
  preferredSmsGateway: null,
  count: 1,
  now: NOW,
  approved: (c: RoutableSmsConfig) => !UNAPPROVED.has(c.smsConfigId),
  daily: NO_LIMITS,
};

describe('dispatch routing', () => {
  it('should order by preferred gateway (any case), then lower cost, higher balance, lower id', () => {
    const configs = [
      config(1, { perSmsCostMicros: 20_000n }),
      config(2, { perSmsCostMicros: 10_000n, balanceMicros: 5_000_000n }),
      config(3, { perSmsCostMicros: 10_000n, balanceMicros: 9_000_000n }),
      config(4, { perSmsCostMicros: 10_000n, balanceMicros: 9_000_000n }),
      config(5, { providerName: 'Twilio', perSmsCostMicros: 90_000n }),
    ];
    expect(ids(route(configs, request).candidates)).toEqual([3, 4, 2, 1, 5]);
    expect(ids(route(configs, { ...request, preferredSmsGateway: 'tWILIO' }).candidates)).toEqual([5, 3, 4, 2, 1]);
  });

  it('should skip with the first reason that applies: inactive, unapproved, smsType, unhealthy, balance', () => {
    const configs = [
      config(1, { isActive: false, smsType: 'Promotional', balanceMicros: 0n }),
      config(7, { isActive: false }),
      config(8, { providerName: 'Twilio', smsType: 'Promotional', unhealthyUntil: NOW + 1, balanceMicros: 0n, perSmsCostMicros: 0n }),
      config(2, { smsType: 'Promotional', balanceMicros: 0n }),
      config(3, { unhealthyUntil: NOW + 1, balanceMicros: 0n }),
      config(4, { balanceMicros: 9_999n }),
      config(5, { smsType: null }),
      config(6, { smsType: 'TRANSACTIONAL' }),
    ];
    expect(route(configs, { ...request, smsType: 'transactional' })).toEqual({
      candidates: [configs[7]],
      skipped: [
        { smsConfigId: 1, reason: 'inactive' },
        { smsConfigId: 2, reason: 'smsType' },
        { smsConfigId: 3, reason: 'unhealthy' },
        { smsConfigId: 4, reason: 'balance' },
        { smsConfigId: 5, reason: 'smsType' },
        { smsConfigId: 7, reason: 'inactive' },
        { smsConfigId: 8, reason: 'unapproved' },
      ],
    });
  });

  it('should need the balance for every message counted, exactly', () => {
    const exact = config(1, { balanceMicros: 30_000n, perSmsCostMicros: 10_000n });
    expect(ids(route([exact], { ...request, count: 3 }).candidates)).toEqual([1]);
    expect(route([exact], { ...request, count: 4 }).skipped).toEqual([{ smsConfigId: 1, reason: 'balance' }]);
    expect(ids(route([config(2, { balanceMicros: -5n, perSmsCostMicros: 0n })], { ...request, count: 10_000 }).candidates)).toEqual([]);
    expect(ids(route([config(3, { balanceMicros: 0n, perSmsCostMicros: 0n })], { ...request, count: 10_000 }).candidates)).toEqual([3]);
  });

  it('should offer one whose unhealthy time is over after all others, even the preferred one', () => {
    const configs = [
      config(1, { providerName: 'twilio', unhealthyUntil: NOW, perSmsCostMicros: 1n }),
      config(2, { perSmsCostMicros: 50_000n }),
      config(3, { unhealthyUntil: NOW - 5, perSmsCostMicros: 2n }),
    ];
    expect(ids(route(configs, { ...request, preferredSmsGateway: 'twilio' }).candidates)).toEqual([2, 1, 3]);
  });

  it('should answer no candidates, every configuration skipped, when none is usable', () => {
    const configs = [config(2, { isActive: false }), config(1, { balanceMicros: 0n })];
    expect(route(configs, request)).toEqual({
      candidates: [],
      skipped: [
        { smsConfigId: 1, reason: 'balance' },
        { smsConfigId: 2, reason: 'inactive' },
      ],
    });
  });

  it('should skip every configuration past the message limit, and each one past the spend limit, in their place in the order', () => {
    const configs = [
      config(1, { isActive: false }),
      config(2, { smsType: 'Promotional' }),
      config(3, { perSmsCostMicros: 0n, unhealthyUntil: NOW + 1 }),
      config(4, { perSmsCostMicros: 20_000n, balanceMicros: 0n }),
      config(5, { perSmsCostMicros: 10_000n, unhealthyUntil: NOW + 1 }),
      config(6, { perSmsCostMicros: 10_000n, balanceMicros: 0n }),
      config(7, { perSmsCostMicros: 0n }),
    ];
    const asked = { ...request, smsType: 'Transactional', count: 2 };
    const smsLimit = { ...NO_LIMITS, dailySmsLimit: 100, sent: 99 };
    expect(route(configs, { ...asked, daily: smsLimit }).skipped.map(({ reason }) => reason)).toEqual([
      'inactive',
      'smsType',
      'sms-limit',
      'sms-limit',
      'sms-limit',
      'sms-limit',
      'unapproved',
    ]);
    // Exactly at the limit still routes: 98 + 2.
    expect(route(configs, { ...asked, daily: { ...smsLimit, sent: 98 } }).skipped.map(({ reason }) => reason)).not.toContain('sms-limit');

    // 1.95 spent of 2: two messages at 0.02 would pass it, at 0.01 they reach it exactly, at 0 they cost nothing.
    const spendLimit = { ...NO_LIMITS, dailySpendLimitMicros: 2_000_000n, spentMicros: 1_980_000n };
    expect(route(configs, { ...asked, daily: spendLimit })).toEqual({
      candidates: [],
      skipped: [
        { smsConfigId: 1, reason: 'inactive' },
        { smsConfigId: 2, reason: 'smsType' },
        { smsConfigId: 3, reason: 'unhealthy' },
        { smsConfigId: 4, reason: 'spend-limit' },
        { smsConfigId: 5, reason: 'unhealthy' },
        { smsConfigId: 6, reason: 'balance' },
        { smsConfigId: 7, reason: 'unapproved' },
      ],
    });
  });
});
