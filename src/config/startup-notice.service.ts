import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from './app-config';

/** Tells a new user where the generated development secrets are, and the admin key once, when it is made. */
@Injectable()
export class StartupNoticeService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Startup');

  constructor(private readonly config: ConfigService<AppConfig, true>) {}

  onApplicationBootstrap(): void {
    const file = this.config.get('generatedSecretsFile', { infer: true });
    if (!file) return;
    const adminApiKey = this.config.get('generatedAdminApiKey', { infer: true });
    if (adminApiKey) {
      this.logger.warn(`Generated a development admin API key (shown once, kept in ${file}): x-api-key: ${adminApiKey}`);
    } else {
      this.logger.warn(`Using development secrets from ${file}; set ADMIN_API_KEYS and ENCRYPTION_KEYS in production`);
    }
  }
}
