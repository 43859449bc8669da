// Generated from openapi.json by `npm run kit` (openapi-typescript): do not edit, regenerate.

export interface paths {
  '/api/client/add': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add client
     * @description Registers a client application and issues its secret key.
     */
    post: operations['ClientController_add'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/client/get/secretKey': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Get client by secret key
     * @description The client owning the key, with its SMS configurations.
     */
    post: operations['ClientController_getBySecretKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/clients': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List clients
     * @description A page of clients by clientId ascending; `appName` filters by prefix.
     */
    get: operations['ClientAdminController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/clients/{clientId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a client */
    get: operations['ClientAdminController_get'];
    put?: never;
    post?: never;
    /**
     * Delete a client
     * @description With its SMS configurations; its keys are unknown everywhere within 1 s.
     */
    delete: operations['ClientAdminController_delete'];
    options?: never;
    head?: never;
    /**
     * Change a client
     * @description Any non-empty subset of the fields; null clears an optional one. isActive false disables the client, true enables it.
     */
    patch: operations['ClientAdminController_update'];
    trace?: never;
  };
  '/api/v1/clients/{clientId}/secret-key/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate a client's secret key
     * @description For a leaked key: the new key works at once; send graceSeconds 0 to revoke the old one at once.
     */
    post: operations['ClientAdminController_rotate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/client/secret-key/rotate': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate my secret key
     * @description The new key works at once; the previous one keeps working until previousKeyExpiresAt (graceSeconds, default 86400), then is unknown. Only the current key may rotate; rotating again ends the earlier previous key at once.
     */
    post: operations['SecretKeyController_rotate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/client/keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List scoped keys
     * @description Never a key or its digest: keyStart tells them apart.
     */
    get: operations['ClientKeyController_list'];
    put?: never;
    /**
     * Make a scoped key
     * @description A key (rk_…) that does only what its scopes say, until expiresAt, from allowedSources: the answer is the only place it is ever shown. It works on every instance at once. A scoped key never changes: make another and delete the old one.
     */
    post: operations['ClientKeyController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/client/keys/{keyId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a scoped key
     * @description Unknown on every instance within 1 s.
     */
    delete: operations['ClientKeyController_delete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/clients/{clientId}/keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a client's scoped keys
     * @description Never a key or its digest: keyStart tells them apart.
     */
    get: operations['ClientKeyAdminController_list'];
    put?: never;
    /**
     * Make a client's scoped key
     * @description A key (rk_…) that does only what its scopes say, until expiresAt, from allowedSources: the answer is the only place it is ever shown. It works on every instance at once. A scoped key never changes: make another and delete the old one.
     */
    post: operations['ClientKeyAdminController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/clients/{clientId}/keys/{keyId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Delete a client's scoped key
     * @description Unknown on every instance within 1 s.
     */
    delete: operations['ClientKeyAdminController_delete'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sms-config/add': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Add SMS configuration
     * @description Stores an SMS provider configuration for the client of the secretKey.
     */
    post: operations['SmsConfigController_add'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sms-config/get-all-by-client-id': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Get SMS configurations by client
     * @description The SMS configurations of the client of the secretKey, ordered by smsConfigId. Body: none, {} or {"clientId": n}.
     */
    post: operations['SmsConfigController_list'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/sms-configs/resolve': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Resolve provider credentials
     * @description For the SMS dispatcher only: the configuration a verifyApiKey names, with its password and apiKey. Every resolution is audited.
     */
    post: operations['CredentialResolutionController_resolve'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/sms-configs/{smsConfigId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get an SMS configuration
     * @description The fields of the list answer; never the password or apiKey.
     */
    get: operations['SmsConfigLifecycleController_get'];
    put?: never;
    post?: never;
    /** Delete an SMS configuration */
    delete: operations['SmsConfigLifecycleController_delete'];
    options?: never;
    head?: never;
    /**
     * Change an SMS configuration
     * @description Any non-empty subset of the add fields except clientId; null clears an optional one. A new password or apiKey replaces the stored one (never returned). A change of smsApi, providerUrl, balanceUrl or username must send every stored credential again (password, and apiKey when one is stored), else 400 and nothing changes. A change of any of those six makes every earlier verifyApiKey stale. Answers the configuration and a fresh verifyApiKey.
     */
    patch: operations['SmsConfigLifecycleController_update'];
    trace?: never;
  };
  '/api/v1/sms-configs/{smsConfigId}/verify-api-key': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Issue a fresh verifyApiKey
     * @description A new token under the newest encryption key, for the configuration as stored, living as long as the secretKey that asked for it: after a rotation, ask again with the new key within the grace. The stored credentials do not change; older tokens keep working while their encryption key is configured, their secretKey authenticates and the credentials are unchanged.
     */
    post: operations['SmsConfigLifecycleController_issueVerifyApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/provider-hosts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List approved provider hosts
     * @description A page of hosts by providerHostId ascending.
     */
    get: operations['ProviderHostController_list'];
    put?: never;
    /**
     * Approve a provider host
     * @description Route offers, and resolve answers, only configurations whose smsApi, providerUrl and balanceUrl hosts are approved; the change applies on every instance within 1 s.
     */
    post: operations['ProviderHostController_approve'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/provider-hosts/{providerHostId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove an approved provider host
     * @description Configurations sending there are skipped within 1 s.
     */
    delete: operations['ProviderHostController_remove'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dispatch/route': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Which SMS configurations to send through now
     * @description For the SMS dispatcher, with the client's secretKey: the client's usable configurations in the order to try them, each with a fresh verifyApiKey to resolve for the one used, and every other configuration with the reason it is skipped. With a destination, each configuration is priced for it (destinationPrices, longest prefix first, else perSmsCost). Read from the database at every call: a report or a change on any instance shows at once. Never a secret.
     */
    post: operations['DispatchController_route'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/dispatch/outcomes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Report what sending through a configuration did
     * @description For the SMS dispatcher: messages sent and failed through one configuration since the last report (a batch); a report must give one count >= 1 (sent, failed, delivered, undelivered, codesSent or verified) or balance. The balance goes down by exactly perSmsCost × sent (the price at destination when one is given), or is set to the provider's own figure when balance is given; a send makes the configuration healthy, and 5 failures in a row make it unhealthy for DISPATCH_UNHEALTHY_MS. Crossings publish sms-config.balance-low, sms-config.unhealthy and sms-config.healthy, once each, and a balance given publishes sms-config.balance-set. Send an Idempotency-Key with each batch: a retry of it is answered again and counted once. With destination, the receipts (delivered, undelivered) count toward the deliveryRate route shows and orders by, and sent, codesSent and verified toward the client's pumping guard per destination range (client.pumping-suspected, client.pumping-blocked); they move no balance, health or daily sum. Without destination, only metrics count them.
     */
    post: operations['DispatchController_report'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/rabbitmq/exchanges': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create exchange
     * @description Declares a durable RabbitMQ exchange; declaring it again with the same type succeeds.
     */
    post: operations['BrokerController_create'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Readiness: 200 while the database answers; the broker is reported, not required */
    get: operations['HealthController_check'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Prometheus metrics (text exposition format) */
    get: operations['MetricsController_index'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/audit-events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List audit events
     * @description Every change and every credential resolution, newest first; filter by clientId and action.
     */
    get: operations['AuditController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/pumping-ranges': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List suspicions of SMS pumping
     * @description Each suspicion of a client's range, newest first: a new one after a lift or an expiry. Its counts are the window's when it began. standing=true: until in the future and not lifted; false: the others.
     */
    get: operations['PumpingRangeController_list'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/pumping-ranges/{pumpingRangeId}/lift': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Lift a suspicion of SMS pumping
     * @description Ends a standing suspicion (liftedAt now, until unchanged) and deletes the range's counts: route sends to the range again on every instance within 1 s, and a new signal starts a new suspicion. Audited and published as client.pumping-lifted.
     */
    post: operations['PumpingRangeController_lift'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    ErrorResponseDto: {
      /**
       * @description Mirrors the HTTP status
       * @example 400
       */
      status: number;
      /** @example appName must be a string; isHost must be a boolean value */
      error: string;
    };
    AddClientDto: {
      /** @example Billing */
      appName: string;
      /**
       * Format: uri
       * @description Its host a DNS name or an IP address in its usual form (a host written as one number, such as 2130706433, is refused). Without a user name or password (user:pass@)
       * @example https://billing.example.com
       */
      appUrl: string;
      /** @example Sends invoices */
      appDescription?: string | null;
      /** @example twilio */
      preferredSmsGateway?: string | null;
      /**
       * @description A JSON boolean; the string "true" is refused
       * @example false
       */
      isHost: boolean;
    };
    SmsConfigSummaryDto: {
      /** @example twilio */
      providerName: string;
      providerUrl: string | null;
      username: string | null;
      senderId: string | null;
      /** @example Transactional */
      smsType: string | null;
      /** @example https://api.twilio.com/send */
      smsApi: string;
      balanceUrl: string | null;
      /** @example 12.5 */
      balance: number;
      /** @example 0.0125 */
      perSmsCost: number;
      isActive: boolean;
    };
    ClientDto: {
      appDescription: string | null;
      /** @example https://billing.example.com */
      appUrl: string;
      /**
       * @description Identifies the client in later calls
       * @example sk_3q2-7wEh8yQ0m1c9tXv5bJ4n6kP2rL8sD0fG1hJ2kL3
       */
      secretKey: string;
      preferredSmsGateway: string | null;
      /** @description No operation sets it yet */
      preferredEmailGateway: string | null;
      /** @description No operation sets it yet */
      preferredPushNotificationGateway: string | null;
      isHost: boolean;
      /** @description null while the client has no SMS configuration; else ordered by smsConfigId */
      smsConfig: components['schemas']['SmsConfigSummaryDto'][] | null;
    };
    ClientResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['ClientDto'];
    };
    EmptyBodyDto: Record<string, never>;
    AdminClientDto: {
      /** @example 7 */
      clientId: number;
      /** @example Billing */
      appName: string;
      appDescription: string | null;
      /** @example https://billing.example.com */
      appUrl: string;
      preferredSmsGateway: string | null;
      preferredEmailGateway: string | null;
      preferredPushNotificationGateway: string | null;
      isHost: boolean;
      /** @description false: the client's keys are refused with 403 Client is disabled */
      isActive: boolean;
      /** @example 2 */
      smsConfigCount: number;
      /** @example 2026-11-24T10:15:30.123Z */
      createdAt: string;
      /** @example 2026-11-24T10:15:30.123Z */
      updatedAt: string;
      /** @example null */
      secretKeyRotatedAt: string | null;
      /**
       * @description When the current key was last used, as the instances wrote it (every KEY_USAGE_FLUSH_MS); null: not since it was made
       * @example 2026-11-24T10:15:30.123Z
       */
      secretKeyLastUsedAt: string | null;
      /**
       * @description The caller's address at the key's last direct use (after TRUST_PROXY, without a port a proxy appended, the full address; an IPv4-mapped one as IPv4): a route call, made from the dispatcher's address, moves secretKeyLastUsedAt only. One address a key a flush interval, the latest. null: not used since it was made, or last used before the service kept it
       * @example 203.0.113.7
       */
      secretKeyLastUsedFrom: string | null;
      /**
       * @description When the previous key (during a rotation’s grace) was last used; null when there is none, or it was not used
       * @example null
       */
      previousSecretKeyLastUsedAt: string | null;
      /**
       * @description The caller's address at the previous key's last use, as secretKeyLastUsedFrom; null when there is none, or it was not used
       * @example null
       */
      previousSecretKeyLastUsedFrom: string | null;
      /**
       * @description When the previous key stops working; null when there is none
       * @example null
       */
      previousKeyExpiresAt: string | null;
      /**
       * @description E.164 prefixes without + (1 to 7 digits, at most 300, in the order given): route then requires a destination that one of them starts (else 400 without one, 403 outside them). Null: any destination. Prefix 1 admits every country of the North American plan, its Caribbean premium-rate ranges included
       * @example [
       *       "44",
       *       "33"
       *     ]
       */
      allowedDestinations: string[] | null;
      /**
       * @description Route skips each configuration whose price × count would take spentToday past it (reason spend-limit). Prices are the client's own to set, so a leaked secretKey can price every message at 0: only dailySmsLimit holds against that. Null: no limit
       * @example 250
       */
      dailySpendLimit: number | null;
      /**
       * @description Route skips every configuration when sentToday + count would pass it (reason sms-limit), whatever the prices. Null: no limit
       * @example 20000
       */
      dailySmsLimit: number | null;
      /**
       * @description The exact sum of price × sent over the client's outcome reports since 00:00 UTC, whether or not a report also set a balance
       * @example 12.5
       */
      spentToday: number;
      /**
       * @description The sum of sent over the client's outcome reports since 00:00 UTC
       * @example 500
       */
      sentToday: number;
      /**
       * @description off: no pumping counts are kept for the client. monitor: a range whose messages jump (velocity) or whose codes are not entered (conversion) is suspected, audited and published as client.pumping-suspected, and nothing is refused. block: as monitor, published as client.pumping-blocked, and route refuses a suspected range with 403 until the suspicion ends or is lifted (POST /api/v1/pumping-ranges/{pumpingRangeId}/lift)
       * @example monitor
       * @enum {string}
       */
      pumpingGuard: 'off' | 'monitor' | 'block';
      /**
       * @description false: route refuses with 403 a destination that is a premium-rate or shared-cost number (by libphonenumber-js metadata; an untyped number passes). true: route sends to them
       * @example false
       */
      allowPremiumNumbers: boolean;
    };
    AdminClientPageDto: {
      /** @description By clientId ascending */
      items: components['schemas']['AdminClientDto'][];
      /** @description Pass as ?cursor= for the next page; null on the last page */
      nextCursor: string | null;
    };
    AdminClientPageResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['AdminClientPageDto'];
    };
    AdminClientResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['AdminClientDto'];
    };
    UpdateClientDto: {
      appName?: string;
      appDescription?: string | null;
      /**
       * Format: uri
       * @description Its host a DNS name or an IP address in its usual form (a host written as one number, such as 2130706433, is refused). Without a user name or password (user:pass@)
       */
      appUrl?: string;
      preferredSmsGateway?: string | null;
      preferredEmailGateway?: string | null;
      preferredPushNotificationGateway?: string | null;
      /** @description A JSON boolean */
      isHost?: boolean;
      /** @description false disables the client (its keys get 403 within 1 s on every instance); true enables it */
      isActive?: boolean;
      /**
       * @description E.164 prefixes without + (1 to 7 digits, at most 300, in the order given): route then requires a destination that one of them starts (else 400 without one, 403 outside them). Null: any destination. Prefix 1 admits every country of the North American plan, its Caribbean premium-rate ranges included; null admits any again
       * @example [
       *       "44",
       *       "33"
       *     ]
       */
      allowedDestinations?: string[] | null;
      /** @description Route skips each configuration whose price × count would take spentToday past it (reason spend-limit). Prices are the client's own to set, so a leaked secretKey can price every message at 0: only dailySmsLimit holds against that. Null: no limit. At most 6 decimal places, and kept exactly as sent: a number a double would change (more than 15 significant digits, such as 8589934592.000001) is refused with 400 */
      dailySpendLimit?: number | null;
      /** @description Route skips every configuration when sentToday + count would pass it (reason sms-limit), whatever the prices. Null: no limit */
      dailySmsLimit?: number | null;
      /**
       * @description off: no pumping counts are kept for the client. monitor: a range whose messages jump (velocity) or whose codes are not entered (conversion) is suspected, audited and published as client.pumping-suspected, and nothing is refused. block: as monitor, published as client.pumping-blocked, and route refuses a suspected range with 403 until the suspicion ends or is lifted (POST /api/v1/pumping-ranges/{pumpingRangeId}/lift). Null is refused
       * @enum {string}
       */
      pumpingGuard?: 'off' | 'monitor' | 'block';
      /** @description A JSON boolean. false: route refuses with 403 a destination that is a premium-rate or shared-cost number (by libphonenumber-js metadata; an untyped number passes). true: route sends to them. Null is refused */
      allowPremiumNumbers?: boolean;
    };
    DeletedClientDto: {
      /** @example 7 */
      clientId: number;
      /** @example true */
      deleted: boolean;
    };
    DeletedClientResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['DeletedClientDto'];
    };
    RotateSecretKeyDto: {
      /**
       * @description How long the previous key keeps working; 0 revokes it at once
       * @default 86400
       */
      graceSeconds?: number;
      /**
       * @description true deletes every scoped key of the client in the same change, each audited and published as client.key-deleted: after a leak, with graceSeconds 0, it ends every key a thief may have made
       * @default false
       */
      deleteScopedKeys?: boolean;
    };
    RotatedSecretKeyDto: {
      /**
       * @description The new key; it works at once
       * @example sk_3q2-7wEh8yQ0m1c9tXv5bJ4n6kP2rL8sD0fG1hJ2kL3
       */
      secretKey: string;
      /**
       * @description When the previous key stops working (ISO-8601 UTC); null when graceSeconds was 0
       * @example 2026-11-25T10:15:30.123Z
       */
      previousKeyExpiresAt: string | null;
    };
    RotatedSecretKeyResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['RotatedSecretKeyDto'];
    };
    CreateClientKeyDto: {
      /**
       * @description Who holds the key, for the people who read the list; need not be unique
       * @example billing-service
       */
      name: string;
      /**
       * @description What the key may do: client:read (get-client, the list and reads of SMS configurations), sms-config:write (add, change, delete and verify-api-key of SMS configurations), dispatch (route, beside the dispatcher key). Answered in that order
       * @example [
       *       "client:read"
       *     ]
       */
      scopes: ('client:read' | 'sms-config:write' | 'dispatch')[];
      /**
       * @description When the key stops working: an RFC 3339 instant with Z or an offset and at most 3 fraction digits, 60 s to 366 days ahead; null or absent: never
       * @example 2027-05-01T00:00:00Z
       */
      expiresAt?: string | null;
      /**
       * @description The addresses and networks the key may be used from (after TRUST_PROXY): IPv4 in four-part decimal, IPv6 in any spelling, each with an optional prefix (/8 to /32, /7 to /128) and no bits set below it; no IPv4-mapped IPv6 address; each network once. null or absent: any address. Not for a key whose only scope is dispatch, which the dispatcher presents from its own address
       * @example [
       *       "203.0.113.0/24",
       *       "2001:db8::/48"
       *     ]
       */
      allowedSources?: string[] | null;
    };
    CreatedClientKeyDto: {
      /** @example 3 */
      keyId: number;
      /** @example billing-service */
      name: string;
      /**
       * @example [
       *       "client:read"
       *     ]
       */
      scopes: ('client:read' | 'sms-config:write' | 'dispatch')[];
      /**
       * @description When the key stops working, in UTC; null: never
       * @example 2027-05-01T00:00:00.000Z
       */
      expiresAt: string | null;
      /**
       * @description IPv4 as given, IPv6 in RFC 5952 form; null: any address
       * @example [
       *       "203.0.113.0/24"
       *     ]
       */
      allowedSources: string[] | null;
      /** @example 2026-11-29T10:15:30.123Z */
      createdAt: string;
      /**
       * @description The key: shown here once, and kept only as its digest. rk_, 40 base62 characters and a 6-character checksum
       * @example rk_0Vb1jQ8sXr4LmT2yKw9ZpA7cN3dF5gH6uE1iO0aa2Ahk1c
       */
      secretKey: string;
    };
    CreatedClientKeyResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['CreatedClientKeyDto'];
    };
    ListedClientKeyDto: {
      /** @example 3 */
      keyId: number;
      /** @example billing-service */
      name: string;
      /**
       * @example [
       *       "client:read"
       *     ]
       */
      scopes: ('client:read' | 'sms-config:write' | 'dispatch')[];
      /**
       * @description When the key stops working, in UTC; null: never
       * @example 2027-05-01T00:00:00.000Z
       */
      expiresAt: string | null;
      /**
       * @description IPv4 as given, IPv6 in RFC 5952 form; null: any address
       * @example [
       *       "203.0.113.0/24"
       *     ]
       */
      allowedSources: string[] | null;
      /** @example 2026-11-29T10:15:30.123Z */
      createdAt: string;
      /**
       * @description rk_ and the next 4 characters of the key, to tell keys apart
       * @example rk_0Vb1
       */
      keyStart: string;
      /**
       * @description Last use, noted within the flush interval
       * @example 2026-11-29T11:02:00.000Z
       */
      lastUsedAt: string | null;
      /**
       * @description The address of that use (a route call leaves it)
       * @example 203.0.113.7
       */
      lastUsedFrom: string | null;
      /**
       * @description Past expiresAt: unknown everywhere, listed until deleted, and still counted in the 20
       * @example false
       */
      expired: boolean;
    };
    ClientKeyPageDto: {
      /** @description By keyId ascending */
      items: components['schemas']['ListedClientKeyDto'][];
      /** @description Pass as ?cursor= for the next page; null on the last page */
      nextCursor: string | null;
    };
    ClientKeyPageResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['ClientKeyPageDto'];
    };
    DeletedClientKeyDto: {
      /** @example 3 */
      keyId: number;
      /** @example true */
      deleted: boolean;
    };
    DeletedClientKeyResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['DeletedClientKeyDto'];
    };
    DestinationPriceDto: {
      /**
       * @description An E.164 prefix without +: the destinations whose digits start with it
       * @example 447
       */
      prefix: string;
      /**
       * @description The price of one SMS to those destinations, at most 6 decimal places, kept exactly
       * @example 0.0425
       */
      perSmsCost: number;
    };
    AddSmsConfigDto: {
      /**
       * @description Must be the id of the secretKey's client; null: not given
       * @example 1
       */
      clientId?: number | null;
      /** @example twilio */
      providerName: string;
      /**
       * Format: uri
       * @description The provider's send endpoint. Its host a DNS name or an IP address in its usual form (a host written as one number, such as 2130706433, is refused). Without a user name or password (user:pass@). Without a backslash, a control character or whitespace, on which URL parsers disagree about the host. A private, loopback, link-local or other non-public address, or a name that is never public (localhost, internal, local, localdomain, home.arpa, arpa, onion, alt, svc, cluster.local, lan, intranet, corp, nip.io, sslip.io, xip.io, lvh.me, vcap.me, localtest.me, localhost.direct, traefik.me, local.gd, 1u.ms, and any name under them), is refused unless ALLOW_PRIVATE_PROVIDER_HOSTS=true. Names are not resolved: a public name that answers a private address (DNS rebinding) is for the sender to refuse once it resolves it
       * @example https://api.twilio.com/send
       */
      smsApi: string;
      /**
       * Format: uri
       * @description The provider portal. Its host a DNS name or an IP address in its usual form (a host written as one number, such as 2130706433, is refused). Without a user name or password (user:pass@). Without a backslash, a control character or whitespace, on which URL parsers disagree about the host. A private, loopback, link-local or other non-public address, or a name that is never public (localhost, internal, local, localdomain, home.arpa, arpa, onion, alt, svc, cluster.local, lan, intranet, corp, nip.io, sslip.io, xip.io, lvh.me, vcap.me, localtest.me, localhost.direct, traefik.me, local.gd, 1u.ms, and any name under them), is refused unless ALLOW_PRIVATE_PROVIDER_HOSTS=true. Names are not resolved: a public name that answers a private address (DNS rebinding) is for the sender to refuse once it resolves it
       * @example https://twilio.com
       */
      providerUrl?: string | null;
      /**
       * Format: uri
       * @description Its host a DNS name or an IP address in its usual form (a host written as one number, such as 2130706433, is refused). Without a user name or password (user:pass@). Without a backslash, a control character or whitespace, on which URL parsers disagree about the host. A private, loopback, link-local or other non-public address, or a name that is never public (localhost, internal, local, localdomain, home.arpa, arpa, onion, alt, svc, cluster.local, lan, intranet, corp, nip.io, sslip.io, xip.io, lvh.me, vcap.me, localtest.me, localhost.direct, traefik.me, local.gd, 1u.ms, and any name under them), is refused unless ALLOW_PRIVATE_PROVIDER_HOSTS=true. Names are not resolved: a public name that answers a private address (DNS rebinding) is for the sender to refuse once it resolves it
       * @example https://api.twilio.com/balance
       */
      balanceUrl?: string | null;
      /** @description Login name at the provider */
      username?: string | null;
      /** @description Stored encrypted; never returned. null is refused */
      password?: string;
      /** @description Stored encrypted; never returned. null is refused */
      apiKey?: string;
      /** @example ACME */
      senderId?: string | null;
      /**
       * @description Free text; usually Transactional or Promotional
       * @example Transactional
       */
      smsType?: string | null;
      /**
       * @description At most 6 decimal places, and kept exactly as sent: a number a double would change (more than 15 significant digits, such as 8589934592.000001) is refused with 400
       * @default 0
       * @example 12.5
       */
      balance?: number | null;
      /**
       * @description At most 6 decimal places, and kept exactly as sent: a number a double would change (more than 15 significant digits, such as 8589934592.000001) is refused with 400
       * @default 0
       * @example 0.0125
       */
      perSmsCost?: number | null;
      /**
       * @description A dispatch report that takes the balance below it publishes sms-config.balance-low, once until the balance is back at it or above; null: none. At most 6 decimal places, and kept exactly as sent: a number a double would change (more than 15 significant digits, such as 8589934592.000001) is refused with 400
       * @default null
       * @example 5
       */
      lowBalanceThreshold?: number | null;
      /** @description Prices per destination: at most 300 entries, each prefix once, and at most 3000 over all of the client's configurations (409 past it). Dispatch prices a destination at the entry with the longest prefix its digits start with, else at perSmsCost. null or []: none */
      destinationPrices?: components['schemas']['DestinationPriceDto'][] | null;
      /**
       * @description null: not given (true)
       * @default true
       */
      isActive?: boolean | null;
    };
    VerifyApiKeyDto: {
      /** @description Opaque token sealed by the server over the configuration, its client and its apiKey */
      verifyApiKey: string;
    };
    AddSmsConfigResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['VerifyApiKeyDto'];
    };
    ClientIdDto: {
      /**
       * @description Must be the id of the secretKey's client; null: not given
       * @example 1
       */
      clientId?: number | null;
    };
    SmsConfigDto: {
      /** @example twilio */
      providerName: string;
      providerUrl: string | null;
      username: string | null;
      senderId: string | null;
      /** @example Transactional */
      smsType: string | null;
      /** @example https://api.twilio.com/send */
      smsApi: string;
      balanceUrl: string | null;
      /** @example 12.5 */
      balance: number;
      /** @example 0.0125 */
      perSmsCost: number;
      isActive: boolean;
      /** @example 1 */
      smsConfigId: number;
    };
    SmsConfigListResponseDto: {
      /** @example 200 */
      status: number;
      /** @description Ordered by smsConfigId ascending */
      results: components['schemas']['SmsConfigDto'][];
    };
    ResolveCredentialsDto: {
      /** @description The token from add, change or verify-api-key, exactly as it was issued: any other text is refused */
      verifyApiKey: string;
    };
    ResolvedSmsConfigDto: {
      /** @example twilio */
      providerName: string;
      providerUrl: string | null;
      username: string | null;
      senderId: string | null;
      /** @example Transactional */
      smsType: string | null;
      /** @example https://api.twilio.com/send */
      smsApi: string;
      balanceUrl: string | null;
      /** @example 12.5 */
      balance: number;
      /** @example 0.0125 */
      perSmsCost: number;
      isActive: boolean;
      /** @example 1 */
      smsConfigId: number;
      /**
       * @description A dispatch report that takes the balance below it publishes sms-config.balance-low (once per crossing); null: none
       * @example 5
       */
      lowBalanceThreshold: number | null;
      /** @description Whether the hosts of smsApi, providerUrl and balanceUrl are all approved provider hosts (GET /api/v1/provider-hosts): false, dispatch route skips it (unapproved) and resolve refuses it with 409 */
      destinationApproved: boolean;
      /** @example 7 */
      clientId: number;
      /** @description The provider password, opened */
      password: string | null;
      /** @description The provider apiKey, opened */
      apiKey: string | null;
    };
    ResolvedSmsConfigResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['ResolvedSmsConfigDto'];
    };
    SmsConfigViewDto: {
      /** @example twilio */
      providerName: string;
      providerUrl: string | null;
      username: string | null;
      senderId: string | null;
      /** @example Transactional */
      smsType: string | null;
      /** @example https://api.twilio.com/send */
      smsApi: string;
      balanceUrl: string | null;
      /** @example 12.5 */
      balance: number;
      /** @example 0.0125 */
      perSmsCost: number;
      isActive: boolean;
      /** @example 1 */
      smsConfigId: number;
      /**
       * @description A dispatch report that takes the balance below it publishes sms-config.balance-low (once per crossing); null: none
       * @example 5
       */
      lowBalanceThreshold: number | null;
      /** @description Whether the hosts of smsApi, providerUrl and balanceUrl are all approved provider hosts (GET /api/v1/provider-hosts): false, dispatch route skips it (unapproved) and resolve refuses it with 409 */
      destinationApproved: boolean;
      /** @description Prices per destination prefix, in the order given; null: none (every destination at perSmsCost) */
      destinationPrices: components['schemas']['DestinationPriceDto'][] | null;
    };
    SmsConfigResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['SmsConfigViewDto'];
    };
    UpdateSmsConfigDto: {
      providerName?: string;
      /**
       * Format: uri
       * @description Its host a DNS name or an IP address in its usual form (a host written as one number, such as 2130706433, is refused). Without a user name or password (user:pass@). Without a backslash, a control character or whitespace, on which URL parsers disagree about the host. A private, loopback, link-local or other non-public address, or a name that is never public (localhost, internal, local, localdomain, home.arpa, arpa, onion, alt, svc, cluster.local, lan, intranet, corp, nip.io, sslip.io, xip.io, lvh.me, vcap.me, localtest.me, localhost.direct, traefik.me, local.gd, 1u.ms, and any name under them), is refused unless ALLOW_PRIVATE_PROVIDER_HOSTS=true. Names are not resolved: a public name that answers a private address (DNS rebinding) is for the sender to refuse once it resolves it
       */
      smsApi?: string;
      /**
       * Format: uri
       * @description Its host a DNS name or an IP address in its usual form (a host written as one number, such as 2130706433, is refused). Without a user name or password (user:pass@). Without a backslash, a control character or whitespace, on which URL parsers disagree about the host. A private, loopback, link-local or other non-public address, or a name that is never public (localhost, internal, local, localdomain, home.arpa, arpa, onion, alt, svc, cluster.local, lan, intranet, corp, nip.io, sslip.io, xip.io, lvh.me, vcap.me, localtest.me, localhost.direct, traefik.me, local.gd, 1u.ms, and any name under them), is refused unless ALLOW_PRIVATE_PROVIDER_HOSTS=true. Names are not resolved: a public name that answers a private address (DNS rebinding) is for the sender to refuse once it resolves it
       */
      providerUrl?: string | null;
      /**
       * Format: uri
       * @description Its host a DNS name or an IP address in its usual form (a host written as one number, such as 2130706433, is refused). Without a user name or password (user:pass@). Without a backslash, a control character or whitespace, on which URL parsers disagree about the host. A private, loopback, link-local or other non-public address, or a name that is never public (localhost, internal, local, localdomain, home.arpa, arpa, onion, alt, svc, cluster.local, lan, intranet, corp, nip.io, sslip.io, xip.io, lvh.me, vcap.me, localtest.me, localhost.direct, traefik.me, local.gd, 1u.ms, and any name under them), is refused unless ALLOW_PRIVATE_PROVIDER_HOSTS=true. Names are not resolved: a public name that answers a private address (DNS rebinding) is for the sender to refuse once it resolves it
       */
      balanceUrl?: string | null;
      username?: string | null;
      /** @description Replaces the sealed password (never returned); null removes it. Required, with a stored apiKey, to change smsApi, providerUrl, balanceUrl or username. Earlier verifyApiKey tokens turn stale */
      password?: string | null;
      /** @description Replaces the sealed apiKey (never returned); null removes it. Earlier verifyApiKey tokens turn stale */
      apiKey?: string | null;
      senderId?: string | null;
      smsType?: string | null;
      /** @description At most 6 decimal places, and kept exactly as sent: a number a double would change (more than 15 significant digits, such as 8589934592.000001) is refused with 400 */
      balance?: number | null;
      /** @description At most 6 decimal places, and kept exactly as sent: a number a double would change (more than 15 significant digits, such as 8589934592.000001) is refused with 400 */
      perSmsCost?: number | null;
      /** @description A dispatch report that takes the balance below it publishes sms-config.balance-low, once until the balance is back at it or above; null: none. At most 6 decimal places, and kept exactly as sent: a number a double would change (more than 15 significant digits, such as 8589934592.000001) is refused with 400 */
      lowBalanceThreshold?: number | null;
      /** @description Prices per destination: at most 300 entries, each prefix once, and at most 3000 over all of the client's configurations (409 past it). Dispatch prices a destination at the entry with the longest prefix its digits start with, else at perSmsCost. null or []: none. Replaces the list whole */
      destinationPrices?: components['schemas']['DestinationPriceDto'][] | null;
      /** @description null sets it back to true */
      isActive?: boolean | null;
    };
    UpdatedSmsConfigDto: {
      /** @example twilio */
      providerName: string;
      providerUrl: string | null;
      username: string | null;
      senderId: string | null;
      /** @example Transactional */
      smsType: string | null;
      /** @example https://api.twilio.com/send */
      smsApi: string;
      balanceUrl: string | null;
      /** @example 12.5 */
      balance: number;
      /** @example 0.0125 */
      perSmsCost: number;
      isActive: boolean;
      /** @example 1 */
      smsConfigId: number;
      /**
       * @description A dispatch report that takes the balance below it publishes sms-config.balance-low (once per crossing); null: none
       * @example 5
       */
      lowBalanceThreshold: number | null;
      /** @description Whether the hosts of smsApi, providerUrl and balanceUrl are all approved provider hosts (GET /api/v1/provider-hosts): false, dispatch route skips it (unapproved) and resolve refuses it with 409 */
      destinationApproved: boolean;
      /** @description Prices per destination prefix, in the order given; null: none (every destination at perSmsCost) */
      destinationPrices: components['schemas']['DestinationPriceDto'][] | null;
      /** @description A fresh token for the configuration as it now is */
      verifyApiKey: string;
    };
    UpdatedSmsConfigResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['UpdatedSmsConfigDto'];
    };
    DeletedSmsConfigDto: {
      /** @example 12 */
      smsConfigId: number;
      /** @example true */
      deleted: boolean;
    };
    DeletedSmsConfigResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['DeletedSmsConfigDto'];
    };
    ProviderHostDto: {
      /** @example 1 */
      providerHostId: number;
      /** @example api.provider.com */
      host: string;
      /** @example Twilio, contract 2026-114 */
      note: string | null;
      /** @example 2026-11-24T10:15:30.123Z */
      createdAt: string;
    };
    ProviderHostPageDto: {
      /** @description By providerHostId ascending */
      items: components['schemas']['ProviderHostDto'][];
      /** @description Pass as ?cursor= for the next page; null on the last page */
      nextCursor: string | null;
    };
    ProviderHostPageResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['ProviderHostPageDto'];
    };
    ApproveProviderHostDto: {
      /**
       * @description A DNS name (upper case and Unicode converted as in URLs, a trailing dot removed), *. and a name (every name under it, not the name itself; not over a public suffix such as *.com or *.co.uk), or an IP address (IPv6 without brackets). No scheme, port or path: they are not part of the approval. A private, loopback, link-local or other non-public address, or a name that is never public (localhost, internal, local, localdomain, home.arpa, arpa, onion, alt, svc, cluster.local, lan, intranet, corp, nip.io, sslip.io, xip.io, lvh.me, vcap.me, localtest.me, localhost.direct, traefik.me, local.gd, 1u.ms, and any name under them), is refused unless ALLOW_PRIVATE_PROVIDER_HOSTS=true. Names are not resolved: a public name that answers a private address (DNS rebinding) is for the sender to refuse once it resolves it
       * @example api.provider.com
       */
      host: string;
      /** @example Twilio, contract 2026-114 */
      note?: string | null;
    };
    ProviderHostResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['ProviderHostDto'];
    };
    DeletedProviderHostDto: {
      /** @example 1 */
      providerHostId: number;
      /** @example true */
      deleted: boolean;
    };
    DeletedProviderHostResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['DeletedProviderHostDto'];
    };
    RouteRequestDto: {
      /**
       * @description Only configurations of this smsType (case-insensitive)
       * @example Transactional
       */
      smsType?: string | null;
      /**
       * @description Messages about to be sent: a usable configuration has a balance of at least perSmsCost × count
       * @default 1
       */
      count?: number;
      /**
       * @description Where the messages go: every configuration is priced for it (its destinationPrices entry of the longest prefix the number's digits start with, else its perSmsCost), and candidates are ordered, checked against their balance and shown at that price. It must be a possible number in its E.164 form: a known calling code, a length possible for its country, and no other spelling of the number (no trunk 0 after the calling code: +447400123456, not +4407400123456)
       * @example +447700900123
       */
      destination?: string | null;
    };
    RouteCandidateDto: {
      /** @example 12 */
      smsConfigId: number;
      /** @example twilio */
      providerName: string;
      /** @example https://api.twilio.com/send */
      smsApi: string;
      senderId: string | null;
      /** @example Transactional */
      smsType: string | null;
      /** @example 12.5 */
      balance: number;
      /**
       * @description The price of one message, at the destination when one was given
       * @example 0.0125
       */
      perSmsCost: number;
      /**
       * @description Only when a destination was given: the destinationPrices prefix that priced it, or null for perSmsCost
       * @example 447
       */
      pricePrefix?: string | null;
      /**
       * @description Only when a destination was given: delivered ÷ (delivered + undelivered) of the receipts reported for this configuration at the destination's calling code over DELIVERY_RATE_WINDOW_MS, floored to 4 decimals; null under DELIVERY_RATE_MIN_RECEIPTS receipts or for a calling code no country has. Under DELIVERY_RATE_DEMOTE_BELOW the candidate comes after the others
       * @example 0.9625
       */
      deliveryRate?: number | null;
      /** @description Resolve it (POST /api/v1/sms-configs/resolve) for the candidate used */
      verifyApiKey: string;
    };
    SkippedSmsConfigDto: {
      /** @example 13 */
      smsConfigId: number;
      /**
       * @description The first that applies, in this order: inactive (isActive false), unapproved (its host is not an approved provider destination), smsType (another type was asked), sms-limit (the client's sentToday + count would pass its dailySmsLimit), spend-limit (the client's spentToday + price × count would pass its dailySpendLimit), unhealthy (5 failures in a row, for DISPATCH_UNHEALTHY_MS), balance (under price × count)
       * @enum {string}
       */
      reason: 'inactive' | 'unapproved' | 'smsType' | 'sms-limit' | 'spend-limit' | 'unhealthy' | 'balance';
    };
    RouteDto: {
      /** @example 7 */
      clientId: number;
      /** @description In the order to try them: the client's preferredSmsGateway (case-insensitive) first, then lower perSmsCost, higher balance, lower smsConfigId (each cost at the destination when one was given); with a destination, those whose deliveryRate is under DELIVERY_RATE_DEMOTE_BELOW come after the others, in the same order (a demoted preferred gateway is no longer first); a configuration offered again after being unhealthy comes last. Empty when none is usable */
      candidates: components['schemas']['RouteCandidateDto'][];
      /** @description Every other configuration of the client, by smsConfigId */
      skipped: components['schemas']['SkippedSmsConfigDto'][];
    };
    RouteResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['RouteDto'];
    };
    OutcomeReportDto: {
      /** @example 12 */
      smsConfigId: number;
      /**
       * @description Messages the provider accepted: the balance goes down by perSmsCost × sent, and one send makes it healthy
       * @example 40
       */
      sent: number;
      /**
       * @description Messages the provider failed: 5 in a row, with no send between, make it unhealthy
       * @example 0
       */
      failed: number;
      /**
       * @description Delivery receipts the provider gave as delivered: with destination, they count toward the configuration's deliveryRate at the destination's calling code (route's candidates); they move no balance, health or daily sum
       * @default 0
       * @example 38
       */
      delivered?: number;
      /**
       * @description Delivery receipts the provider gave as not delivered (expired, rejected by the network), as delivered
       * @default 0
       * @example 2
       */
      undelivered?: number;
      /**
       * @description Of sent, the one-time codes (at most sent): with destination, the pumping guard compares them with verified per range
       * @default 0
       * @example 40
       */
      codesSent?: number;
      /**
       * @description Codes the end users entered since the last report (to the same destination range): pumped codes arrive but are never entered
       * @default 0
       * @example 31
       */
      verified?: number;
      /**
       * @description The provider's own balance, as read from balanceUrl: set as the balance instead of debiting. At most 6 decimal places
       * @example 118.25
       */
      balance?: number;
      /**
       * @description Where the sent messages went: the debit is sent × the configuration's price there (its destinationPrices entry of the longest prefix, else perSmsCost); without it, sent × perSmsCost. Read as its E.164 form (+4407400123456 counts as +447400123456); a number of no known calling code, or impossible for its country, counts as a report without destination
       * @example +447700900123
       */
      destination?: string | null;
    };
    OutcomeDto: {
      /** @example 12 */
      smsConfigId: number;
      /**
       * @description The balance after this report
       * @example 117.75
       */
      balance: number;
      /** @description false from the fifth failure in a row until a report with a send */
      healthy: boolean;
      /**
       * Format: date-time
       * @description Skipped by routing until then, offered again (last) after it; null while healthy
       */
      unhealthyUntil: string | null;
    };
    OutcomeResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['OutcomeDto'];
    };
    CreateExchangeDto: {
      /**
       * @description Letters, digits, -, _, . and :; names beginning amq. are reserved by the broker
       * @example notifications.sms
       */
      name: string;
      /**
       * @example topic
       * @enum {string}
       */
      type: 'direct' | 'fanout' | 'topic' | 'headers';
    };
    ExchangeDetailsDto: {
      /** @example notifications.sms */
      name: string;
      /**
       * @example topic
       * @enum {string}
       */
      type: 'direct' | 'fanout' | 'topic' | 'headers';
    };
    CreateExchangeResponseDto: {
      /** @example 200 */
      status: number;
      /** @example Exchange notifications.sms declared */
      message: string;
      exchangeDetails: components['schemas']['ExchangeDetailsDto'];
    };
    HealthStateDto: {
      /** @enum {string} */
      database: 'up';
      /** @enum {string} */
      broker: 'up' | 'down';
    };
    HealthResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['HealthStateDto'];
    };
    AuditEventDto: {
      /** Format: uuid */
      eventId: string;
      /**
       * @description ISO-8601 UTC, with milliseconds
       * @example 2026-11-24T10:15:30.123Z
       */
      occurredAt: string;
      /** @enum {string} */
      action:
        | 'client.created'
        | 'client.updated'
        | 'client.disabled'
        | 'client.enabled'
        | 'client.deleted'
        | 'client.secret-key.rotated'
        | 'client.secret-key.replayed'
        | 'client.key-created'
        | 'client.key-deleted'
        | 'client.daily-limit-reached'
        | 'client.pumping-suspected'
        | 'client.pumping-blocked'
        | 'client.pumping-lifted'
        | 'sms-config.created'
        | 'sms-config.updated'
        | 'sms-config.deleted'
        | 'sms-config.credentials-resolved'
        | 'sms-config.balance-low'
        | 'sms-config.balance-set'
        | 'sms-config.unhealthy'
        | 'sms-config.healthy'
        | 'exchange.declared'
        | 'provider-host.approved'
        | 'provider-host.removed';
      /**
       * @description `admin:<8 hex>` or `dispatcher:<8 hex>` (the start of the SHA-256 of the key, never the key), `client:<clientId>` (its root key) or `client:<clientId>/key:<keyId>` (one of its scoped keys)
       * @example admin:3f9a1c5e
       */
      actor: string;
      /** @description null for exchange.declared */
      clientId: number | null;
      smsConfigId: number | null;
      /** @description The service's own id for the request that made the change: the x-request-id header of its answer, and its log line's requestId */
      requestId: string | null;
      /** @description The caller's own x-request-id, when it sent a sane one that does not look like a key; else null. Never taken for requestId */
      callerRequestId: string | null;
      /** @description The names of the fields changed, never their values */
      changed: string[];
      /**
       * @description What the action says beyond the names in changed: `{"host": "<host>"}` for provider-host.approved and provider-host.removed; `{"range": "<range>"}` (such as +44740012xxxx) for client.pumping-suspected, client.pumping-blocked and client.pumping-lifted; `{"keyId": <keyId>, "name": "<name>", "scopes": [...]}` for client.key-created and client.key-deleted; null for the others, for `system` and for entries made before the service kept it
       * @example null
       */
      details: {
        [key: string]: string | number | string[];
      } | null;
      /**
       * @description The caller's address (after TRUST_PROXY, without a port a proxy appended; an IPv4-mapped address as IPv4), the full address, not the /64 the limits count. null for `system` and for entries made before the service kept it. Not in the published events
       * @example 203.0.113.7
       */
      sourceAddress: string | null;
      /**
       * @description The caller's User-Agent, cut to 200 characters, each that does not print replaced by ?; null when none was sent, when it holds a run of 40 or more of A-Z, a-z, 0-9, _ and - (what a key looks like), for `system` and for entries made before the service kept it. Not in the published events
       * @example curl/8.5.0
       */
      userAgent: string | null;
    };
    AuditEventPageDto: {
      /** @description Newest first */
      items: components['schemas']['AuditEventDto'][];
      /** @description Pass as ?cursor= for the next page; null on the last page */
      nextCursor: string | null;
    };
    AuditEventPageResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['AuditEventPageDto'];
    };
    PumpingRangeDto: {
      /** @example 3 */
      pumpingRangeId: number;
      /** @example 7 */
      clientId: number;
      /**
       * @description The destinations suspected: the number with its last 4 digits as xxxx
       * @example +44740012xxxx
       */
      range: string;
      /**
       * @description What raised the suspicion, in this order: velocity (the range sent more than its floor and the factor times the client's highest window of the 7 days before), conversion (too few of its codes were entered)
       * @example [
       *       "velocity"
       *     ]
       */
      signals: ('velocity' | 'conversion')[];
      /**
       * @description Messages sent to the range in the window when the suspicion began
       * @example 412
       */
      sent: number;
      /**
       * @description Of them, one-time codes
       * @example 400
       */
      codesSent: number;
      /**
       * @description Codes the end users entered
       * @example 3
       */
      verified: number;
      /**
       * @description When a report found the signal
       * @example 2026-11-24T10:15:30.123Z
       */
      suspectedAt: string;
      /**
       * @description When the suspicion ends by itself (PUMPING_BLOCK_MS after it began); a lift leaves it
       * @example 2026-11-24T11:15:30.123Z
       */
      until: string;
      /**
       * @description When an admin lifted it; null when not lifted
       * @example null
       */
      liftedAt: string | null;
    };
    PumpingRangePageDto: {
      /** @description Newest first */
      items: components['schemas']['PumpingRangeDto'][];
      /** @description Pass as ?cursor= for the next page; null on the last page */
      nextCursor: string | null;
    };
    PumpingRangePageResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['PumpingRangePageDto'];
    };
    PumpingRangeResponseDto: {
      /** @example 200 */
      status: number;
      results: components['schemas']['PumpingRangeDto'];
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  ClientController_add: {
    parameters: {
      query?: never;
      header?: {
        /** @description 1–255 visible ASCII characters. Retrying with the same key and the same request within 10 minutes answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and does nothing twice; each replay is audited (client.secret-key.replayed). After 10 minutes the kept answer, which holds a secret key, is deleted and the retry is refused (422); the request is not run again. Scoped to the credential. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AddClientDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientResponseDto'];
        };
      };
      /** @description Invalid request; the message names the failing fields (10 at most, then how many more) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description A request with this Idempotency-Key is in progress */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Idempotency-Key was used with a different request; or: Idempotency-Key has expired for an answer holding a secret key */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientController_getBySecretKey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description May be absent: no body is taken as {} */
    requestBody?: {
      content: {
        'application/json': components['schemas']['EmptyBodyDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientResponseDto'];
        };
      };
      /** @description A body other than none or {} */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description secretKey header is missing */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Client is disabled; or the key is a scoped key without client:read (secretKey does not have the scope client:read), or used from outside its allowedSources */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No client has this secretKey */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientAdminController_list: {
    parameters: {
      query?: {
        /** @description In plain decimal digits (a sign, an exponent or spaces are refused) */
        limit?: number;
        /** @description nextCursor of the previous page, exactly as it was given: any other text is refused */
        cursor?: string;
        /** @description Only clients whose appName starts with this (case-insensitive) */
        appName?: string | null;
        /** @description true: only clients whose previous key was used in the last 2 × KEY_USAGE_FLUSH_MS; false: only the others */
        previousKeyInUse?: 'true' | 'false';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AdminClientPageResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientAdminController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        clientId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AdminClientResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No such client */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientAdminController_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        clientId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeletedClientResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No such client */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientAdminController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        clientId: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateClientDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AdminClientResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No such client */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientAdminController_rotate: {
    parameters: {
      query?: never;
      header?: {
        /** @description 1–255 visible ASCII characters. Retrying with the same key and the same request within 10 minutes answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and does nothing twice; each replay is audited (client.secret-key.replayed). After 10 minutes the kept answer, which holds a secret key, is deleted and the retry is refused (422); the request is not run again. Scoped to the credential. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        clientId: number;
      };
      cookie?: never;
    };
    /** @description May be absent: no body is taken as {} */
    requestBody?: {
      content: {
        'application/json': components['schemas']['RotateSecretKeyDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RotatedSecretKeyResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No such client */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description A request with this Idempotency-Key is in progress */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Idempotency-Key was used with a different request; or: Idempotency-Key has expired for an answer holding a secret key */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  SecretKeyController_rotate: {
    parameters: {
      query?: never;
      header?: {
        /** @description 1–255 visible ASCII characters. Retrying with the same key and the same request within 10 minutes answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and does nothing twice; each replay is audited (client.secret-key.replayed). After 10 minutes the kept answer, which holds a secret key, is deleted and the retry is refused (422); the request is not run again. Scoped to the credential. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    /** @description May be absent: no body is taken as {} */
    requestBody?: {
      content: {
        'application/json': components['schemas']['RotateSecretKeyDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RotatedSecretKeyResponseDto'];
        };
      };
      /** @description graceSeconds is not an integer from 0 to 604800, or deleteScopedKeys is not a boolean */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description secretKey is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description The client is disabled; or the key is not the current root key (secretKey does not have the scope root) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description A request with this Idempotency-Key is in progress */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Idempotency-Key was used with a different request; or: Idempotency-Key has expired for an answer holding a secret key */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientKeyController_list: {
    parameters: {
      query?: {
        /** @description In plain decimal digits (a sign, an exponent or spaces are refused) */
        limit?: number;
        /** @description nextCursor of the previous page, exactly as it was given: any other text is refused */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientKeyPageResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description secretKey is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description The client is disabled; or the key is not the current root key (secretKey does not have the scope root) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientKeyController_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description 1–255 visible ASCII characters. Retrying with the same key and the same request within 10 minutes answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and does nothing twice; each replay is audited (client.secret-key.replayed). After 10 minutes the kept answer, which holds a secret key, is deleted and the retry is refused (422); the request is not run again. Scoped to the credential. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateClientKeyDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedClientKeyResponseDto'];
        };
      };
      /** @description Invalid request; the message names the failing fields (10 at most, then how many more) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description secretKey is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description The client is disabled; or the key is not the current root key (secretKey does not have the scope root) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description a client has at most 20 scoped keys; or: A request with this Idempotency-Key is in progress */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Idempotency-Key was used with a different request; or: Idempotency-Key has expired for an answer holding a secret key */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientKeyController_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        keyId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeletedClientKeyResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description secretKey is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description The client is disabled; or the key is not the current root key (secretKey does not have the scope root) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No such scoped key of this client */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientKeyAdminController_list: {
    parameters: {
      query?: {
        /** @description In plain decimal digits (a sign, an exponent or spaces are refused) */
        limit?: number;
        /** @description nextCursor of the previous page, exactly as it was given: any other text is refused */
        cursor?: string;
      };
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        clientId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ClientKeyPageResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No such client */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientKeyAdminController_create: {
    parameters: {
      query?: never;
      header?: {
        /** @description 1–255 visible ASCII characters. Retrying with the same key and the same request within 10 minutes answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and does nothing twice; each replay is audited (client.secret-key.replayed). After 10 minutes the kept answer, which holds a secret key, is deleted and the retry is refused (422); the request is not run again. Scoped to the credential. */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        clientId: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateClientKeyDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreatedClientKeyResponseDto'];
        };
      };
      /** @description Invalid request; the message names the failing fields (10 at most, then how many more) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No such client */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description a client has at most 20 scoped keys; or: A request with this Idempotency-Key is in progress */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Idempotency-Key was used with a different request; or: Idempotency-Key has expired for an answer holding a secret key */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ClientKeyAdminController_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        clientId: number;
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        keyId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeletedClientKeyResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No such client, or no such scoped key of it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  SmsConfigController_add: {
    parameters: {
      query?: never;
      header?: {
        /** @description 1–255 visible ASCII characters. Retrying with the same key and the same request within 24 h answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and does nothing twice. Scoped to the credential. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['AddSmsConfigDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AddSmsConfigResponseDto'];
        };
      };
      /** @description Invalid request; the message names the failing fields (10 at most, then how many more) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description secretKey is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description clientId is not the id of the secretKey's client; or the key is a scoped key without sms-config:write (secretKey does not have the scope sms-config:write), or used from outside its allowedSources */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description The client already has 100 SMS configurations, they would take more than 262144 bytes of get-client answer, or more than 3000 destinationPrices entries in all; or: A request with this Idempotency-Key is in progress */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Idempotency-Key was used with a different request */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  SmsConfigController_list: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description May be absent: no body is taken as {} */
    requestBody?: {
      content: {
        'application/json': components['schemas']['ClientIdDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SmsConfigListResponseDto'];
        };
      };
      /** @description Invalid request */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description secretKey is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description clientId is not the id of the secretKey's client; or the key is a scoped key without client:read (secretKey does not have the scope client:read), or used from outside its allowedSources */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  CredentialResolutionController_resolve: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ResolveCredentialsDto'];
      };
    };
    responses: {
      200: {
        headers: {
          'cache-control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ResolvedSmsConfigResponseDto'];
        };
      };
      /** @description verifyApiKey is not valid (garbled, forged, altered, spelled otherwise than issued, or sealed under a removed key) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not a dispatcher key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description An admin key, or the configuration's client is disabled */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description The configuration was deleted */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description `verifyApiKey is stale`: smsApi, providerUrl, balanceUrl, username, password or apiKey changed since it was issued. `verifyApiKey was issued under a secret key that is no longer valid`: the key that obtained it was rotated out (its grace ended) or revoked. `SMS configuration is inactive`: isActive is false. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  SmsConfigLifecycleController_get: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        smsConfigId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SmsConfigResponseDto'];
        };
      };
      /** @description smsConfigId is not a positive integer, or the body is invalid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description secretKey is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Client is disabled; or the key is a scoped key without client:read (secretKey does not have the scope client:read), or used from outside its allowedSources */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No configuration of this client has this id */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  SmsConfigLifecycleController_delete: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        smsConfigId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeletedSmsConfigResponseDto'];
        };
      };
      /** @description smsConfigId is not a positive integer, or the body is invalid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description secretKey is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Client is disabled; or the key is a scoped key without sms-config:write (secretKey does not have the scope sms-config:write), or used from outside its allowedSources */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No configuration of this client has this id */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  SmsConfigLifecycleController_update: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        smsConfigId: number;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['UpdateSmsConfigDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['UpdatedSmsConfigResponseDto'];
        };
      };
      /** @description smsConfigId is not a positive integer, or the body is invalid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description secretKey is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Client is disabled; or the key is a scoped key without sms-config:write (secretKey does not have the scope sms-config:write), or used from outside its allowedSources */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No configuration of this client has this id */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description The client's configurations would take more than 262144 bytes of get-client answer, or hold more than 3000 destinationPrices entries in all */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  SmsConfigLifecycleController_issueVerifyApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        smsConfigId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AddSmsConfigResponseDto'];
        };
      };
      /** @description smsConfigId is not a positive integer, or the body is invalid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description secretKey is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Client is disabled; or the key is a scoped key without sms-config:write (secretKey does not have the scope sms-config:write), or used from outside its allowedSources */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No configuration of this client has this id */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ProviderHostController_list: {
    parameters: {
      query?: {
        /** @description In plain decimal digits (a sign, an exponent or spaces are refused) */
        limit?: number;
        /** @description nextCursor of the previous page, exactly as it was given: any other text is refused */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProviderHostPageResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ProviderHostController_approve: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['ApproveProviderHostDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ProviderHostResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description The host is already approved (in any spelling) */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  ProviderHostController_remove: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        providerHostId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['DeletedProviderHostResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No such provider host */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  DispatchController_route: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description May be absent: no body is taken as {} */
    requestBody?: {
      content: {
        'application/json': components['schemas']['RouteRequestDto'];
      };
    };
    responses: {
      200: {
        headers: {
          'cache-control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['RouteResponseDto'];
        };
      };
      /** @description smsType, count or destination is not valid (destination must be a possible E.164 number: a known calling code, a length possible for its country, in its E.164 spelling), the body has other fields, or no destination was given for a client with allowedDestinations or with pumpingGuard block (destination is required for this client) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not a dispatcher key, or secretKey is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description An admin key as x-api-key, the secretKey's client is disabled, the destination is outside the client's allowedDestinations (destination +<digits> is not allowed for this client), is a premium-rate or shared-cost number and the client does not allow them, or is in a range blocked for suspected SMS pumping (client in block) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  DispatchController_report: {
    parameters: {
      query?: never;
      header?: {
        /** @description 1–255 visible ASCII characters. Retrying with the same key and the same request within 24 h answers the first answer again, byte for byte, with `Idempotent-Replayed: true`, and does nothing twice. Scoped to the credential. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['OutcomeReportDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['OutcomeResponseDto'];
        };
      };
      /** @description A field is not valid, codesSent is more than sent, or the report gives no count >= 1 and no balance */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not a dispatcher key */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description An admin key as x-api-key */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No configuration has this smsConfigId */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description The debit would take the balance below -10^12; or: A request with this Idempotency-Key is in progress */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Idempotency-Key was used with a different request */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  BrokerController_create: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateExchangeDto'];
      };
    };
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CreateExchangeResponseDto'];
        };
      };
      /** @description Invalid request, for example the name is missing */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description The exchange exists with a different type */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  HealthController_check: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['HealthResponseDto'];
        };
      };
      /** @description Served on OPS_PORT instead (when it is set) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database unreachable, or shutting down */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  MetricsController_index: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Prometheus text exposition format */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/plain': string;
        };
      };
      /** @description Metrics are switched off (METRICS_ENABLED=false) or served on OPS_PORT */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  AuditController_list: {
    parameters: {
      query?: {
        /** @description In plain decimal digits (a sign, an exponent or spaces are refused) */
        limit?: number;
        /** @description nextCursor of the previous page, exactly as it was given: any other text is refused */
        cursor?: string;
        /** @description In plain decimal digits (a sign, an exponent or spaces are refused) */
        clientId?: number;
        action?:
          | 'client.created'
          | 'client.updated'
          | 'client.disabled'
          | 'client.enabled'
          | 'client.deleted'
          | 'client.secret-key.rotated'
          | 'client.secret-key.replayed'
          | 'client.key-created'
          | 'client.key-deleted'
          | 'client.daily-limit-reached'
          | 'client.pumping-suspected'
          | 'client.pumping-blocked'
          | 'client.pumping-lifted'
          | 'sms-config.created'
          | 'sms-config.updated'
          | 'sms-config.deleted'
          | 'sms-config.credentials-resolved'
          | 'sms-config.balance-low'
          | 'sms-config.balance-set'
          | 'sms-config.unhealthy'
          | 'sms-config.healthy'
          | 'exchange.declared'
          | 'provider-host.approved'
          | 'provider-host.removed';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditEventPageResponseDto'];
        };
      };
      /** @description A query parameter that is not valid (limit, cursor, clientId, action) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  PumpingRangeController_list: {
    parameters: {
      query?: {
        /** @description In plain decimal digits (a sign, an exponent or spaces are refused) */
        limit?: number;
        /** @description nextCursor of the previous page, exactly as it was given: any other text is refused */
        cursor?: string;
        /** @description In plain decimal digits (a sign, an exponent or spaces are refused) */
        clientId?: number;
        /** @description true: only the suspicions standing (until in the future and not lifted); false: only the others */
        standing?: 'true' | 'false';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PumpingRangePageResponseDto'];
        };
      };
      /** @description A query parameter that is not valid (limit, cursor, clientId, standing) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
  PumpingRangeController_lift: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description A positive integer up to 2147483647, in plain decimal digits (no sign, exponent, leading zero or spaces) */
        pumpingRangeId: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['PumpingRangeResponseDto'];
        };
      };
      /** @description Invalid path id, query or body; the message names the problem */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description x-api-key is missing or not valid */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description No such pumping range */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description The suspicion is not standing: lifted already, or past its until */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body over 32 KiB */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Body that is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Rate limit exceeded; see Retry-After */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Unexpected error (generic message) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
      /** @description Database or broker unreachable */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ErrorResponseDto'];
        };
      };
    };
  };
}
