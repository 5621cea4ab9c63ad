/**
 * A run's root agent narrowed by the run (a prompt file's `tools` / `allowed-tools`, given as
 * `DelegateRequest.allowedTools`): it is offered only the tools of its own the list names, never one more
 * (a listed tool its role lacks stays out of reach), and each call is checked against the list before any
 * other review, so `Bash(git status:*)` lets Bash run only lines beginning `git status`. The list is read
 * as a skill's `allowed-tools` is (skills/tool-allowance.ts), the tools that end a task included.
 */
import type { Tool } from '../agent/tool.js';
import type { ToolCallRequest } from '../agent/types.js';
import type { TaskGrants } from '../capabilities/task-grants.js';
import { ToolAllowance } from '../skills/tool-allowance.js';

/** The tools offered and the grants with the list's review first; `notice` says the narrowing in the transcript. */
export function withAllowedTools(
  tools: readonly Tool[],
  grants: TaskGrants,
  allowedTools: readonly string[] | undefined,
): { tools: Tool[]; grants: TaskGrants; notice?: string } {
  if (allowedTools === undefined) return { tools: [...tools], grants };
  const allowance = new ToolAllowance(allowedTools);
  const others = grants.reviewToolCalls;
  const reviewToolCalls = async (calls: readonly ToolCallRequest[], signal: AbortSignal): Promise<ReadonlyMap<string, string>> => {
    const refused = new Map<string, string>();
    for (const call of calls) {
      if (!allowance.permits(call))
        refused.set(
          call.toolCallId,
          `Refused: this run allows only ${allowance.describe()}. This ${call.toolName} call is not among them.`,
        );
    }
    const open = calls.filter((call) => !refused.has(call.toolCallId));
    if (others && open.length > 0) for (const [id, text] of await others(open, signal)) refused.set(id, text);
    return refused;
  };
  const offered = tools.filter((tool) => allowance.offers(tool.name));
  return {
    tools: offered,
    grants: { ...grants, reviewToolCalls },
    notice: `Tools narrowed for this run to ${allowance.describe() || 'none'}: offered ${offered.map((tool) => tool.name).join(', ') || 'none'}`,
  };
}
