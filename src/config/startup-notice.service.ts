import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from './app-config';

/** Tells a new user where the generated development secrets are; the keys themselves never reach a log line. */
@Injectable()
export class StartupNoticeService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Startup');

  constructor(private readonly config: ConfigService<AppConfig, true>) {}

  onApplicationBootstrap(): void {
    const file = this.config.get('generatedSecretsFile', { infer: true });
    if (!file) return;
    const created = this.config.get('createdDevelopmentSecrets', { infer: true });
    this.logger.warn(
      `${created ? 'Generated development secrets in' : 'Using development secrets from'} ${file}: \`npm run keys\` prints the ` +
        'admin key; set ADMIN_API_KEYS and ENCRYPTION_KEYS in production',
    );
  }
}
