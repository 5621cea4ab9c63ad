/**
 * Which roles an agent may hand work to. A subagent must not get more power than the agent that starts
 * it: a read-only researcher that delegates to a refactorer would turn a read-only run into an editing
 * one. So an agent reaches only roles whose workspace tools are all among its own. The coordinator is the
 * user's own agent and reaches every role; the user's configuration (`any`) can lift the rule for all.
 */
import { type DelegatorTools, delegationToolNames, skillToolNames, type ToolName } from '../roles/tool-names.js';

/** `own-tools` (default): only roles whose tools are within the delegator's. `any`: every role. */
export type DelegationReach = 'own-tools' | 'any';

/** The tools `role` has that the delegator lacks; empty when the delegator may hand it work. */
export function toolsBeyondReach(delegator: DelegatorTools, roleTools: readonly ToolName[]): ToolName[] {
  if (delegator === 'all') return [];
  const own = new Set<ToolName>(delegator);
  // Delegation tools are not powers over the workspace (depth decides who gets them), nor is loading a skill.
  return roleTools.filter((tool) => !delegationToolNames.includes(tool) && !skillToolNames.includes(tool) && !own.has(tool));
}
