/**
 * Claude Code's `permissionMode`, as far as it maps here. Nothing a role file says may loosen what the
 * user controls: edits are always proposals the user reviews, and commands run only as the user allows
 * (their allowlist or their approval). So `plan` (read-only) is honoured, `default` is what happens
 * anyway, and the modes that would loosen or skip the user's say load with a warning saying so.
 */
import { delegationToolNames, readOnlyToolNames, skillToolNames, type ToolName, webToolNames } from './tool-names.js';

/** The modes Claude Code's agent files take. */
export const permissionModes = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const;

export type PermissionMode = (typeof permissionModes)[number];

/** Tools a `plan` role keeps: those that only read (the workspace, the web) and, depth permitting, delegation. */
const planTools: ReadonlySet<ToolName> = new Set([...readOnlyToolNames, ...skillToolNames, ...webToolNames, ...delegationToolNames]);

/** The tools a role in `mode` may use, out of `tools`: a `plan` role loses every tool that changes anything. */
export function permittedTools(tools: readonly ToolName[], mode: PermissionMode | undefined): ToolName[] {
  return mode === 'plan' ? tools.filter((tool) => planTools.has(tool)) : [...tools];
}

/** The mode a role file names, and the warnings it gets; an unknown mode is left out with a warning. */
export function readPermissionMode(value: unknown): { mode?: PermissionMode; warnings: string[] } {
  if (value === undefined || value === null) return { warnings: [] };
  if (typeof value !== 'string' || !(permissionModes as readonly string[]).includes(value)) {
    return { warnings: [`permissionMode '${String(value)}' is not one of ${permissionModes.join(', ')}; it is ignored`] };
  }
  const mode = value as PermissionMode;
  return { mode, warnings: modeWarnings[mode] ? [modeWarnings[mode]] : [] };
}

const unchanged =
  'edits stay proposals the user reviews, and commands run only as the user allows (agentTeam.allowedCommands, --allow-command, or their approval)';

const modeWarnings: Partial<Record<PermissionMode, string>> = {
  acceptEdits: `permissionMode 'acceptEdits': nothing is accepted automatically here; the role's edits are proposals the user reviews`,
  bypassPermissions: `permissionMode 'bypassPermissions' is not honoured: a role file cannot loosen the user's control; ${unchanged}`,
  dontAsk: `permissionMode 'dontAsk' is not honoured: commands not allowed ahead are still put to the user, not refused; ${unchanged}`,
};

/** Warnings for a `plan` role whose file asks for more than reading: what it goes without. */
export function planModeWarnings(listedTools: readonly ToolName[] | undefined, hasMcpServers: boolean): string[] {
  const warnings: string[] = [];
  const dropped = (listedTools ?? []).filter((tool) => !planTools.has(tool));
  if (dropped.length > 0) warnings.push(`permissionMode 'plan' makes the role read-only: it goes without ${dropped.join(', ')}`);
  if (hasMcpServers)
    warnings.push("permissionMode 'plan' makes the role read-only: its MCP servers are not started (their tools may change things)");
  return warnings;
}
