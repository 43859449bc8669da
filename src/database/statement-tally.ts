import { Injectable } from '@nestjs/common';

// /health keeps the database's state from real traffic instead of a query per call.
export interface StatementOutcomeObserver {
  succeeded(): void;
  failed(error: unknown): void;
}

// Neither mysql2 nor TypeORM keeps such a count; a statement counts from the moment it asks for a connection.
@Injectable()
export class StatementTally {
  private count = 0;
  private sent = 0;
  private observer?: StatementOutcomeObserver;

  get inFlight(): number {
    return this.count;
  }

  // Every statement since the start: what background work costs (docs/operations.md) is read from it.
  get total(): number {
    return this.sent;
  }

  observe(observer: StatementOutcomeObserver): void {
    this.observer = observer;
  }

  started(): void {
    this.count++;
    this.sent++;
  }

  succeeded(): void {
    this.count--;
    this.observer?.succeeded();
  }

  failed(error: unknown): void {
    this.count--;
    this.observer?.failed(error);
  }

  // Only a wait's failure is an outcome: the statement's comes after.
  waitStarted(): void {
    this.count++;
  }

  waitEnded(error?: unknown): void {
    this.count--;
    if (error !== undefined) this.observer?.failed(error);
  }

  counted<T>(statement: () => Promise<T>): Promise<T> {
    this.started();
    return statement().then(
      (result) => {
        this.succeeded();
        return result;
      },
      (error: unknown) => {
        this.failed(error);
        throw error;
      },
    );
  }
}
