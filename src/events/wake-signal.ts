// A wake during a pass is kept, so what was committed meanwhile is looked for in the next pass.
export class WakeSignal {
  private pending = false;
  private wakeWaiter?: () => void;

  wake(): void {
    this.pending = true;
    this.wakeWaiter?.();
  }

  async wait(milliseconds: number): Promise<void> {
    if (!this.pending) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, milliseconds);
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
