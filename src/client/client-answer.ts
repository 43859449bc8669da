import { exactJson } from '../common/exact-amount';
import { CachedClient } from '../client-cache/client-cache';
import { ClientWithSmsConfigs } from './client.repository';
import { ClientDto } from './dto/client-response.dto';

/**
 * The get-client answer serialized once, split around the echoed key, so the key itself is never cached:
 * `{"status":200,"results":{..."secretKey":"` + key + `"...}}`. Field order is the answer's (ClientDto); amounts as
 * their stored digits (exactJson), once here rather than at each hit.
 */
export function toCachedClient(client: ClientWithSmsConfigs): CachedClient {
  const before: Pick<ClientDto, 'appDescription' | 'appUrl'> = { appDescription: client.appDescription, appUrl: client.appUrl };
  const after: Omit<ClientDto, 'appDescription' | 'appUrl' | 'secretKey'> = {
    preferredSmsGateway: client.preferredSmsGateway,
    preferredEmailGateway: client.preferredEmailGateway,
    preferredPushNotificationGateway: client.preferredPushNotificationGateway,
    isHost: client.isHost,
    smsConfig: client.smsConfigs.length === 0 ? null : client.smsConfigs,
  };
  return {
    clientId: client.clientId,
    isActive: client.isActive,
    isPreviousKey: client.isPreviousKey,
    keyExpiresAt: client.keyExpiresAt,
    keyDigests: client.keyDigests,
    prefix: `{"status":200,"results":${JSON.stringify(before).slice(0, -1)},"secretKey":"`,
    suffix: `",${exactJson(after).slice(1)}}`,
  };
}
