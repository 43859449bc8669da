import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { MonotonicClock } from '../common/clock';
import { CacheInvalidationBus } from '../client-cache/cache-invalidation.bus';
import { isNeverPublicName } from '../common/validation/never-public-names';
import { WILDCARD_PREFIX, approvalHostOf, isIpHost } from '../common/validation/provider-host';
import { AppConfig } from '../config/app-config';
import { ProviderHostRepository } from './provider-host.repository';

// While the bus is not heard, the list is read again past this age: within the promised second.
export const UNHEARD_MAX_AGE_MS = 800;
// While it is heard, past this one: a message lost, or a line the change sequence gave up on, is not kept for good.
export const HEARD_MAX_AGE_MS = 60_000;

export interface ProviderDestination {
  smsApi: string;
  providerUrl: string | null;
  balanceUrl: string | null;
}

export class ApprovedHosts {
  private readonly exact = new Set<string>();
  private readonly wildcardNames = new Set<string>();

  // allowPrivate: ALLOW_PRIVATE_PROVIDER_HOSTS, without which a name that is never public is not approved, listed or not.
  constructor(
    hosts: Iterable<string>,
    private readonly allowPrivate = false,
  ) {
    for (const host of hosts) {
      if (host.startsWith(WILDCARD_PREFIX)) this.wildcardNames.add(host.slice(WILDCARD_PREFIX.length));
      else this.exact.add(host);
    }
  }

  approves(destination: ProviderDestination): boolean {
    return (
      this.approvesUrl(destination.smsApi) &&
      (destination.providerUrl === null || this.approvesUrl(destination.providerUrl)) &&
      (destination.balanceUrl === null || this.approvesUrl(destination.balanceUrl))
    );
  }

  private approvesUrl(url: string): boolean {
    const host = approvalHostOf(url);
    if (host === null || (!this.allowPrivate && isNeverPublicName(host))) return false;
    if (this.exact.has(host)) return true;
    if (this.wildcardNames.size === 0 || isIpHost(host)) return false;
    for (let dot = host.indexOf('.'); dot !== -1; dot = host.indexOf('.', dot + 1)) {
      if (this.wildcardNames.has(host.slice(dot + 1))) return true;
    }
    return false;
  }
}

@Injectable()
export class ProviderHostApproval implements OnApplicationBootstrap {
  private readonly logger = new Logger('ProviderHostApproval');
  private hosts = new ApprovedHosts([]);
  private loadedAt = -Infinity;
  // The list is current when it was read after the last change heard.
  private changes = 0;
  private loadedAfter = -1;
  private loading: Promise<void> | null = null;

  private readonly allowPrivate: boolean;

  constructor(
    private readonly repository: ProviderHostRepository,
    private readonly bus: CacheInvalidationBus,
    config?: ConfigService<AppConfig, true>,
    private readonly clock: MonotonicClock = new MonotonicClock(),
  ) {
    this.allowPrivate = config?.get('allowPrivateProviderHosts', { infer: true }) ?? false;
  }

  onApplicationBootstrap(): void {
    this.bus.onProviderHostsChanged(() => this.changed());
  }

  async current(): Promise<ApprovedHosts> {
    // Too old counts as a change.
    const maxAge = this.bus.live ? HEARD_MAX_AGE_MS : UNHEARD_MAX_AGE_MS;
    if (this.loadedAfter === this.changes && this.clock.now() - this.loadedAt >= maxAge) this.changes += 1;
    if (this.loadedAfter !== this.changes) await this.reload();
    return this.hosts;
  }

  changed(): void {
    this.changes += 1;
    this.reload().catch((error: Error) => this.logger.warn(`Approved provider hosts not read: ${error.message}`));
  }

  // One read at a time; a change heard during a read is followed by another.
  private reload(): Promise<void> {
    this.loading ??= this.read().finally(() => (this.loading = null));
    return this.loading;
  }

  private async read(): Promise<void> {
    while (this.loadedAfter !== this.changes) {
      const after = this.changes;
      const startedAt = this.clock.now();
      this.hosts = new ApprovedHosts(await this.repository.allHosts(), this.allowPrivate);
      this.loadedAt = startedAt;
      this.loadedAfter = after;
    }
  }
}
