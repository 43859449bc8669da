import { MAX_PROVIDER_LABELS, OTHER_PROVIDERS, providerLabel } from './dispatch.metrics';

describe('dispatch metrics', () => {
  it('should give the first provider names a label each, lower-cased, and count any more as other', () => {
    expect(providerLabel('Twilio')).toBe('twilio');
    expect(providerLabel('TWILIO')).toBe('twilio');
    const labels = new Set(Array.from({ length: 200 }, (_, index) => providerLabel(`provider-${index}`)));
    expect(labels.size).toBe(MAX_PROVIDER_LABELS);
    expect(labels.has(OTHER_PROVIDERS)).toBe(true);
    // Names seen before the bound keep their label.
    expect(providerLabel('twilio')).toBe('twilio');
    expect(providerLabel('provider-0')).toBe('provider-0');
    expect(providerLabel('provider-199')).toBe(OTHER_PROVIDERS);
  });
});
