import { MAX_LABEL_LENGTH, MAX_PROVIDER_LABELS, OTHER_PROVIDERS, printableLabel, providerLabel } from './dispatch.metrics';

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

  it('should make every character that does not print an underscore, and cut the label to 64 characters', () => {
    expect(printableLabel('twilio')).toBe('twilio');
    expect(printableLabel('a\rb\nc\0d\te\u0085f\u2028g\u200bh\u{e0001}i\ud800j')).toBe('a_b_c_d_e_f_g_h_i_j');
    // Printable text stays, quotes, backslashes and letters of any script included: the exposition format escapes them.
    expect(printableLabel('Ä "quoted" \\ ñ 短信 😀')).toBe('Ä "quoted" \\ ñ 短信 😀');
    expect(printableLabel('x'.repeat(200))).toBe('x'.repeat(MAX_LABEL_LENGTH));
    // Cut by code points: no half of a surrogate pair is left at the end.
    expect(printableLabel('😀'.repeat(100))).toBe('😀'.repeat(MAX_LABEL_LENGTH));
  });

  it('should give one provider the same bounded printable label every time', async () => {
    // A fresh copy of the module: the test above used up its labels.
    let fresh!: { providerLabel: (providerName: string) => string };
    await jest.isolateModulesAsync(async () => {
      fresh = await import('./dispatch.metrics');
    });
    const name = `Evil\r\n\0"\\${'p'.repeat(200)}`;
    const label = fresh.providerLabel(name);
    expect(label).toBe(`evil___"\\${'p'.repeat(MAX_LABEL_LENGTH - 9)}`);
    expect(fresh.providerLabel(name)).toBe(label);
    expect(providerLabel(name)).toBe(OTHER_PROVIDERS);
  });
});
