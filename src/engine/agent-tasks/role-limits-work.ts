/**
 * A role file's limits around its task's work, wherever the role runs (delegated, a workflow's step, a
 * plan's leaf, the run's root): its token budget over the task's subtree (`maxTokens`), the shape of the
 * prompt it takes (`inputSchema`) and of the answer it gives (`outputSchema`).
 */
import type { ModelMessage } from '../model/types.js';
import { checkAnswer, promptProblem } from '../roles/structured-result.js';
import type { RoleDefinition } from '../roles/types.js';
import type { TaskWork } from '../tasks/work.js';

type RoleLimits = Pick<RoleDefinition, 'name' | 'maxTokens' | 'inputSchema' | 'outputSchema'>;

export function withRoleLimits(work: TaskWork, role: RoleLimits, prompt: string | ModelMessage[]): TaskWork {
  if (role.maxTokens === undefined && !role.inputSchema && !role.outputSchema) return work;
  return async (context) => {
    // Before any token is spent: the subtree's budget works as the run's does (tasks/tree-budget.ts).
    if (role.maxTokens !== undefined) context.limitTreeTokens?.(role.maxTokens);
    // A conversation continued (a follow-up, a revision) is the user's, not a parent's structured input.
    if (role.inputSchema && typeof prompt === 'string') {
      const problem = await promptProblem(role.inputSchema, prompt);
      if (problem !== undefined) return { status: 'failed', output: '', error: `${role.name} did not start: ${problem}` };
    }
    const result = await work(context);
    if (!role.outputSchema || result.status !== 'completed' || context.signal.aborted) return result;
    const checked = await checkAnswer(role.outputSchema, result.output);
    if (checked.ok) return { status: 'completed', output: checked.json };
    return {
      status: 'failed',
      output: result.output,
      error: `the answer does not match the role's outputSchema: ${checked.problems.join('; ')}`,
    };
  };
}
