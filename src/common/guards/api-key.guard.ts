import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createHash, timingSafeEqual } from 'node:crypto';
import { FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';

export const API_KEY_HEADER = 'x-api-key';

/** Admin routes: `x-api-key` must match one of ADMIN_API_KEYS, compared in constant time over SHA-256 digests. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly keyDigests: Buffer[];

  constructor(config: ConfigService<AppConfig, true>) {
    this.keyDigests = config.get('adminApiKeys', { infer: true }).map(digest);
  }

  canActivate(context: ExecutionContext): boolean {
    const presented = context.switchToHttp().getRequest<FastifyRequest>().headers[API_KEY_HEADER];
    if (typeof presented !== 'string' || presented.length === 0) {
      throw new UnauthorizedException(`${API_KEY_HEADER} header is required`);
    }
    const presentedDigest = digest(presented);
    // Every configured key is compared, so the time taken does not tell which one (or whether any) matched.
    let matched = false;
    for (const keyDigest of this.keyDigests) matched = timingSafeEqual(keyDigest, presentedDigest) || matched;
    if (!matched) throw new UnauthorizedException(`${API_KEY_HEADER} is not valid`);
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
