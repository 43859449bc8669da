import { ConflictException } from '@nestjs/common';

export const MAX_SMS_CONFIGS_PER_CLIENT = 100;

export const MAX_SMS_CONFIG_ANSWER_BYTES = 256 * 1024;

export const MAX_DESTINATION_PRICES_PER_CLIENT = 3000;

// The 409s of add and change, as the document states them.
export const ADD_BEYOND_LIMITS =
  `The client already has ${MAX_SMS_CONFIGS_PER_CLIENT} SMS configurations, they would take more than ` +
  `${MAX_SMS_CONFIG_ANSWER_BYTES} bytes of get-client answer, or more than ${MAX_DESTINATION_PRICES_PER_CLIENT} destinationPrices entries in all`;

export const CHANGE_BEYOND_LIMITS =
  `The client's configurations would take more than ${MAX_SMS_CONFIG_ANSWER_BYTES} bytes of get-client answer, or hold more ` +
  `than ${MAX_DESTINATION_PRICES_PER_CLIENT} destinationPrices entries in all`;

export class SmsConfigLimitReachedException extends ConflictException {
  constructor() {
    super(`A client can have at most ${MAX_SMS_CONFIGS_PER_CLIENT} SMS configurations`);
  }
}

export class SmsConfigAnswerBudgetExceededException extends ConflictException {
  constructor() {
    super(`A client's SMS configurations can take at most ${MAX_SMS_CONFIG_ANSWER_BYTES} bytes of get-client answer`);
  }
}

export const ANSWER_TEXT_PROPERTIES = ['providerName', 'providerUrl', 'username', 'senderId', 'smsType', 'smsApi', 'balanceUrl'] as const;

export type AnswerTextProperty = (typeof ANSWER_TEXT_PROPERTIES)[number];

export type AnswerTexts = { [property in AnswerTextProperty]?: string | null };

// Reports change a balance without a write, so a PATCH of these alone must never be refused for the size.
const WIDEST = { balance: -1, perSmsCost: 1, isActive: false } as const;
const WIDEST_EXTRA = '999999999999.999999'.length * 2 - 2;

// With the comma or bracket after it: the array's text is `[` and then these parts.
export function answerBytesOf(texts: AnswerTexts): number {
  const part = { ...Object.fromEntries(ANSWER_TEXT_PROPERTIES.map((property) => [property, texts[property] ?? null])), ...WIDEST };
  return Buffer.byteLength(JSON.stringify(part)) + WIDEST_EXTRA + 1;
}

// The part of a configuration whose every text is as long as allowed and all control characters (6 bytes each in JSON).
export function widestAnswerBytes(maxLengthOf: (property: AnswerTextProperty) => number): number {
  return answerBytesOf(Object.fromEntries(ANSWER_TEXT_PROPERTIES.map((property) => [property, '\u0001'.repeat(maxLengthOf(property))])));
}

export function answerBytesOfAll(parts: number[]): number {
  return parts.reduce((total, part) => total + part, 1);
}

// A text of n UTF-8 bytes takes at most 2 + 6n in JSON (quotes, and \u00XX for a control character); null takes 4.
export const ANSWER_BYTES_BESIDE_TEXT =
  answerBytesOf(Object.fromEntries(ANSWER_TEXT_PROPERTIES.map((property) => [property, '']))) - 2 * ANSWER_TEXT_PROPERTIES.length;
