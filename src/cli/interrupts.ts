/**
 * Ctrl-C on the CLI. The first one stops the run cleanly: every task stopped (children included) with its
 * partial output printed, or, while changes are being applied, the apply stops before the next file. A
 * second one exits at once with 130, for when the clean stop itself is what hangs.
 */
export interface InterruptibleProcess {
  on(event: 'SIGINT', listener: () => void): unknown;
  off(event: 'SIGINT', listener: () => void): unknown;
  exit(code: number): void;
}

export class Interrupts {
  private count = 0;
  private readonly controller = new AbortController();
  private readonly listener = () => this.onInterrupt();

  constructor(
    private readonly process: InterruptibleProcess,
    private readonly stderr: { write(text: string): void },
    /** What the first Ctrl-C stops (the task manager's stopAll). */
    private readonly stopRun: () => void,
  ) {
    process.on('SIGINT', this.listener);
  }

  /** True after the first Ctrl-C. */
  get interrupted(): boolean {
    return this.count > 0;
  }

  /** Aborted by the first Ctrl-C: long steps after the run (applying changes) stop between files. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  dispose(): void {
    this.process.off('SIGINT', this.listener);
  }

  private onInterrupt(): void {
    this.count++;
    if (this.count === 1) {
      this.stderr.write('\nagent-team: stopping every task… (Ctrl-C again to exit at once)\n');
      this.controller.abort();
      this.stopRun();
      return;
    }
    this.stderr.write('\nagent-team: exiting at once; tasks still stopping were not waited for.\n');
    this.process.exit(130);
  }
}
