import { ANSWER_BYTES_BESIDE_TEXT, ANSWER_TEXT_PROPERTIES, answerBytesOf, answerBytesOfAll } from './sms-config-limit';
import { toSmsConfigSummary } from './sms-config.repository';

const texts = {
  providerName: 'twilio "quoted" \\ back',
  providerUrl: null,
  username: 'ctrl \u0001\n\t end',
  senderId: 'émoji 😀',
  smsType: '中文',
  smsApi: 'https://api.twilio.com/send',
  balanceUrl: null,
};

describe('answerBytesOf', () => {
  it('should count a part as get-client writes it, escapes and UTF-8 included, with the widest numbers and false', () => {
    const summary = toSmsConfigSummary({ ...texts, balance: '-999999999999.999999', perSmsCost: '999999999999.999999', isActive: 0 });
    const widest = JSON.stringify(summary)
      .replace(/"balance":[^,]+/, '"balance":-999999999999.999999')
      .replace(/"perSmsCost":[^,]+/, '"perSmsCost":999999999999.999999');
    expect(answerBytesOf(texts)).toBe(Buffer.byteLength(widest) + 1);
  });

  it('should count more than any smaller balance, perSmsCost or isActive would take', () => {
    const summary = toSmsConfigSummary({ ...texts, balance: '12.5', perSmsCost: '0.0125', isActive: 1 });
    expect(answerBytesOf(texts)).toBeGreaterThan(Buffer.byteLength(JSON.stringify(summary)) + 1);
  });

  it('should take the array text as its brackets and the parts with their commas', () => {
    const parts = [answerBytesOf(texts), answerBytesOf({ ...texts, username: null })];
    const summaries = [texts, { ...texts, username: null }].map((part) =>
      toSmsConfigSummary({ ...part, balance: '-999999999999.999999', perSmsCost: '999999999999.999999', isActive: 0 }),
    );
    const text = JSON.stringify(summaries).replace(/"balance":-1000000000000/g, '"balance":-999999999999.999999');
    const widePerSmsCost = text.replace(/"perSmsCost":1000000000000/g, '"perSmsCost":999999999999.999999');
    expect(answerBytesOfAll(parts)).toBe(Buffer.byteLength(widePerSmsCost));
    expect(answerBytesOfAll([])).toBe(1);
  });

  it('should stay within the SQL over-estimate: 4 + 6 bytes per UTF-8 byte of each text beside the rest', () => {
    const bound =
      ANSWER_BYTES_BESIDE_TEXT +
      ANSWER_TEXT_PROPERTIES.reduce((total, property) => total + 4 + 6 * Buffer.byteLength(texts[property] ?? ''), 0);
    expect(answerBytesOf(texts)).toBeLessThanOrEqual(bound);
    const controls = { ...texts, username: '\u0001'.repeat(255) };
    expect(answerBytesOf(controls)).toBeLessThanOrEqual(bound + 6 * 255);
  });
});
