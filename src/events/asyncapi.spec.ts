import { AsyncAPIDocumentInterface, Diagnostic, DiagnosticSeverity, Parser } from '@asyncapi/parser';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EVENT_CONTENT_TYPE, EVENTS_EXCHANGE, PUBLISHED_ACTIONS } from './domain-events';

/** asyncapi.yaml is written by `npm run asyncapi` (scripts/asyncapi.ts); CI checks it is what the code generates. */
const ASYNCAPI_FILE = resolve(__dirname, '../../asyncapi.yaml');
const OPENAPI_FILE = resolve(__dirname, '../../openapi.json');
/** Errors, and warnings too: the document has none, and a new one is worth a look. Hints and information pass. */
const FAILING_SEVERITIES = new Set<number>([DiagnosticSeverity.Error, DiagnosticSeverity.Warning]);

describe('asyncapi.yaml, the contract of the domain events', () => {
  let document: AsyncAPIDocumentInterface;
  let diagnostics: Diagnostic[];

  beforeAll(async () => {
    const parsed = await new Parser().parse(readFileSync(ASYNCAPI_FILE, 'utf8'), { source: ASYNCAPI_FILE });
    diagnostics = parsed.diagnostics;
    if (!parsed.document) throw new Error(`asyncapi.yaml does not parse:\n${listed(parsed.diagnostics)}`);
    document = parsed.document;
  });

  it('is a valid AsyncAPI 3.0.0 document, without an error or a warning', () => {
    expect(document.version()).toBe('3.0.0');
    expect(listed(diagnostics.filter((diagnostic) => FAILING_SEVERITIES.has(diagnostic.severity)))).toBe('');
  });

  it('has a channel, a send operation and a message for each published action, and none other', () => {
    const actions = [...PUBLISHED_ACTIONS].sort();
    const channels = document.channels().all();
    const messages = document.messages().all();
    const operations = document.operations().all();
    expect(sorted(channels.map((channel) => channel.address()))).toEqual(actions);
    expect(sorted(messages.map((message) => message.name()))).toEqual(actions);
    const sentOn = operations.flatMap((operation) => operation.channels().all());
    expect(sorted(sentOn.map((channel) => channel.address()))).toEqual(actions);
    expect(operations.filter((operation) => !operation.isSend())).toEqual([]);
  });

  it('routes each action as a routing key on the durable topic exchange of the events', () => {
    for (const channel of document.channels().all()) {
      expect(channel.bindings().get('amqp')?.value()).toEqual({
        is: 'routingKey',
        exchange: { name: EVENTS_EXCHANGE, type: 'topic', durable: true, autoDelete: false },
      });
    }
  });

  it('sends every message persistent, as JSON, with eventId as its message-id', () => {
    for (const operation of document.operations().all()) {
      expect(operation.bindings().get('amqp')?.value()).toEqual({ deliveryMode: 2 });
    }
    for (const message of document.messages().all()) {
      expect(message.contentType()).toBe(EVENT_CONTENT_TYPE);
      expect(message.correlationId()?.location()).toBe('$message.payload#/eventId');
      expect(message.correlationId()?.description()).toContain('message-id');
    }
  });

  it('describes the body with the properties of AuditEventDto in openapi.json, but where the request came from', () => {
    const auditEventDto = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')).components.schemas.AuditEventDto;
    const domainEvent = document.components().schemas().get('DomainEvent')!.json<{ required: string[]; properties: Record<string, any> }>();
    const published = (field: string) => !['sourceAddress', 'userAgent'].includes(field);
    expect(Object.keys(auditEventDto.properties)).toEqual(expect.arrayContaining(['sourceAddress', 'userAgent', 'details']));
    expect(domainEvent.required).toEqual(auditEventDto.required.filter(published));
    const publishedProperties = Object.fromEntries(Object.entries(auditEventDto.properties).filter(([name]) => published(name)));
    expect(shapesOf(domainEvent.properties, jsonSchemaShape)).toEqual(shapesOf(publishedProperties, openApiShape));
    expect(domainEvent.properties.action).toMatchObject({ enum: [...PUBLISHED_ACTIONS] });
  });

  it('narrows each message to its own action', () => {
    for (const message of document.messages().all()) {
      const parts = message.payload()?.allOf() ?? [];
      expect(parts.map((schema) => schema.properties()?.action?.const())).toContain(message.name());
    }
  });

  it('gives each message an example that its payload schema accepts', () => {
    // The parser does not check AsyncAPI 3 examples against their payload: ajv does.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const message of document.messages().all()) {
      const validate = ajv.compile(message.payload()!.json());
      const examples = message.examples().all();
      expect(examples).toHaveLength(1);
      for (const example of examples) {
        validate(example.payload());
        expect({ example: example.name(), errors: validate.errors ?? [] }).toEqual({ example: message.name(), errors: [] });
      }
    }
  });
});

function sorted(values: unknown[]): unknown[] {
  return [...values].sort();
}

function listed(diagnostics: Diagnostic[]): string {
  return diagnostics.map((d) => `${DiagnosticSeverity[d.severity]} ${d.code} at ${d.path.join('.')}: ${d.message}`).join('\n');
}

interface PropertyShape {
  types: unknown[];
  format?: unknown;
  description?: unknown;
  items?: unknown;
}

function shapesOf(properties: Record<string, any>, shape: (property: any) => PropertyShape): Record<string, PropertyShape> {
  return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, shape(property)]));
}

/** OpenAPI 3.0 says `nullable: true`; JSON Schema, which AsyncAPI uses, says `type: [..., 'null']`. */
function openApiShape(property: any): PropertyShape {
  const types = property.nullable ? [property.type, 'null'] : [property.type];
  return { types, format: property.format, description: property.description, items: property.items?.type };
}

function jsonSchemaShape(property: any): PropertyShape {
  return { types: [property.type].flat(), format: property.format, description: property.description, items: property.items?.type };
}
