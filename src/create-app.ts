import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { AppConfig } from './config/app-config';
import { loadAppConfig } from './config/load-app-config';
import { createFastifyAdapter } from './http/edge';
import { Loggers, createLoggers, loggingConfigOf } from './logging/logger-options';
import { nestLoggerOver } from './logging/nest-logger';
import { setUpSwagger } from './swagger';

// Shared by main.ts and the e2e tests, so that the tests run exactly what production runs.
export async function createApp(
  config: AppConfig = loadAppConfig(),
  loggers: Loggers = createLoggers(loggingConfigOf(config)),
): Promise<NestFastifyApplication> {
  if (config.generatedSecretsFile) loggers.root.warn({ context: 'Startup' }, developmentSecretsNotice(config));
  for (const variable of config.ignoredVariables) {
    loggers.root.warn({ context: 'Startup', variable }, `${variable} is no longer read and is ignored (see README, Configuration)`);
  }
  // No body parser here: the edge parses JSON (src/http/edge.ts).
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, loggers), createFastifyAdapter(config), {
    bodyParser: false,
    logger: nestLoggerOver(loggers.root),
    // A start that fails is the caller's to report (main.ts: one line, exit 1), never a process.abort().
    abortOnError: false,
  });
  // process.exit(0) once closed, rather than re-raising the signal: a drained shutdown is a clean exit.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  if (config.docsEnabled) setUpSwagger(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

function developmentSecretsNotice({ generatedSecretsFile, createdDevelopmentSecrets }: AppConfig): string {
  return (
    `${createdDevelopmentSecrets ? 'Generated development secrets in' : 'Using development secrets from'} ${generatedSecretsFile}: ` +
    'not for production (set ADMIN_API_KEYS and ENCRYPTION_KEYS there); `npm run keys` prints the admin key'
  );
}
