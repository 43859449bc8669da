import { DECORATORS } from '@nestjs/swagger';
import { CLIENT_FIELDS, ClientDto } from './client/dto/client-response.dto';
import { ROUTE_CANDIDATE_FIELDS, ROUTE_CANDIDATE_FIELDS_WITHOUT_DESTINATION, RouteCandidateDto } from './dispatch/dto/dispatch-route.dto';
import {
  RESOLVED_SMS_CONFIG_FIELDS,
  ResolvedSmsConfigDto,
  UPDATED_SMS_CONFIG_FIELDS,
  UpdatedSmsConfigDto,
} from './sms-config/dto/sms-config-lifecycle.dto';
import {
  GET_CLIENT_SMS_CONFIG_FIELDS,
  SMS_CONFIG_LIST_FIELDS,
  SMS_CONFIG_VIEW_FIELDS,
  SmsConfigDto,
  SmsConfigSummaryDto,
  SmsConfigViewDto,
} from './sms-config/dto/sms-config-response.dto';
import { mysqlMetadataOnly } from './entities';
import { SmsConfigFields } from './sms-config/sms-config-fields';

/** The properties a DTO documents (its own and those it inherits), in the order the OpenAPI document lists them. */
function documented(dto: abstract new () => unknown): string[] {
  const properties = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype) as string[];
  return properties.map((property) => property.replace(/^:/, ''));
}

const sorted = (fields: readonly string[]) => [...fields].sort();

/** The seed's fields of a configuration, in the seed's order: its answers show these, never a field added since. */
const SEED_SMS_CONFIG_FIELDS = [
  'providerName',
  'providerUrl',
  'username',
  'senderId',
  'smsType',
  'smsApi',
  'balanceUrl',
  'balance',
  'perSmsCost',
  'isActive',
];

describe('Answer fields', () => {
  it("should show the seed's fields in the seed's answers, in the seed's order, and no field added since", () => {
    expect(CLIENT_FIELDS).toEqual([
      'appDescription',
      'appUrl',
      'secretKey',
      'preferredSmsGateway',
      'preferredEmailGateway',
      'preferredPushNotificationGateway',
      'isHost',
      'smsConfig',
    ]);
    expect(GET_CLIENT_SMS_CONFIG_FIELDS).toEqual(SEED_SMS_CONFIG_FIELDS);
    expect(SMS_CONFIG_LIST_FIELDS).toEqual(['smsConfigId', ...SEED_SMS_CONFIG_FIELDS]);
    expect(sorted(SMS_CONFIG_LIST_FIELDS)).toEqual(sorted(documented(SmsConfigDto)));
    expect(documented(SmsConfigSummaryDto)).toEqual(SEED_SMS_CONFIG_FIELDS);
    expect(documented(ClientDto)).toEqual(CLIENT_FIELDS);
  });

  it("should show the v1 read as the list's fields and then its own, PATCH's answer as the v1 read's and then its token", () => {
    expect(SMS_CONFIG_VIEW_FIELDS.slice(0, SMS_CONFIG_LIST_FIELDS.length)).toEqual(SMS_CONFIG_LIST_FIELDS);
    expect(UPDATED_SMS_CONFIG_FIELDS).toEqual([...SMS_CONFIG_VIEW_FIELDS, 'verifyApiKey']);
  });

  it("should show resolve with what a dispatcher sends by first, then the v1 read's other fields in its order", () => {
    const first = ['smsConfigId', 'clientId', 'providerName', 'providerUrl', 'smsApi', 'balanceUrl', 'username', 'password', 'apiKey'];
    expect(RESOLVED_SMS_CONFIG_FIELDS.slice(0, first.length)).toEqual(first);
    expect(RESOLVED_SMS_CONFIG_FIELDS.slice(first.length)).toEqual(
      SMS_CONFIG_VIEW_FIELDS.filter((field) => !first.includes(field) && field !== 'destinationPrices'),
    );
  });

  it.each([
    ['the v1 read', SMS_CONFIG_VIEW_FIELDS, SmsConfigViewDto],
    ["PATCH's answer", UPDATED_SMS_CONFIG_FIELDS, UpdatedSmsConfigDto],
    ['resolve', RESOLVED_SMS_CONFIG_FIELDS, ResolvedSmsConfigDto],
    ["route's candidate", ROUTE_CANDIDATE_FIELDS, RouteCandidateDto],
  ] as const)('should list in %s every field its DTO documents, and no other', (_answer, fields, dto) => {
    expect(sorted(fields)).toEqual(sorted(documented(dto)));
  });

  it('should show a route candidate without a destination with the fields it had before prices per destination, in their order', () => {
    expect(ROUTE_CANDIDATE_FIELDS_WITHOUT_DESTINATION).toEqual([
      'smsConfigId',
      'providerName',
      'smsApi',
      'senderId',
      'smsType',
      'balance',
      'perSmsCost',
      'verifyApiKey',
    ]);
  });

  it('should read from the columns every field of an answer but those it gets elsewhere', async () => {
    const stored = new SmsConfigFields(await mysqlMetadataOnly());
    const elsewhere = (fields: readonly string[]) => fields.filter((field) => !stored.storedFieldsOf(fields).includes(field));
    expect(elsewhere(GET_CLIENT_SMS_CONFIG_FIELDS)).toEqual([]);
    expect(elsewhere(SMS_CONFIG_LIST_FIELDS)).toEqual([]);
    expect(elsewhere(SMS_CONFIG_VIEW_FIELDS)).toEqual(['destinationApproved', 'destinationPrices']);
    expect(elsewhere(UPDATED_SMS_CONFIG_FIELDS)).toEqual(['destinationApproved', 'destinationPrices', 'verifyApiKey']);
    expect(elsewhere(RESOLVED_SMS_CONFIG_FIELDS)).toEqual(['password', 'apiKey', 'destinationApproved']);
    expect(elsewhere(ROUTE_CANDIDATE_FIELDS)).toEqual(['pricePrefix', 'deliveryRate', 'verifyApiKey']);
  });
});
