/**
 * Talking to the user, as a capability: agents of a role with `mode: task` or `chat` (seed 001) get
 * `AskUser` and `CompleteTask` and are told how to use them; a chat goes on after each answer with the
 * user's reply, until `CompleteTask` ends it or the user does; a task ends through `CompleteTask` only
 * (task-completion.ts).
 */
import { reviewAnswer, userReplies } from '../agent/stop-condition-kinds.js';
import type { Capability, CapabilityGrant, CapabilityTask } from '../capabilities/capability.js';
import type { RoleMode } from '../roles/types.js';
import { createAskUserTool, createCompleteTaskTool } from './conversation-tools.js';
import { completeTaskReview } from './task-completion.js';
import type { UserChannel } from './user-channel.js';

/** `channel`: how agents reach the user. Without one, `AskUser` answers that no user is available. */
export function conversationCapability(channel: UserChannel | undefined): Capability {
  return {
    name: 'conversation',
    grant: (task) =>
      task.agent.mode === undefined || task.agent.mode === 'single_turn' ? undefined : conversationGrant(task, task.agent.mode, channel),
  };
}

function conversationGrant(
  task: CapabilityTask,
  mode: Exclude<RoleMode, 'single_turn'>,
  channel: UserChannel | undefined,
): CapabilityGrant {
  const { context, agent } = task;
  return {
    tools: [createAskUserTool(channel, context, agent.role), createCompleteTaskTool()],
    instructions: talkingInstruction(mode),
    // CompleteTask ends the run itself (Tool.endsRun): a task's plain answer is sent back once (task-completion.ts) ...
    ...(mode === 'task' ? { stopWhen: [reviewAnswer('complete-task', completeTaskReview(context))] } : {}),
    // ... and a chat's is its next turn.
    ...(mode === 'chat' && channel
      ? {
          stopWhen: [
            userReplies('chat', (answer: string) =>
              context.waitForUser(() => channel.ask({ taskId: task.taskId, role: agent.role, kind: 'chat', text: answer }, context.signal)),
            ),
          ],
        }
      : {}),
  };
}

function talkingInstruction(mode: RoleMode): string {
  const base =
    '# Working with the user\nIf you cannot go on without the user (a decision, a fact only they know), ask with AskUser: you wait for the answer. When your task is done, call CompleteTask with its result.';
  if (mode === 'task') return `${base} Your task ends only through CompleteTask: an answer without it is not taken as your result.`;
  return `${base} This is a conversation: after each of your answers the user may reply, until you call CompleteTask or they end the chat.`;
}
