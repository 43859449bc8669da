import { randomBytes } from 'node:crypto';

// A double prints 99999999999.99999 as 99999999999.99998; JSON.rawJSON would fix that, but only from Node 21.
export class ExactAmount {
  constructor(readonly text: string) {
    if (!DECIMAL.test(text)) throw new TypeError(`not a decimal: ${text}`);
  }

  toJSON(): string {
    return `${MARK}${this.text}`;
  }
}

export type Amount = number | ExactAmount;

const DECIMAL = /^-?[0-9]+(?:\.[0-9]+)?$/;
// Random per process, so that no caller's text can take the place of an amount.
const MARK = `exact-amount-${randomBytes(12).toString('hex')}:`;
const MARKED = new RegExp(`"${MARK}(-?[0-9]+(?:\\.[0-9]+)?)"`, 'g');

export function amountOfText(text: string): Amount {
  const number = Number(text);
  return String(number) === text ? number : new ExactAmount(text);
}

export function exactJson(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes(MARK) ? json.replace(MARKED, '$1') : json;
}
