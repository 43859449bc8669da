import { noneRemaining, remainingUnderOlderKeys, summaryLine } from './reseal-report';

describe('remainingUnderOlderKeys', () => {
  it('should list every older key in ENCRYPTION_KEYS order, 0 included, then the unlisted ids found, sorted', () => {
    const counts = [
      { keyId: 'k3', count: 5 },
      { keyId: 'zeta', count: 1 },
      { keyId: 'k1', count: 2 },
      { keyId: 'beta', count: 1 },
      { keyId: 'k1', count: 1 },
      { keyId: 'not a key id', count: 1 },
      { keyId: 'also:not', count: 2 },
    ];
    expect(remainingUnderOlderKeys(counts, 'k3', ['k3', 'k2', 'k1'])).toEqual([
      { keyId: 'k2', count: 0 },
      { keyId: 'k1', count: 3 },
      { keyId: '(malformed)', count: 3 },
      { keyId: 'beta', count: 1 },
      { keyId: 'zeta', count: 1 },
    ]);
  });

  it('should list nothing when a single key is listed and every value is under it', () => {
    expect(remainingUnderOlderKeys([{ keyId: 'k1', count: 4 }], 'k1', ['k1'])).toEqual([]);
  });
});

describe('summaryLine', () => {
  it.each([
    [[{ keyId: 'k1', count: 0 }], 'reseal: moved 3; remaining k1=0'],
    [
      [
        { keyId: 'k1', count: 0 },
        { keyId: 'old', count: 2 },
      ],
      'reseal: moved 3; remaining k1=0, old=2',
    ],
    [[], 'reseal: moved 3; remaining none'],
  ])('should write %j as %s', (remaining, line) => {
    expect(summaryLine(3, remaining)).toBe(line);
  });
});

describe('noneRemaining', () => {
  it('should hold when every count is 0, and when nothing is listed', () => {
    expect(noneRemaining([{ keyId: 'k1', count: 0 }])).toBe(true);
    expect(noneRemaining([])).toBe(true);
    expect(
      noneRemaining([
        { keyId: 'k1', count: 0 },
        { keyId: 'gone', count: 1 },
      ]),
    ).toBe(false);
  });
});
