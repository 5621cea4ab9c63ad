/**
 * Task work driven command by command from a test: it completes, fails, throws, or starts subtasks in any
 * mode and waits on them, whenever the driver says. The randomized lifecycle test uses it to reach
 * interleavings no hand-written test would think of.
 */
import { createDeferred, type Deferred } from '../../../src/engine/util/deferred.js';
import type { TaskManager } from '../../../src/engine/tasks/task-manager.js';
import type { TaskWork, TaskWorkContext, TaskWorkResult } from '../../../src/engine/tasks/work.js';

export type ScriptCommand =
  | { type: 'complete' }
  | { type: 'fail' }
  | { type: 'throw' }
  | { type: 'start-child'; mode: 'foreground' | 'background' | 'auto'; work: TaskWork }
  /** Waits (as the waiter, giving its slot back) on one of the children it started. */
  | { type: 'wait-child'; timeoutMs?: number }
  /** Waits on a promise the test settles, through `waitFor`. */
  | { type: 'wait-external'; until: Promise<void>; forUser?: boolean };

export class ScriptedTask {
  context: TaskWorkContext | undefined;
  /** True while a command is being carried out (a start or wait may take a while). */
  busy = false;
  returned = false;
  private readonly children: string[] = [];
  private nextCommand: Deferred<ScriptCommand> = createDeferred();

  constructor(
    private readonly manager: TaskManager,
    /** What it does when stopped: return its partial output, or hang like a provider call that ignores its signal. */
    private readonly onAbort: 'return' | 'hang',
  ) {}

  readonly work: TaskWork = async (context) => {
    this.context = context;
    try {
      return await this.loop(context);
    } finally {
      this.returned = true;
    }
  };

  /** True when it can take a command now. */
  get idle(): boolean {
    return this.context !== undefined && !this.busy && !this.returned;
  }

  send(command: ScriptCommand): void {
    this.busy = true;
    this.nextCommand.resolve(command);
  }

  private async loop(context: TaskWorkContext): Promise<TaskWorkResult> {
    for (;;) {
      const command = await this.nextCommand.promise;
      this.nextCommand = createDeferred();
      try {
        const result = await this.carryOut(command, context);
        if (result) return result;
      } finally {
        this.busy = false;
      }
      if (context.signal.aborted) {
        if (this.onAbort === 'hang') await new Promise<never>(() => {});
        return { status: 'failed', output: 'partial', error: 'stopped' };
      }
    }
  }

  private async carryOut(command: ScriptCommand, context: TaskWorkContext): Promise<TaskWorkResult | undefined> {
    switch (command.type) {
      case 'complete':
        return { status: 'completed', output: `output of ${context.taskId}` };
      case 'fail':
        return { status: 'failed', output: '', error: 'it failed' };
      case 'throw':
        throw new Error('the work threw');
      case 'start-child': {
        const started = await this.manager
          .start({
            parentId: context.taskId,
            role: 'worker',
            description: 'A subtask',
            prompt: 'Do it',
            mode: command.mode,
            work: command.work,
          })
          .catch(() => undefined); // The parent may have been stopped in between: refused, as it should be.
        if (started) this.children.push(started.task.id);
        return undefined;
      }
      case 'wait-child': {
        const childId = this.children[this.children.length - 1];
        if (childId)
          await this.manager
            .wait(childId, { waiterId: context.taskId, timeoutMs: command.timeoutMs, signal: context.signal })
            .catch(() => undefined);
        return undefined;
      }
      case 'wait-external':
        await (command.forUser ? context.waitForUser(command.until) : context.waitFor(command.until));
        return undefined;
    }
  }
}
