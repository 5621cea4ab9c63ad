/**
 * What becomes of an agent's background tasks when it gives its answer while they still run, so that no
 * result is lost. Waiting (the default): the agent's answer is not final until every task whose notice
 * would come to it has ended (its own background subagents, and those a subagent of its own handed up);
 * then it gets a further turn with their notices, as the run's root always did. Handing them up (a role's
 * `backgroundTasks: hand-to-parent`, or a root that leaves them to the user): the agent ends at once and
 * their notices go to the nearest ancestor still working (tasks/background-notices.ts), which waits for
 * them in turn; the answer says which tasks were handed up.
 */
import type { AgentRunResult } from '../agent/types.js';
import type { ModelMessage } from '../model/types.js';
import { formatNotice } from '../tasks/notifications.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { TaskWorkContext } from '../tasks/work.js';

/** Rounds of "your background tasks ended, update your answer" at most, so a chatty agent cannot loop. */
export const maxFollowUpRounds = 3;

export interface BackgroundResultsOptions {
  taskManager: TaskManager;
  context: TaskWorkContext;
  /** Everything the agent's next turn hears: task notices, messages sent to it, its capabilities' notices. */
  takeNotices(): string[];
  /** Continues the agent's conversation. */
  run(prompt: ModelMessage[]): Promise<AgentRunResult>;
}

/** Waits out the agent's background tasks and lets it update its answer with their results. */
export async function answerAfterBackgroundTasks(options: BackgroundResultsOptions, first: AgentRunResult): Promise<AgentRunResult> {
  const { taskManager, context } = options;
  let result = first;
  for (let round = 0; result.status === 'completed' && round < maxFollowUpRounds; round++) {
    const settled = waitForAwaited(taskManager, context);
    if (!(typeof settled === 'boolean' ? settled : await settled)) return result;
    // Only the ends of tasks call for another turn; other notices (a message sent to it) ride along.
    const ends = taskManager.takeNotifications(context.taskId).map(formatNotice);
    if (ends.length === 0) return result;
    const followUp: ModelMessage = {
      role: 'user',
      content: [
        {
          type: 'text',
          text: `${[...ends, ...options.takeNotices()].join('\n\n')}\n\nAll background tasks you started have now ended. Update your final answer with their results.`,
        },
      ],
    };
    result = await options.run([...result.messages, followUp]);
  }
  if (result.status !== 'completed') return result;
  const settled = waitForAwaited(taskManager, context);
  if (!(typeof settled === 'boolean' ? settled : await settled)) return result;
  // Out of rounds: results that came after the last update are added to the answer as they are.
  const late = taskManager.takeNotifications(context.taskId).map(formatNotice);
  if (late.length === 0) return result;
  return {
    ...result,
    output: `${result.output}\n\nResults of background tasks that ended after this answer was written:\n\n${late.join('\n\n')}`,
  };
}

/** The answer of an agent that does not wait: it names the tasks still running, whose notices its parent gets. */
export function handedUpNote(taskManager: TaskManager, taskId: string): string {
  const task = taskManager.get(taskId);
  if (!task || task.parentId === null) return '';
  const running = taskManager.awaitedBy(taskId);
  if (running.length === 0) return '';
  const names = running.map((child) => `${child.id} (${child.role}: "${child.description}")`).join(', ');
  return `\n\n[Agent Team] Still running, handed to the task that started this one: ${names}. Their results come to it as notices when they end.`;
}

/**
 * True once no task whose notice comes to this agent is unfinished; false when the agent was stopped
 * meanwhile. Answered at once when none is running (most agents: no promise, B1 in docs/performance.md).
 */
function waitForAwaited(taskManager: TaskManager, context: TaskWorkContext): boolean | Promise<boolean> {
  if (taskManager.awaitedIds(context.taskId).length === 0) return !context.signal.aborted;
  return waitForRunning(taskManager, context);
}

async function waitForRunning(taskManager: TaskManager, context: TaskWorkContext): Promise<boolean> {
  const taskId = context.taskId;
  try {
    // A subagent may hand its own running tasks up while we wait for it: ask again until none is left.
    for (let running = taskManager.awaitedIds(taskId); running.length > 0; running = taskManager.awaitedIds(taskId)) {
      // Only waiting: the slot goes to the tasks waited for (TaskManager.wait with waiterId).
      await Promise.all(running.map((id) => taskManager.wait(id, { signal: context.signal, waiterId: taskId })));
    }
  } catch (error) {
    if (context.signal.aborted) return false;
    throw error;
  }
  return !context.signal.aborted;
}
