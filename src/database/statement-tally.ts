/** Told how each statement ended: /health keeps the database's state from real traffic instead of a query per call. */
export interface StatementOutcomeObserver {
  succeeded(): void;
  failed(error: unknown): void;
}

/**
 * The statements sent to the database and not answered yet (the db_queries_in_flight gauge), and how each ended. A
 * statement counts from the moment it asks for a connection: at most DATABASE_POOL_SIZE run at once on MySQL, more wait
 * for one. Counted here because neither mysql2 nor TypeORM keeps such a count; TypeORM's hooks and the MySQL pool tell
 * it (registry-data-source.ts).
 */
export class StatementTally {
  private count = 0;
  private observer?: StatementOutcomeObserver;

  get inFlight(): number {
    return this.count;
  }

  observe(observer: StatementOutcomeObserver): void {
    this.observer = observer;
  }

  /** A statement sent: it counts until succeeded() or failed(). */
  started(): void {
    this.count++;
  }

  succeeded(): void {
    this.count--;
    this.observer?.succeeded();
  }

  failed(error: unknown): void {
    this.count--;
    this.observer?.failed(error);
  }

  /** A wait for a connection: it counts until it has one, and only its failure is an outcome (the statement's comes after). */
  waitStarted(): void {
    this.count++;
  }

  waitEnded(error?: unknown): void {
    this.count--;
    if (error !== undefined) this.observer?.failed(error);
  }

  /** A statement the service sends past TypeORM (mysql2's own calls), counted like TypeORM's. */
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
