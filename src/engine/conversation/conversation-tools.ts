/**
 * The tools of agents that talk to the user (role `mode: task` or `chat`, seed 001): `AskUser` puts a
 * question to the user and returns the answer; `CompleteTask` ends the task with its result.
 */
import * as z from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { type Tool, defineTool } from '../agent/tool.js';
import type { TaskWorkContext } from '../tasks/work.js';
import { type UserChannel, noUserAvailable } from './user-channel.js';

const askUserInput = builtOnFirstUse(() =>
  z.object({
    question: z
      .string()
      .trim()
      .min(1)
      .max(4_000)
      .describe('One clear question; say what you will do with each likely answer if that helps the user choose.'),
  }),
);

const completeTaskInput = builtOnFirstUse(() =>
  z.object({
    result: z
      .string()
      .min(1)
      .describe('The result of your task, for whoever gave it to you: what you found or did, and what is left open.'),
  }),
);

export function createAskUserTool(
  channel: UserChannel | undefined,
  context: TaskWorkContext,
  role: string,
): Tool<z.infer<ReturnType<typeof askUserInput>>> {
  return defineTool({
    name: 'AskUser',
    description:
      'Ask the user a question when you cannot go on without their decision or knowledge (a choice between approaches, a missing fact). You wait for the answer; ask only what you cannot find out yourself.',
    inputSchema: askUserInput(),
    readOnly: true,
    // A person answers: no tool timeout. A stop ends the wait.
    timeoutMs: Infinity,
    async execute(input, toolContext) {
      if (!channel) return noUserAvailable;
      const answer = await context.waitForUser(() =>
        channel.ask({ taskId: context.taskId, role, kind: 'question', text: input.question }, toolContext.signal),
      );
      return answer === undefined ? noUserAvailable : `The user answered: ${answer}`;
    },
  });
}

/** `CompleteTask {result}`: a successful call ends the agent's run with `result` as its output. */
export function createCompleteTaskTool(): Tool<z.infer<ReturnType<typeof completeTaskInput>>> {
  return defineTool({
    name: 'CompleteTask',
    description: 'End your task with its result. Call it once the task is done (or cannot be done, saying why); nothing runs after it.',
    inputSchema: completeTaskInput(),
    readOnly: true,
    async execute() {
      return 'The task is complete.';
    },
    endsRun: (input) => input.result,
  });
}
