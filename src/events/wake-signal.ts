/**
 * Wakes a waiting loop early. A wake that comes while the loop is busy is kept, so the next wait returns at once:
 * what was committed during a pass is looked for in the pass after it.
 */
export class WakeSignal {
  private pending = false;
  private wakeWaiter?: () => void;

  wake(): void {
    this.pending = true;
    this.wakeWaiter?.();
  }

  /** Resolves on the first wake since the last wait, or after `milliseconds`. */
  async wait(milliseconds: number): Promise<void> {
    if (!this.pending) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, milliseconds);
        // A pending timer does not keep a stopped process alive.
        timer.unref();
        this.wakeWaiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeWaiter = undefined;
    }
    this.pending = false;
  }
}
