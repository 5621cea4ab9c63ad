import * as z from 'zod';
import { defineTool, type Tool } from '../agent/tool.js';
import { isTerminal } from '../tasks/types.js';
import { type DelegationScope, isInSubtree } from './delegation-scope.js';
import { unknownTaskMessage } from './task-output-tool.js';
import { formatTaskResult } from './task-result-text.js';

const taskStopInput = z.object({
  task_id: z.string().min(1).describe('The id of a task you started with the Agent tool.'),
});

/** The `TaskStop` tool: stops a subagent task and its whole subtree, keeping partial output. */
export function createTaskStopTool(scope: DelegationScope): Tool<z.infer<typeof taskStopInput>> {
  return defineTool({
    name: 'TaskStop',
    description: 'Stop a subagent task you started, and everything it started in turn. Returns its final status and partial output.',
    inputSchema: taskStopInput,
    readOnly: false,
    timeoutMs: Infinity,
    async execute(input) {
      const task = scope.taskManager.get(input.task_id);
      if (!task || !isInSubtree(scope, input.task_id)) throw new Error(unknownTaskMessage(scope, input.task_id));
      if (isTerminal(task.status)) return formatTaskResult(task, { extra: 'It had already ended; nothing was stopped.' });
      const stopped = await scope.taskManager.stop(task.id, { kind: 'stopped-by-agent', taskId: scope.parentTaskId });
      return formatTaskResult(stopped);
    },
  });
}
