import { inFieldOrder } from '../common/answer-fields';
import { exactJson } from '../common/exact-amount';
import { CachedClient } from '../client-cache/client-cache';
import { CLIENT_FIELDS } from './dto/client-response.dto';
import { ClientWithSmsConfigs } from './get-client.repository';

type KeptField = Exclude<(typeof CLIENT_FIELDS)[number], 'secretKey'>;
const KEY_AT = CLIENT_FIELDS.indexOf('secretKey');
const BEFORE_KEY = CLIENT_FIELDS.slice(0, KEY_AT) as KeptField[];
const AFTER_KEY = CLIENT_FIELDS.slice(KEY_AT + 1) as KeptField[];

const membersOf = (json: string): string => json.slice(1, -1);

// Split around the echoed key so the key is never cached; amounts serialized once here rather than at each hit.
export function toCachedClient(client: ClientWithSmsConfigs): CachedClient {
  const answer = { ...client, smsConfig: client.smsConfigs.length === 0 ? null : client.smsConfigs };
  const before = membersOf(exactJson(inFieldOrder(BEFORE_KEY, answer)));
  const after = membersOf(exactJson(inFieldOrder(AFTER_KEY, answer)));
  return {
    clientId: client.clientId,
    isActive: client.isActive,
    isPreviousKey: client.isPreviousKey,
    keyExpiresAt: client.keyExpiresAt,
    scopedKey: client.scopedKey,
    keyDigests: client.keyDigests,
    prefix: `{"status":200,"results":{${before}${before === '' ? '' : ','}"secretKey":"`,
    suffix: `"${after === '' ? '' : ','}${after}}}`,
  };
}
