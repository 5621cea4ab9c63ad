/**
 * The plan a planner submits with `SubmitPlan` (contract: `{type: "llm" | "parallel" | "sequential",
 * sub_tasks: (string | {task, role?})[]}`), and the checks that need the run's limits and roles.
 */
import * as z from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';

export const planTypes = ['llm', 'parallel', 'sequential'] as const;
export type PlanType = (typeof planTypes)[number];

const subTask = builtOnFirstUse(() =>
  z.union([
    z.string().describe('The sub-task, stated so that it stands on its own.'),
    z.object({
      task: z.string().describe('The sub-task, stated so that it stands on its own.'),
      role: z.string().optional().describe('The role that should do it when it is not split further. Default: researcher.'),
    }),
  ]),
);

export const submitPlanInput = builtOnFirstUse(() =>
  z.object({
    type: z
      .enum(planTypes)
      .describe(
        'llm: do the task as one agent. parallel: independent sub-tasks side by side, then a synthesis. sequential: sub-tasks in order, each seeing the previous result.',
      ),
    sub_tasks: z.array(subTask()).describe('The sub-tasks, for parallel or sequential; empty for llm.'),
  }),
);

export type SubmitPlanInput = z.infer<ReturnType<typeof submitPlanInput>>;

export interface PlannedTask {
  task: string;
  role?: string;
}

export interface Plan {
  type: PlanType;
  subTasks: PlannedTask[];
}

export interface PlanLimits {
  /** At most this many sub-tasks. */
  maxSubtasks: number;
  /** True when a role of this name exists. */
  hasRole(name: string): boolean;
  roleNames(): string[];
}

/** The plan, or the reason it cannot be used (what the planner is told on its one retry). */
export function checkPlan(input: SubmitPlanInput, limits: PlanLimits): { ok: true; plan: Plan } | { ok: false; error: string } {
  const subTasks: PlannedTask[] = input.sub_tasks
    .map((entry) => (typeof entry === 'string' ? { task: entry } : entry))
    .map((entry) => ({ ...entry, task: entry.task.trim() }));
  if (input.type === 'llm') return { ok: true, plan: { type: 'llm', subTasks: [] } };
  if (subTasks.length > limits.maxSubtasks) {
    return {
      ok: false,
      error: `The plan has ${subTasks.length} sub-tasks; at most ${limits.maxSubtasks} are allowed. Merge some, or do the task as one agent (type "llm").`,
    };
  }
  const empty = subTasks.findIndex((entry) => entry.task === '');
  if (empty >= 0) return { ok: false, error: `sub_tasks[${empty}] is empty: state each sub-task in words.` };
  const unknown = subTasks.find((entry) => entry.role !== undefined && !limits.hasRole(entry.role));
  if (unknown) return { ok: false, error: `Unknown role "${unknown.role}" in the plan. Known roles: ${limits.roleNames().join(', ')}.` };
  return { ok: true, plan: { type: input.type, subTasks } };
}
