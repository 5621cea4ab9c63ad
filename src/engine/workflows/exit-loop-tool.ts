import * as z from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { type Tool, defineTool } from '../agent/tool.js';

/** What a loop's members can tell it: end after the current step. */
export class LoopControl {
  private exit: { reason: string } | undefined;

  get exitRequested(): boolean {
    return this.exit !== undefined;
  }

  get reason(): string | undefined {
    return this.exit?.reason;
  }

  requestExit(reason: string): void {
    this.exit ??= { reason };
  }
}

const exitLoopInput = builtOnFirstUse(() =>
  z.object({
    reason: z.string().trim().min(1).max(2_000).describe('Why the loop can end now, e.g. "the fix is sound: tests cover the edge case".'),
  }),
);

/** `ExitLoop {reason}`: offered to the agents of a workflow loop; the loop ends once their step is done. */
export function createExitLoopTool(loop: LoopControl): Tool<z.infer<ReturnType<typeof exitLoopInput>>> {
  return defineTool({
    name: 'ExitLoop',
    description:
      'You are one step of a loop that repeats until the work is done or its round limit is reached. Call ExitLoop when the goal of the loop is met, so no further round runs; then give your final answer as usual.',
    inputSchema: exitLoopInput(),
    readOnly: true,
    async execute(input) {
      loop.requestExit(input.reason);
      return 'Noted: the loop ends after this step. Finish with your final answer.';
    },
  });
}
