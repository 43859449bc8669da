import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { isUnavailableError, withTimeout } from '../common/errors/unavailable';
import { StatementOutcomeObserver, StatementTally } from '../database/statement-tally';
import { Transactions } from '../database/transactions';

export type DependencyState = 'up' | 'down';

export const DATABASE_PROBE_INTERVAL_MS = 2000;
export const DATABASE_PROBE_TIMEOUT_MS = 2000;
export const FAILURE_PROBE_GAP_MS = 250;

@Injectable()
export class DatabaseHealth implements StatementOutcomeObserver, OnModuleInit, OnModuleDestroy {
  // The start has just connected to it (and read the migrations table).
  private state: DependencyState = 'up';
  private probeInFlight = false;
  private lastProbeAt = Number.NEGATIVE_INFINITY;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly statements: StatementTally,
    private readonly transactions: Transactions,
  ) {}

  get current(): DependencyState {
    return this.state;
  }

  onModuleInit(): void {
    this.statements.observe(this);
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
    const ping = this.transactions.ping();
    void ping.then(
      () => (this.probeInFlight = false),
      () => (this.probeInFlight = false),
    );
    // Its success is also reported by succeeded(), when it comes.
    withTimeout(ping, DATABASE_PROBE_TIMEOUT_MS, 'database').catch(() => (this.state = 'down'));
  }
}
