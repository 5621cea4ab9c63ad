import * as z from 'zod';
import { defineTool, type Tool } from '../agent/tool.js';
import type { MessageInbox } from '../conversation/message-inbox.js';
import { type DelegationScope, isInSubtree } from './delegation-scope.js';
import { unknownTaskMessage } from './task-output-tool.js';

const sendMessageInput = z.object({
  task_id: z.string().min(1).describe('A running task you started (or one below it).'),
  message: z.string().trim().min(1).describe('What the task should know or do differently; it reads it at its next turn.'),
});

/** `SendMessage`: steers a running subagent of this task's tree without stopping it. */
export function createSendMessageTool(scope: DelegationScope, inbox: MessageInbox): Tool<z.infer<typeof sendMessageInput>> {
  return defineTool({
    name: 'SendMessage',
    description:
      'Send a message to a running subagent you started: a correction, a new fact, a narrower goal. It keeps its context and reads the message at its next turn.',
    inputSchema: sendMessageInput,
    readOnly: true,
    async execute(input) {
      if (!scope.taskManager.get(input.task_id) || !isInSubtree(scope, input.task_id))
        throw new Error(unknownTaskMessage(scope, input.task_id));
      const sender = scope.taskManager.get(scope.parentTaskId);
      inbox.deliver(input.task_id, `task ${scope.parentTaskId}${sender ? ` (${sender.role})` : ''}, which started it`, input.message);
      return `Delivered: task ${input.task_id} reads it at its next turn.`;
    },
  });
}
