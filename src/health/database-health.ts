import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { isUnavailableError } from '../common/errors/unavailable';
import { withTimeout } from '../common/timeout';
import { InjectDataSource } from '@nestjs/typeorm';
import { RegistryDataSource } from '../database/registry-data-source';
import { StatementOutcomeObserver } from '../database/statement-tally';

export type DependencyState = 'up' | 'down';

/** How often the database is pinged (RegistryDataSource.ping), and how long the answer may take before it is down. */
export const DATABASE_PROBE_INTERVAL_MS = 2000;
export const DATABASE_PROBE_TIMEOUT_MS = 2000;
/** A statement failing for want of the database brings the next probe forward, at most this often. */
export const FAILURE_PROBE_GAP_MS = 250;

/**
 * Whether the database answers, held in memory so /health costs no query: any statement that succeeds says up; a probe
 * every DATABASE_PROBE_INTERVAL_MS, and one as soon as a statement fails with a connection error, says up or down.
 * A database that refuses shows as down as soon as a request (or the next probe) meets it; one that hangs, within the
 * interval plus the probe's timeout (4 s).
 */
@Injectable()
export class DatabaseHealth implements StatementOutcomeObserver, OnModuleInit, OnModuleDestroy {
  // The start has just connected to it (and read the migrations table).
  private state: DependencyState = 'up';
  private probeInFlight = false;
  private lastProbeAt = Number.NEGATIVE_INFINITY;
  private timer?: NodeJS.Timeout;

  constructor(@InjectDataSource() private readonly database: RegistryDataSource) {}

  get current(): DependencyState {
    return this.state;
  }

  onModuleInit(): void {
    this.database.statements.observe(this);
    // unref: the probe alone never keeps the process alive.
    this.timer = setInterval(() => this.probe(), DATABASE_PROBE_INTERVAL_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  succeeded(): void {
    this.state = 'up';
  }

  failed(error: unknown): void {
    if (this.timer && isUnavailableError(error) && performance.now() - this.lastProbeAt >= FAILURE_PROBE_GAP_MS) this.probe();
  }

  private probe(): void {
    // A probe that hangs is not sent again until the driver gives up on it: it holds one pool connection at most.
    if (this.probeInFlight) return;
    this.probeInFlight = true;
    this.lastProbeAt = performance.now();
    const ping = this.database.ping();
    void ping.then(
      () => (this.probeInFlight = false),
      () => (this.probeInFlight = false),
    );
    // Its success is also reported by succeeded(), when it comes.
    withTimeout(ping, DATABASE_PROBE_TIMEOUT_MS, 'database').catch(() => (this.state = 'down'));
  }
}
