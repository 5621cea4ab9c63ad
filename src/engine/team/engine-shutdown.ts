/**
 * The one shutdown sequence of an engine, written here and nowhere else. Each part registers what it
 * holds under its stage; `close()` runs the stages in this order, once, whoever calls it and however often:
 *
 * 1. `intake`: nothing new starts (role watchers stop, the checks take no new run).
 * 2. `tasks`: the task manager stops every task (reason: shutdown) and writes its history.
 * 3. `capabilities`: what the tools held (MCP servers, the commands' scratch copies), once no task uses them.
 * 4. `history`: the run log and the host's stores write what is pending, after the tasks' last events.
 * 5. `telemetry`: the spans, which end with the tasks, are sent last.
 *
 * A step that fails is reported and the rest still run: a window that closes must not keep a server alive
 * because telemetry could not be sent.
 */
export const shutdownStages = ['intake', 'tasks', 'capabilities', 'history', 'telemetry'] as const;

export type ShutdownStage = (typeof shutdownStages)[number];

export type ShutdownStep = () => void | Promise<unknown>;

export class EngineShutdown {
  private readonly steps = new Map<ShutdownStage, ShutdownStep[]>(shutdownStages.map((stage) => [stage, []]));
  private closing: Promise<void> | undefined;

  /** @param onWarning hears a step that failed (its message), so the rest of the shutdown goes on. */
  constructor(private readonly onWarning: (message: string) => void) {}

  /** Adds a step to its stage (run in the order added). A step added after `close()` began runs when it ends. */
  add(stage: ShutdownStage, step: ShutdownStep): void {
    if (this.closing) {
      void this.closing.then(() => this.run(step));
      return;
    }
    this.steps.get(stage)!.push(step);
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.closing !== undefined;
  }

  /** Runs every stage in order; the second call returns the first call's promise. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const stage of shutdownStages) {
        const steps = this.steps.get(stage)!.splice(0);
        // Steps of one stage are independent (two stores, two servers): they end together.
        await Promise.all(steps.map((step) => this.run(step)));
      }
    })();
    return this.closing;
  }

  private async run(step: ShutdownStep): Promise<void> {
    try {
      await step();
    } catch (error) {
      this.onWarning(`Shutting down: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
