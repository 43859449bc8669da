import { randomBytes } from 'node:crypto';

/**
 * An amount whose shortest exact decimal a double cannot print (99999999999.99999 reads back as 99999999999.99998):
 * exactJson() writes its digits as a JSON number, as they are. JSON.rawJSON would do this, from Node 21 on only.
 */
export class ExactAmount {
  constructor(readonly text: string) {
    if (!DECIMAL.test(text)) throw new TypeError(`not a decimal: ${text}`);
  }

  /** What JSON.stringify writes in its place: a string exactJson() finds and unquotes. */
  toJSON(): string {
    return `${MARK}${this.text}`;
  }
}

/** An amount in an answer: a number when a double prints it as its exact decimal (almost always), else its digits. */
export type Amount = number | ExactAmount;

const DECIMAL = /^-?[0-9]+(?:\.[0-9]+)?$/;
// Random per process, so that no caller's text can take the place of an amount.
const MARK = `exact-amount-${randomBytes(12).toString('hex')}:`;
const MARKED = new RegExp(`"${MARK}(-?[0-9]+(?:\\.[0-9]+)?)"`, 'g');

/** The amount of a shortest exact decimal (no exponent, no trailing zero): a number when the double prints the same. */
export function amountOfText(text: string): Amount {
  const number = Number(text);
  return String(number) === text ? number : new ExactAmount(text);
}

/**
 * JSON.stringify, every ExactAmount written as its digits: the one serializer of answers (Fastify's reply serializer,
 * get-client's cached answer, a kept Idempotency-Key answer). Without an ExactAmount it costs one scan of the text.
 */
export function exactJson(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes(MARK) ? json.replace(MARKED, '$1') : json;
}
