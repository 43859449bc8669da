/**
 * The typed client of the client registry: openapi-fetch over the types generated from openapi.json (schema.ts), with
 * the credential headers set once, and the type of the domain events published on RabbitMQ.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, operations, paths } from './schema';

export interface RegistryClientOptions {
  /** Where the service answers, e.g. `https://registry.example.com` (no trailing /api). */
  baseUrl: string;
  /** One of ADMIN_API_KEYS: the admin routes (clients, audit events, exchanges, provider hosts). */
  adminApiKey?: string;
  /** A client's secret key, from Add client: its own client and SMS configurations. */
  secretKey?: string;
  /**
   * One of DISPATCHER_API_KEYS: the only credential that resolves provider credentials and reports dispatch outcomes;
   * with a client's secretKey beside it, it routes that client's messages.
   */
  dispatcherApiKey?: string;
  fetch?: ClientOptions['fetch'];
}

export type RegistryClient = Client<paths>;

export function createRegistryClient(options: RegistryClientOptions): RegistryClient {
  // Both keys travel in the same header (openapi.json: adminApiKey and dispatcherApiKey), so one client carries one.
  if (options.adminApiKey !== undefined && options.dispatcherApiKey !== undefined) {
    throw new Error('adminApiKey and dispatcherApiKey are both sent as x-api-key: create one client for each');
  }
  const headers: Record<string, string> = {};
  const apiKey = options.adminApiKey ?? options.dispatcherApiKey;
  if (apiKey !== undefined) headers['x-api-key'] = apiKey;
  if (options.secretKey !== undefined) headers.secretKey = options.secretKey;
  return createClient<paths>({ baseUrl: options.baseUrl, headers, fetch: options.fetch });
}

type Schemas = components['schemas'];

/** Any schema of openapi.json by name, e.g. `Schema<'AdminClientDto'>`. */
export type Schema<Name extends keyof Schemas> = Schemas[Name];

export type AddClientRequest = Schemas['AddClientDto'];
export type UpdateClientRequest = Schemas['UpdateClientDto'];
export type RotateSecretKeyRequest = Schemas['RotateSecretKeyDto'];
export type AddSmsConfigRequest = Schemas['AddSmsConfigDto'];
export type UpdateSmsConfigRequest = Schemas['UpdateSmsConfigDto'];
export type ResolveCredentialsRequest = Schemas['ResolveCredentialsDto'];
export type CreateExchangeRequest = Schemas['CreateExchangeDto'];
export type RouteRequest = Schemas['RouteRequestDto'];
export type ApproveProviderHostRequest = Schemas['ApproveProviderHostDto'];
export type OutcomeReport = Schemas['OutcomeReportDto'];

/** Every refusal and failure: `{ status, error }`. */
export type ErrorResponse = Schemas['ErrorResponseDto'];
/** The `results` of the answers, by what they hold. */
export type ClientProfile = Schemas['ClientDto'];
export type AdminClient = Schemas['AdminClientDto'];
export type AdminClientPage = Schemas['AdminClientPageDto'];
export type RotatedSecretKey = Schemas['RotatedSecretKeyDto'];
export type SmsConfig = Schemas['SmsConfigDto'];
export type UpdatedSmsConfig = Schemas['UpdatedSmsConfigDto'];
export type ResolvedSmsConfig = Schemas['ResolvedSmsConfigDto'];
export type SmsConfigView = Schemas['SmsConfigViewDto'];
export type Route = Schemas['RouteDto'];
export type RouteCandidate = Schemas['RouteCandidateDto'];
export type Outcome = Schemas['OutcomeDto'];
export type ExchangeDetails = Schemas['ExchangeDetailsDto'];
export type HealthState = Schemas['HealthStateDto'];
export type AuditEvent = Schemas['AuditEventDto'];
export type AuditEventPage = Schemas['AuditEventPageDto'];
export type ProviderHost = Schemas['ProviderHostDto'];
export type ProviderHostPage = Schemas['ProviderHostPageDto'];
export type PumpingRange = Schemas['PumpingRangeDto'];
export type PumpingRangePage = Schemas['PumpingRangePageDto'];

/** The durable topic exchange the service publishes its domain events on; the routing key is the action. */
export const EVENTS_EXCHANGE = 'client-registry.events';

/**
 * Credential resolutions and replays of an answer holding a secret key are audited but not published: they change
 * nothing a consumer caches or counts.
 */
export type DomainEventAction = Exclude<AuditEvent['action'], 'sms-config.credentials-resolved' | 'client.secret-key.replayed'>;

/** What a message leaves out of the audit entry: where the request came from stays in the audit log. */
export type UnpublishedAuditField = 'sourceAddress' | 'userAgent';

/** The body of every message on EVENTS_EXCHANGE (JSON): the audit entry of the change, without sourceAddress and userAgent. */
export type DomainEvent = Omit<AuditEvent, UnpublishedAuditField> & { action: DomainEventAction };
