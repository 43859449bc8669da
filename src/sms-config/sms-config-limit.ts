import { DomainError } from '../common/errors/domain.error';

/** SMS configurations a client may have: SmsConfigRepository.add counts them in under the client's row lock. */
export const MAX_SMS_CONFIGS_PER_CLIENT = 100;

export function smsConfigLimitReached(): DomainError {
  return new DomainError('sms-config-limit-reached', `A client can have at most ${MAX_SMS_CONFIGS_PER_CLIENT} SMS configurations`);
}
