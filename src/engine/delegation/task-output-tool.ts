import * as z from 'zod';
import { defineTool, type Tool } from '../agent/tool.js';
import { isTerminal } from '../tasks/types.js';
import { type DelegationScope, isInSubtree } from './delegation-scope.js';
import { formatTaskResult } from './task-result-text.js';

/** The longest a blocking `TaskOutput` call waits, whatever the model asks for. */
export const maxTaskOutputWaitMs = 600_000;
const defaultWaitMs = 30_000;

const taskOutputInput = z.object({
  task_id: z.string().min(1).describe('The id of a task you started with the Agent tool.'),
  block: z
    .boolean()
    .optional()
    .describe('Default true: wait for the task to end (up to timeout_ms). false: return its current status at once.'),
  timeout_ms: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(`How long to wait when blocking, in ms. Default ${defaultWaitMs}, at most ${maxTaskOutputWaitMs}.`),
});

/** The `TaskOutput` tool: the status and output of a subagent task of this task's tree. */
export function createTaskOutputTool(scope: DelegationScope): Tool<z.infer<typeof taskOutputInput>> {
  return defineTool({
    name: 'TaskOutput',
    description:
      'Read the status and output of a subagent task you started (for example one running in the background). Blocks until it ends unless block is false.',
    inputSchema: taskOutputInput,
    readOnly: true,
    timeoutMs: Infinity,
    async execute(input, context) {
      const task = scope.taskManager.get(input.task_id);
      if (!task || !isInSubtree(scope, input.task_id)) throw new Error(unknownTaskMessage(scope, input.task_id));
      // A wait of 0 ms is no wait (0 is never "no limit" here, whatever it means for a timer).
      const block = (input.block ?? true) && input.timeout_ms !== 0;
      const finalTask =
        block && !isTerminal(task.status)
          ? await scope.taskManager.wait(task.id, {
              timeoutMs: Math.min(input.timeout_ms ?? defaultWaitMs, maxTaskOutputWaitMs),
              signal: context.signal,
              waiterId: scope.parentTaskId,
            })
          : task;
      if (!isTerminal(finalTask.status)) {
        return formatTaskResult(finalTask, { partialOutput: scope.taskManager.partialOutput(finalTask.id) });
      }
      // The model has the result now; a notice of the same end on its next turn would only repeat it.
      scope.taskManager.dismissNotification(finalTask.id);
      return formatTaskResult(finalTask, { extra: scope.describeChanges?.(finalTask.id) });
    },
  });
}

export function unknownTaskMessage(scope: DelegationScope, taskId: string): string {
  const mine = scope.taskManager.children(scope.parentTaskId).map((task) => `${task.id} (${task.role}, ${task.status})`);
  return `No task "${taskId}" among the tasks you started. Your tasks: ${mine.join(', ') || '(none)'}.`;
}
