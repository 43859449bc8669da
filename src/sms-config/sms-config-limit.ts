import { DomainError } from '../common/errors/domain.error';

/**
 * SMS configurations a client may have. The schema keeps it (the trigger of migration 1795400000000, in both dialects),
 * so that adding one is a single INSERT; sms-config-limit.spec.ts fails if the trigger and this number part.
 */
export const MAX_SMS_CONFIGS_PER_CLIENT = 100;

export function smsConfigLimitReached(): DomainError {
  return new DomainError('sms-config-limit-reached', `A client can have at most ${MAX_SMS_CONFIGS_PER_CLIENT} SMS configurations`);
}
