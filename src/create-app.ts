import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { createFastifyAdapter } from './http/edge';
import { setUpSwagger } from './swagger';

/** Builds the whole application, exactly as production runs it, without listening: main.ts and the e2e tests share it. */
export async function createApp(): Promise<NestFastifyApplication> {
  // The edge's hooks are registered by EdgeModule (src/http/edge.ts lists them in order); JSON is parsed there too.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, createFastifyAdapter(), { bodyParser: false, bufferLogs: true });
  app.useLogger(app.get(Logger));
  // process.exit(0) once closed, rather than re-raising the signal: a drained shutdown is a clean exit.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  setUpSwagger(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
