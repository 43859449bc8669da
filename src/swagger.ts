import { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  OpenAPIObject,
  OperationObject,
  ReferenceObject,
  RequestBodyObject,
  SchemaObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { ADMIN_API_KEY_SCHEME, DISPATCHER_API_KEY_SCHEME, SECRET_KEY_SCHEME } from './auth/auth.decorators';
import { ADMIN_API_KEY_HEADER, SECRET_KEY_HEADER } from './auth/credential-headers';
import { ErrorResponseDto } from './common/errors/error-response.dto';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Client registry and SMS configuration service')
    .setDescription(
      'Registers client applications, issues and rotates their secret keys, stores their SMS provider configurations, ' +
        'resolves them for the SMS dispatcher, keeps an audit log and creates RabbitMQ exchanges. Every error is `{status, error}` with `status` equal to the HTTP status. ' +
        'Beyond what the schemas say, every text field must be valid Unicode (a string holding an unpaired surrogate escape such as \\ud800 is refused with 400).',
    )
    .setVersion('1.0.0')
    .addServer('/', 'This service')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: ADMIN_API_KEY_HEADER, description: 'Admin API key (ADMIN_API_KEYS)' },
      ADMIN_API_KEY_SCHEME,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: SECRET_KEY_HEADER,
        description:
          "A client's root key (sk_…, from Add client) or one of its scoped keys (rk_…). Each operation's x-required-scope " +
          'names what the key must hold: a scope (client:read, sms-config:write, dispatch) a root key always holds, or root, ' +
          'which only the current root key holds',
      },
      SECRET_KEY_SCHEME,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: ADMIN_API_KEY_HEADER,
        description: 'A dispatcher key (DISPATCHER_API_KEYS), the only credential that resolves provider credentials',
      },
      DISPATCHER_API_KEY_SCHEME,
    )
    .build();
  return withClosedRequestBodies(SwaggerModule.createDocument(app, config, { extraModels: [ErrorResponseDto] }));
}

/**
 * Says of every request body what the validation pipe holds of all of them, once: a field the body does not declare,
 * at any depth, is refused (whitelist), and so is a PATCH that changes nothing.
 */
function withClosedRequestBodies(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const resolved = (node: SchemaObject | ReferenceObject | undefined): SchemaObject | undefined => {
    const schema = node && '$ref' in node ? schemas[node.$ref.replace('#/components/schemas/', '')] : node;
    return schema && !('$ref' in schema) ? schema : undefined;
  };
  const closed = new Set<SchemaObject>();
  const close = (schema: SchemaObject | undefined): void => {
    if (schema === undefined || closed.has(schema)) return;
    closed.add(schema);
    if (schema.type === 'object' || schema.properties) schema.additionalProperties = false;
    const children = [...Object.values(schema.properties ?? {}), schema.items, ...(schema.allOf ?? []), ...(schema.oneOf ?? [])];
    for (const child of children) close(resolved(child));
  };
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, OperationObject>)) {
      const body = resolved((operation.requestBody as RequestBodyObject | undefined)?.content['application/json']?.schema);
      close(body);
      if (method === 'patch' && body) body.minProperties = 1;
    }
  }
  return document;
}

export function setUpSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
