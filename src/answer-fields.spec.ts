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
import { storedFieldsOf } from './sms-config/sms-config-fields';

/** The properties a DTO documents (its own and those it inherits), in the order the OpenAPI document lists them. */
function documented(dto: abstract new () => unknown): string[] {
  const properties = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype) as string[];
  return properties.map((property) => property.replace(/^:/, ''));
}

const sorted = (fields: readonly string[]) => [...fields].sort();

describe('Answer fields', () => {
  it("should list the seed's fields in the seed's answers, in the order the interface shows them", () => {
    expect(CLIENT_FIELDS).toEqual(documented(ClientDto));
    expect(GET_CLIENT_SMS_CONFIG_FIELDS).toEqual(documented(SmsConfigSummaryDto));
    expect(sorted(SMS_CONFIG_LIST_FIELDS)).toEqual(sorted(documented(SmsConfigDto)));
    // Equal by content, each answer owning its list: the list's elements are get-client's with their id first.
    expect(SMS_CONFIG_LIST_FIELDS).toEqual(['smsConfigId', ...GET_CLIENT_SMS_CONFIG_FIELDS]);
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

  it('should read from the columns every field of an answer but those it gets elsewhere', () => {
    const elsewhere = (fields: readonly string[]) => fields.filter((field) => !(storedFieldsOf(fields) as string[]).includes(field));
    expect(elsewhere(GET_CLIENT_SMS_CONFIG_FIELDS)).toEqual([]);
    expect(elsewhere(SMS_CONFIG_LIST_FIELDS)).toEqual([]);
    expect(elsewhere(SMS_CONFIG_VIEW_FIELDS)).toEqual(['destinationApproved', 'destinationPrices']);
    expect(elsewhere(UPDATED_SMS_CONFIG_FIELDS)).toEqual(['destinationApproved', 'destinationPrices', 'verifyApiKey']);
    expect(elsewhere(RESOLVED_SMS_CONFIG_FIELDS)).toEqual(['password', 'apiKey', 'destinationApproved']);
    expect(elsewhere(ROUTE_CANDIDATE_FIELDS)).toEqual(['pricePrefix', 'verifyApiKey']);
  });
});
