/** What the interface promises, written once for the specs that check it. */

/** The five operations: path and the summary Swagger shows. */
export const OPERATIONS = [
  ['/api/client/add', 'Add client'],
  ['/api/client/get/secretKey', 'Get client by secret key'],
  ['/api/sms-config/add', 'Add SMS configuration'],
  ['/api/sms-config/get-all-by-client-id', 'Get SMS configurations by client'],
  ['/api/v1/rabbitmq/exchanges', 'Create exchange'],
] as const;

/** The fields of an SMS configuration inside a client (no id, never the password or apiKey), sorted. */
export const SMS_CONFIG_SUMMARY_FIELDS = [
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
].sort();

/** The fields of an SMS configuration in the list of a client's configurations, sorted. */
export const SMS_CONFIG_LIST_FIELDS = ['smsConfigId', ...SMS_CONFIG_SUMMARY_FIELDS].sort();
