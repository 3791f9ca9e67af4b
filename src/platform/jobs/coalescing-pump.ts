/**
 * Runs a pass of background work at most once at a time. A call while a pass is running does
 * not start a second one: it asks the running one for one more round, so a burst of wake-ups
 * (NOTIFY, timers, kicks) costs one extra pass, never a pile of concurrent ones.
 */
export class CoalescingPump {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Starts a pass, or schedules one more after the running pass; resolves when the pump is idle. */
  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again);
      } catch (err) {
        this.onError(err);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Resolves once no pass is running. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}
