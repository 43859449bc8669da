/** Told how each statement ended: /health keeps the database's state from real traffic instead of a query per call. */
export interface StatementOutcomeObserver {
  succeeded(): void;
  failed(error: unknown): void;
}

/**
 * The statements sent to the database and not answered yet (the db_queries_in_flight gauge), and how each ended. A
 * statement counts from the moment it asks for a connection: at most DATABASE_POOL_SIZE run at once on MySQL, more wait
 * for one. Counted here because neither mysql2 nor TypeORM keeps such a count.
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

  counted<T>(statement: () => Promise<T>): Promise<T> {
    this.count++;
    return statement().then(
      (result) => {
        this.count--;
        this.observer?.succeeded();
        return result;
      },
      (error: unknown) => {
        this.count--;
        this.observer?.failed(error);
        throw error;
      },
    );
  }
}
