import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ADMIN_API_KEY_SCHEME, DISPATCHER_API_KEY_SCHEME, SECRET_KEY_SCHEME } from './auth/auth.decorators';
import { ADMIN_API_KEY_HEADER, SECRET_KEY_HEADER } from './auth/credential-headers';
import { ErrorResponseDto } from './common/errors/error-response.dto';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Client registry and SMS configuration service')
    .setDescription(
      'Registers client applications, issues and rotates their secret keys, stores their SMS provider configurations, ' +
        'resolves them for the SMS dispatcher, keeps an audit log and creates RabbitMQ exchanges. Every error is `{status, error}` with `status` equal to the HTTP status.',
    )
    .setVersion('1.0.0')
    .addServer('/', 'This service')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: ADMIN_API_KEY_HEADER, description: 'Admin API key (ADMIN_API_KEYS)' },
      ADMIN_API_KEY_SCHEME,
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: SECRET_KEY_HEADER, description: 'A client secret key, from Add client' },
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
  return SwaggerModule.createDocument(app, config, { extraModels: [ErrorResponseDto] });
}

export function setUpSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
