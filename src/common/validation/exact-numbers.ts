import { BadRequestException } from '@nestjs/common';
import { printable, quotedFieldName } from '../printable-text';
import { findInexactNumber, mayHoldInexactNumber } from './inexact-numbers';

const unchecked = new WeakMap<object, string>();

// The check waits for the pipe, after the guards: re-reading a large body costs milliseconds, which a caller without a
// valid credential must not be able to spend.
export function checkNumbersAfterAuthentication(body: unknown, text: string): void {
  if (body !== null && typeof body === 'object' && mayHoldInexactNumber(text)) unchecked.set(body, text);
}

export function refuseInexactNumbers(body: object): void {
  const text = unchecked.get(body);
  if (text === undefined) return;
  unchecked.delete(body);
  const inexact = findInexactNumber(text);
  if (inexact) {
    throw new BadRequestException(
      `${quotedFieldName(inexact.path) || 'Request body'} cannot be kept exactly as a number: ${printable(inexact.text)} (15 significant digits always can)`,
    );
  }
}
