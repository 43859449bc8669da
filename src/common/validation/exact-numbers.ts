import { BadRequestException } from '@nestjs/common';
import { printable } from '../printable-text';
import { findInexactNumber, mayHoldInexactNumber } from './inexact-numbers';

/** The text of bodies that may hold a number a double would change: checked once the caller is authenticated. */
const unchecked = new WeakMap<object, string>();

/**
 * Called by the body parser with the parsed body and its text. The check itself waits for the validation pipe, which
 * runs after the guards: re-reading a large body number by number costs milliseconds, which a caller without a valid
 * credential must not be able to spend. Bodies without a long digit run or an exponent (almost all) cost nothing here.
 */
export function checkNumbersAfterAuthentication(body: unknown, text: string): void {
  if (body !== null && typeof body === 'object' && mayHoldInexactNumber(text)) unchecked.set(body, text);
}

/** Refuses (400, naming the field) a body holding a number that JSON.parse rounded, overflowed or underflowed. */
export function refuseInexactNumbers(body: object): void {
  const text = unchecked.get(body);
  if (text === undefined) return;
  unchecked.delete(body);
  // Refused rather than stored rounded: an amount must be kept as sent or not at all.
  const inexact = findInexactNumber(text);
  if (inexact) {
    throw new BadRequestException(
      `${printable(inexact.path) || 'Request body'} cannot be kept exactly as a number: ${printable(inexact.text)} (15 significant digits always can)`,
    );
  }
}
