/**
 * The conversation capability's vocabulary and settings: the tools an agent gets by its mode or place
 * (never by a role's list), and whether the plan waits for the user.
 */
import * as z from 'zod';
import { defineCapability, defineSetting } from '../capabilities/capability-descriptor.js';

export const conversationDescriptor = defineCapability({
  name: 'conversation',
  tools: [
    { name: 'AskUser', purpose: 'ask the user a question (task and chat modes)', listedInRoles: false },
    { name: 'CompleteTask', purpose: 'complete a task-mode task with its result', listedInRoles: false },
    { name: 'TodoWrite', purpose: "keep the coordinator's todo list", listedInRoles: false },
  ],
  settings: {
    approvePlan: defineSetting<boolean>({
      key: 'agentTeam.approvePlan',
      schema: z.boolean(),
      default: false,
      description:
        "Show the plan (the coordinator's todo list, or the planner's plan with `/plan`) before any subagent starts, as a question on the run: approve it, write the changes you want (the coordinator revises and asks again), or stop the run with nothing started. On in any scope wins.",
      scope: 'window',
      // A folder may ask for approval, never skip the approval the user asked for.
      trust: 'on-wins',
      cli: [
        {
          flag: '--approve-plan',
          kind: 'switch',
          sets: true,
          help: "show the plan (the coordinator's todo list, or --plan's plan) before any subagent starts; answer approve, stop, or the changes you want (stdin; mcp: an elicitation; serve: the task's input-required state)",
        },
      ],
    }),
  },
});
