/**
 * The product's own refusals, raised below the HTTP layer (repositories, services). Each code is given its HTTP status
 * once, in the edge's error classification.
 */
export type DomainErrorCode = 'sms-config-limit-reached' | 'sms-config-answer-budget-exceeded';

export class DomainError extends Error {
  override name = 'DomainError';

  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
  }
}
