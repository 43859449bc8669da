import { ANSWER_BYTES_BESIDE_TEXT, ANSWER_TEXT_PROPERTIES, answerBytesOf, answerBytesOfAll } from './sms-config-limit';
import { exactJson } from '../common/exact-amount';
import { GET_CLIENT_SMS_CONFIG_FIELDS } from './dto/sms-config-response.dto';
import { mysqlMetadataOnly } from '../entities';
import { SmsConfigFields, SmsConfigRow } from './sms-config-fields';

/** A configuration as get-client's answer shows it. */
let toSmsConfigSummary: (row: SmsConfigRow) => unknown;

beforeAll(async () => {
  toSmsConfigSummary = new SmsConfigFields(await mysqlMetadataOnly()).reader(GET_CLIENT_SMS_CONFIG_FIELDS);
});

/** The widest amounts a DECIMAL(18,6) holds, as their exact twins store them. */
const WIDEST = {
  balance: '-999999999999.999999',
  perSmsCost: '999999999999.999999',
  balanceMicros: '-999999999999999999',
  perSmsCostMicros: '999999999999999999',
};

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
    const widest = exactJson(toSmsConfigSummary({ ...texts, ...WIDEST, isActive: 0 }));
    expect(widest).toContain('"balance":-999999999999.999999');
    expect(answerBytesOf(texts)).toBe(Buffer.byteLength(widest) + 1);
  });

  it('should count more than any smaller balance, perSmsCost or isActive would take', () => {
    const summary = toSmsConfigSummary({
      ...texts,
      balance: '12.5',
      perSmsCost: '0.0125',
      balanceMicros: null,
      perSmsCostMicros: null,
      isActive: 1,
    });
    expect(answerBytesOf(texts)).toBeGreaterThan(Buffer.byteLength(JSON.stringify(summary)) + 1);
  });

  it('should take the array text as its brackets and the parts with their commas', () => {
    const parts = [answerBytesOf(texts), answerBytesOf({ ...texts, username: null })];
    const summaries = [texts, { ...texts, username: null }].map((part) => toSmsConfigSummary({ ...part, ...WIDEST, isActive: 0 }));
    expect(answerBytesOfAll(parts)).toBe(Buffer.byteLength(exactJson(summaries)));
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
