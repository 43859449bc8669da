import 'reflect-metadata';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from './config/app-config';
import { createApp } from './create-app';

async function bootstrap(): Promise<void> {
  const app = await createApp();
  const config = app.get<ConfigService<AppConfig, true>>(ConfigService);
  await app.listen(config.get('port', { infer: true }), config.get('host', { infer: true }));
}

bootstrap().catch((error: unknown) => {
  // The logger may not exist yet (a bad variable stops the start before it does): say why on stderr.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
