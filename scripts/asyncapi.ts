/**
 * Writes asyncapi.yaml, the contract of the domain events, from the code: the exchange and the routing keys from
 * src/events/domain-events.ts, the body's schema from AuditEventDto. `--check` writes nothing and fails when the
 * committed file differs (CI runs it).
 *
 * The schema is taken from the OpenAPI document built exactly as scripts/openapi.ts builds it (createApp on a throwaway
 * SQLite file), not from the committed openapi.json: the check then holds against the code itself, whatever state
 * openapi.json is in, for the few seconds building the application costs.
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { stringify } from 'yaml';
import type { AuditAction, AuditDetails } from '../src/audit/audit-entry';
import { UNPUBLISHED_FIELDS } from '../src/audit/dto/audit-event.dto';
import { EVENT_CONTENT_TYPE, EVENTS_EXCHANGE, PUBLISHED_ACTIONS } from '../src/events/domain-events';
import { runScript, withApplication, writeOrCheck } from './script-io';

const OUTPUT = resolve(__dirname, '../asyncapi.yaml');
const AMQP_BINDING_VERSION = '0.3.0';
const PERSISTENT = 2;

type Schema = Record<string, unknown>;

interface EventDescription {
  title: string;
  summary: string;
  /** The example message's actor, smsConfigId and changed: what this action records. */
  actor: string;
  smsConfigId: number | null;
  changed: string[];
  /** The example's details, when the action has some. */
  details?: AuditDetails;
}

const ADMIN = 'admin:3f9a1c5e';
const CLIENT = 'client:7';
const DISPATCHER = 'dispatcher:9b2e4d71';

/** What each published action means, read from the services that record it (src/client, src/sms-config, src/broker). */
const EVENTS: Partial<Record<AuditAction, EventDescription>> = {
  'client.created': {
    title: 'Client created',
    summary: 'An admin registered a client application and issued its first secret key.',
    actor: ADMIN,
    smsConfigId: null,
    changed: [],
  },
  'client.updated': {
    title: 'Client updated',
    summary:
      'An admin changed fields of a client other than isActive; `changed` names them. ' +
      'A request that also changes isActive records client.disabled or client.enabled as well, with the same requestId.',
    actor: ADMIN,
    smsConfigId: null,
    changed: ['appName', 'appUrl'],
  },
  'client.disabled': {
    title: 'Client disabled',
    summary: 'An admin disabled the client: its keys are refused (403 Client is disabled) until it is enabled again.',
    actor: ADMIN,
    smsConfigId: null,
    changed: ['isActive'],
  },
  'client.enabled': {
    title: 'Client enabled',
    summary: 'An admin enabled a disabled client: its keys are served again.',
    actor: ADMIN,
    smsConfigId: null,
    changed: ['isActive'],
  },
  'client.deleted': {
    title: 'Client deleted',
    summary:
      'An admin deleted the client and, with it, its SMS configurations (no sms-config.deleted is sent for them); its keys are unknown from now on.',
    actor: ADMIN,
    smsConfigId: null,
    changed: [],
  },
  'client.secret-key.rotated': {
    title: 'Client secret key rotated',
    summary:
      "The client's secret key was rotated, by the client itself (`client:<clientId>`) or an admin (`admin:<8 hex>`); " +
      'the previous key may stay valid for a grace period.',
    actor: CLIENT,
    smsConfigId: null,
    changed: ['secretKey'],
  },
  'client.daily-limit-reached': {
    title: 'Client reached a daily limit',
    summary:
      "A dispatch report took the client's spentToday to or past its dailySpendLimit, or its sentToday to or past its dailySmsLimit; " +
      '`changed` names the limit and smsConfigId the reported configuration. Once per client, limit and UTC day. From then on route ' +
      'skips what would pass the limit (spend-limit, sms-limit) until 00:00 UTC or until an admin raises it: a sudden one may be SMS pumping.',
    actor: DISPATCHER,
    smsConfigId: 12,
    changed: ['dailySpendLimit'],
  },
  'client.key-created': {
    title: 'Client scoped key made',
    summary:
      "The client's current root key or an admin made a scoped key (POST /api/v1/client/keys, POST /api/v1/clients/{clientId}/keys): " +
      '`details` names it (`keyId`, `name`, `scopes`), never the key. `changed` is empty.',
    actor: CLIENT,
    smsConfigId: null,
    changed: [],
    details: { keyId: 3, name: 'billing-service', scopes: ['client:read'] },
  },
  'client.key-deleted': {
    title: 'Client scoped key deleted',
    summary:
      'A scoped key was deleted, by the root key, an admin, or a rotation with deleteScopedKeys: it is unknown on every instance ' +
      'within 1 s. `details` names it as client.key-created did. Deleting the client publishes client.deleted only.',
    actor: CLIENT,
    smsConfigId: null,
    changed: [],
    details: { keyId: 3, name: 'billing-service', scopes: ['client:read'] },
  },
  'client.pumping-suspected': {
    title: 'Client range suspected of SMS pumping',
    summary:
      "A dispatch report found a signal of SMS pumping on one of the client's ranges while the client's pumpingGuard is monitor: " +
      '`changed` names the signals (`["velocity"]`, `["conversion"]` or both in that order), `details.range` the range (the ' +
      'destination with its last 4 digits as xxxx) and smsConfigId the reported configuration. Nothing is refused; the suspicion ' +
      'stands for PUMPING_BLOCK_MS (GET /api/v1/pumping-ranges), and a new one may follow it. Once per suspicion.',
    actor: DISPATCHER,
    smsConfigId: 12,
    changed: ['velocity'],
    details: { range: '+44740012xxxx' },
  },
  'client.pumping-blocked': {
    title: 'Client range blocked for suspected SMS pumping',
    summary:
      "As client.pumping-suspected, while the client's pumpingGuard is block: route refuses destinations in `details.range` " +
      '(403) until the suspicion ends, PUMPING_BLOCK_MS after it began, or an admin lifts it. Once per suspicion.',
    actor: DISPATCHER,
    smsConfigId: 12,
    changed: ['velocity', 'conversion'],
    details: { range: '+44740012xxxx' },
  },
  'client.pumping-lifted': {
    title: 'Client range suspicion lifted',
    summary:
      'An admin lifted a standing suspicion of SMS pumping (POST /api/v1/pumping-ranges/{pumpingRangeId}/lift): route sends to ' +
      "`details.range` again, and the range's counts start again from nothing. `changed` is empty.",
    actor: ADMIN,
    smsConfigId: null,
    changed: [],
    details: { range: '+44740012xxxx' },
  },
  'sms-config.created': {
    title: 'SMS configuration created',
    summary: 'The client added an SMS provider configuration; smsConfigId is the new one.',
    actor: CLIENT,
    smsConfigId: 12,
    changed: [],
  },
  'sms-config.updated': {
    title: 'SMS configuration updated',
    summary:
      'The client changed one of its SMS configurations; `changed` names the fields (password or apiKey when replaced, never a value). ' +
      'A replaced or removed apiKey makes the verifyApiKey tokens issued before it stale.',
    actor: CLIENT,
    smsConfigId: 12,
    changed: ['apiKey', 'senderId'],
  },
  'sms-config.deleted': {
    title: 'SMS configuration deleted',
    summary: 'The client deleted one of its SMS configurations: resolving it answers 404 from now on.',
    actor: CLIENT,
    smsConfigId: 12,
    changed: [],
  },
  'sms-config.balance-low': {
    title: 'SMS configuration balance low',
    summary:
      "A dispatch report took the configuration's balance below its lowBalanceThreshold; sent once per crossing, again only after the balance is back at the threshold or above.",
    actor: DISPATCHER,
    smsConfigId: 12,
    changed: [],
  },
  'sms-config.balance-set': {
    title: 'SMS configuration balance set',
    summary:
      "A dispatch report gave the provider's own figure, which replaced the configuration's balance. Debits by perSmsCost × sent are not announced: metrics count them.",
    actor: DISPATCHER,
    smsConfigId: 12,
    changed: [],
  },
  'sms-config.unhealthy': {
    title: 'SMS configuration unhealthy',
    summary:
      'Dispatch reports counted 5 failures in a row: routing skips the configuration for DISPATCH_UNHEALTHY_MS, then offers it last until a send makes it healthy.',
    actor: DISPATCHER,
    smsConfigId: 12,
    changed: [],
  },
  'sms-config.healthy': {
    title: 'SMS configuration healthy again',
    summary: 'A dispatch report with a send made an unhealthy configuration healthy: routing offers it in its usual place again.',
    actor: DISPATCHER,
    smsConfigId: 12,
    changed: [],
  },
  'exchange.declared': {
    title: 'Exchange declared',
    summary:
      'An admin declared a RabbitMQ exchange through POST /api/v1/rabbitmq/exchanges. clientId is null; ' +
      '`changed` is always [name, type] and the event does not say which exchange.',
    actor: ADMIN,
    smsConfigId: null,
    changed: ['name', 'type'],
  },
  'provider-host.approved': {
    title: 'Provider host approved',
    summary:
      'A host was added to the approved provider hosts (POST /api/v1/provider-hosts; actor `system` for the hosts the upgrade ' +
      'that brought the list found in use, note `present at upgrade`): configurations sending there are routed and resolved. ' +
      'clientId is null; `details.host` is the host approved.',
    actor: ADMIN,
    smsConfigId: null,
    changed: ['host', 'note'],
    details: { host: 'api.twilio.com' },
  },
  'provider-host.removed': {
    title: 'Provider host removed',
    summary:
      'A host was removed from the approved provider hosts (DELETE /api/v1/provider-hosts/{providerHostId}): configurations ' +
      'sending there are skipped by route (unapproved) and refused by resolve. clientId is null; `details.host` is the host removed.',
    actor: ADMIN,
    smsConfigId: null,
    changed: ['host'],
    details: { host: 'api.twilio.com' },
  },
};

const INFO_DESCRIPTION = `Every change the service makes is published, once committed, on the durable topic exchange \`${EVENTS_EXCHANGE}\`, with the action as the routing key: bind a queue with \`#\` for all of them, \`client.#\` for the clients' or \`sms-config.*\` for the SMS configurations' (\`client.*\` would miss \`client.secret-key.rotated\`).

- Every message is persistent (delivery mode 2), \`content-type: ${EVENT_CONTENT_TYPE}\`, and its AMQP \`message-id\` property is the event's \`eventId\`.
- The body is the change's audit entry, the same as \`GET /api/v1/audit-events\` lists without where the request came from (its \`sourceAddress\` and \`userAgent\` stay in the audit log): the names of the fields changed, never a value, and never a secret, key or digest.
- Delivery is at least once: a duplicate carries the same \`message-id\`, so deduplicate on it. Events of one client arrive in the order its changes were committed.
- An event reaches a bound queue within 15 s of the change's answer (30 s after a broker outage ends).
- Consumers ignore fields they do not know: fields may be added.
- A queue receives what is published after it is bound; \`GET /api/v1/audit-events\` has what came before.

docs/events.md in the repository says more.`;

/** Channels, operations and messages are all named by their action, which readers know from the code and the audit log. */
function refTo(...path: string[]): { $ref: string } {
  return { $ref: `#/${path.join('/')}` };
}

/**
 * OpenAPI 3.0's schema dialect into JSON Schema draft-07, AsyncAPI's default: `nullable` becomes a 'null' type and
 * `example` an `examples` list. A keyword not translated here fails the generation rather than passing through unread.
 */
function toJsonSchema(schema: Schema): Schema {
  const translated: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    switch (keyword) {
      case 'type':
        translated.type = schema.nullable === true ? [value, 'null'] : value;
        break;
      case 'nullable':
        if (schema.type === undefined || schema.enum !== undefined) throw new Error('nullable is translated only on a type without enum');
        break;
      case 'example':
        translated.examples = [value];
        break;
      case 'items':
      case 'additionalProperties':
        translated[keyword] = toJsonSchema(value as Schema);
        break;
      case 'oneOf':
        translated.oneOf = (value as Schema[]).map(toJsonSchema);
        break;
      case 'properties':
        translated.properties = Object.fromEntries(
          Object.entries(value as Record<string, Schema>).map(([name, property]) => [name, toJsonSchema(property)]),
        );
        break;
      case 'format':
      case 'description':
      case 'enum':
      case 'required':
        translated[keyword] = value;
        break;
      default:
        throw new Error(`AuditEventDto's schema uses ${keyword}, which scripts/asyncapi.ts does not translate yet`);
    }
  }
  return translated;
}

/** AuditEventDto as the body of a message: only the published actions, without the fields an event leaves out. */
function domainEventSchema(auditEventDto: Schema): Schema {
  const schema = toJsonSchema(auditEventDto);
  const left = (field: string) => !(UNPUBLISHED_FIELDS as readonly string[]).includes(field);
  const properties = Object.fromEntries(Object.entries(schema.properties as Record<string, Schema>).filter(([name]) => left(name)));
  return {
    title: 'DomainEvent',
    description:
      'The audit entry of the change, as GET /api/v1/audit-events lists it, without sourceAddress and userAgent. Consumers ignore ' +
      'fields they do not know.',
    ...schema,
    required: (schema.required as string[]).filter(left),
    properties: { ...properties, action: { ...properties.action, enum: [...PUBLISHED_ACTIONS] } },
  };
}

function describedEvent(action: AuditAction): EventDescription {
  const description = EVENTS[action];
  if (!description) throw new Error(`${action} is published but scripts/asyncapi.ts does not say what it means: add it to EVENTS`);
  return description;
}

function message(action: AuditAction, index: number): Schema {
  const event = describedEvent(action);
  const clientId = action === 'exchange.declared' || action.startsWith('provider-host.') ? null : 7;
  return {
    name: action,
    title: event.title,
    summary: event.summary,
    contentType: EVENT_CONTENT_TYPE,
    correlationId: refTo('components', 'correlationIds', 'eventId'),
    payload: {
      allOf: [refTo('components', 'schemas', 'DomainEvent'), { type: 'object', properties: { action: { const: action } } }],
    },
    examples: [
      {
        name: action,
        payload: {
          eventId: `0b7e4a52-9d1c-4f3e-8a60-${String(index + 1).padStart(12, '0')}`,
          occurredAt: '2026-11-24T10:15:30.123Z',
          action,
          actor: event.actor,
          clientId,
          smsConfigId: event.smsConfigId,
          requestId: 'c1d2e3f4-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
          callerRequestId: null,
          changed: event.changed,
          details: event.details ?? null,
        },
      },
    ],
  };
}

function buildAsyncApiDocument(openApi: { info: { version: string }; components: { schemas: Record<string, Schema> } }): Schema {
  const channels: Schema = {};
  const operations: Schema = {};
  const messages: Schema = {};
  PUBLISHED_ACTIONS.forEach((action, index) => {
    const event = describedEvent(action);
    messages[action] = message(action, index);
    channels[action] = {
      address: action,
      title: action,
      description: `The routing key \`${action}\` on the topic exchange \`${EVENTS_EXCHANGE}\`: ${event.summary}`,
      messages: { [action]: refTo('components', 'messages', action) },
      bindings: refTo('components', 'channelBindings', 'eventsExchange'),
    };
    operations[action] = {
      action: 'send',
      title: `Publish ${action}`,
      summary: event.title,
      channel: refTo('channels', action),
      messages: [refTo('channels', action, 'messages', action)],
      bindings: refTo('components', 'operationBindings', 'persistent'),
    };
  });
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Client registry and SMS configuration service: domain events',
      version: openApi.info.version,
      description: INFO_DESCRIPTION,
    },
    defaultContentType: EVENT_CONTENT_TYPE,
    servers: {
      rabbitmq: {
        host: '{host}',
        protocol: 'amqp',
        protocolVersion: '0.9.1',
        description: 'The broker of AMQP_URL; its virtual host is the one AMQP_URL names.',
        variables: { host: { default: '127.0.0.1:5672', description: 'host:port of AMQP_URL' } },
      },
    },
    channels,
    operations,
    components: {
      schemas: { DomainEvent: domainEventSchema(openApi.components.schemas.AuditEventDto) },
      messages,
      correlationIds: {
        eventId: {
          description: "The event's eventId, also sent as the AMQP message-id property: a duplicate delivery carries the same one.",
          location: '$message.payload#/eventId',
        },
      },
      channelBindings: {
        eventsExchange: {
          amqp: {
            is: 'routingKey',
            exchange: { name: EVENTS_EXCHANGE, type: 'topic', durable: true, autoDelete: false },
            bindingVersion: AMQP_BINDING_VERSION,
          },
        },
      },
      operationBindings: {
        persistent: { amqp: { deliveryMode: PERSISTENT, bindingVersion: AMQP_BINDING_VERSION } },
      },
    },
  };
}

/** The OpenAPI document of the application as it runs, built the way scripts/openapi.ts builds it. */
function openApiDocument(): Promise<Parameters<typeof buildAsyncApiDocument>[0]> {
  return withApplication(async (app) => {
    const { buildOpenApiDocument } = await import('../src/swagger');
    return buildOpenApiDocument(app) as unknown as Parameters<typeof buildAsyncApiDocument>[0];
  });
}

async function main(): Promise<void> {
  const document = buildAsyncApiDocument(await openApiDocument());
  // YAML 1.1 rules quote what a 1.1 reader would take for another type (a timestamp such as occurredAt's example), and
  // Prettier's layout makes `prettier --check .` and this check agree on one text.
  const yaml = stringify(document, { version: '1.1', lineWidth: 0, aliasDuplicateObjects: false });
  const generated = await format(yaml, { ...(await resolveConfig(OUTPUT)), parser: 'yaml' });
  writeOrCheck(OUTPUT, generated, { source: 'the code', command: 'npm run asyncapi' });
}

runScript(main);
