/**
 * A tool's name as the model sees it (aligned with Claude Code's). Which names exist is the capabilities'
 * to say (known-tools.ts: the composition root passes them down); this file only groups the names the
 * built-in roles, plan mode and delegation depth reason about.
 */
export type ToolName = string;

/** What an agent that delegates may start: roles within these tools, or `all` (the coordinator; every agent when the reach is `any`). */
export type DelegatorTools = readonly ToolName[] | 'all';

/** Tools that never change anything. A role limited to these is read-only. */
export const readOnlyToolNames: readonly ToolName[] = ['Read', 'Glob', 'Grep'];

/** Tools that propose edits (never written to disk before the user accepts them). */
export const editToolNames: readonly ToolName[] = ['Edit', 'Write'];

/** Runs commands in a scratch copy of the workspace, with the user's approval (src/engine/commands). */
export const commandToolNames: readonly ToolName[] = ['Bash'];

/** Reads web pages, from the sites the user allows (src/engine/web). Changes nothing, but reaches the network. */
export const webToolNames: readonly ToolName[] = ['WebFetch'];

/**
 * Loads an Agent Skill's instructions and files (src/engine/skills). Changes nothing and is no power over
 * the workspace (a skill's `allowed-tools` only narrows): a role has it unless its tool list leaves it out.
 */
export const skillToolNames: readonly ToolName[] = ['Skill'];

/** Tools that delegate to and manage subagents; whether a role gets them is decided by delegation depth. */
export const delegationToolNames: readonly ToolName[] = ['Agent', 'TaskOutput', 'TaskStop', 'SendMessage'];

/**
 * What a workspace role gets when its file names no tools: reading and proposing edits, but no delegation
 * (the team layer adds the delegation tools when depth allows). Matches Claude Code's "omitted = inherit"
 * as closely as our tool set allows.
 */
export const defaultWorkspaceRoleTools: readonly ToolName[] = [...readOnlyToolNames, ...skillToolNames, ...editToolNames];
