import 'reflect-metadata';
import { ConfigService } from '@nestjs/config';
import { Logger } from 'nestjs-pino';
import { AppConfig } from './config/app-config';
import { createApp } from './create-app';

async function bootstrap(): Promise<void> {
  const app = await createApp();
  const config = app.get<ConfigService<AppConfig, true>>(ConfigService);
  await app.listen(config.get('port', { infer: true }), config.get('host', { infer: true }));
  // With PORT=0 this line is how a supervisor (and the fault tests) learn the port.
  app.get(Logger).log(`Listening on ${await app.getUrl()}`, 'Bootstrap');
}

bootstrap().catch((error: unknown) => {
  // The logger may not exist yet (a bad variable stops the start before it does): say why on stderr.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
