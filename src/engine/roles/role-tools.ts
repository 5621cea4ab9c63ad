import { defaultWorkspaceRoleTools, editToolNames, readOnlyToolNames, skillToolNames, type ToolName, webToolNames } from './tool-names.js';
import { type RoleDefinition } from './types.js';
import { permittedTools } from './permission-mode.js';

/**
 * Whether a role may delegate at all (depth still decides): built-in roles and role files that name no
 * tools may, a role file with a tool list only if it lists `Agent`. A `task` or `chat` agent talks to the
 * user and is a leaf (seed 001): it delegates only when its role file lists `Agent` itself.
 */
export function roleMayDelegate(role: Pick<RoleDefinition, 'tools' | 'mode' | 'source'>): boolean {
  if (role.mode === 'task' || role.mode === 'chat') return role.tools?.includes('Agent') === true;
  return role.source.kind === 'built-in' || role.tools === undefined || role.tools.includes('Agent');
}

/**
 * The tool names a role may use: its allowlist, or `defaults` when it has none, less what its
 * `permissionMode` takes away (`plan`: all but reading). Delegation tools appear only when the role lists
 * them; the team layer still decides by depth whether to grant them.
 */
export function resolveRoleTools(
  role: Pick<RoleDefinition, 'tools' | 'permissionMode'>,
  /** Default `defaultWorkspaceRoleTools` (read and propose edits, no delegation). */
  defaults: readonly ToolName[] = defaultWorkspaceRoleTools,
): ToolName[] {
  return permittedTools(role.tools ?? defaults, role.permissionMode);
}

/** True when every tool the role may use only reads (the workspace, or the web). */
export function isReadOnlyRole(role: Pick<RoleDefinition, 'tools' | 'permissionMode'>): boolean {
  return resolveRoleTools(role).every(
    (name) => readOnlyToolNames.includes(name) || skillToolNames.includes(name) || webToolNames.includes(name),
  );
}

/** True when the role may propose edits (which the user reviews before anything is written). */
export function canProposeEdits(role: Pick<RoleDefinition, 'tools' | 'permissionMode'>): boolean {
  return resolveRoleTools(role).some((name) => editToolNames.includes(name));
}
