import { canProposeEdits, isReadOnlyRole, resolveRoleTools } from './role-tools.js';
import { commandToolNames } from './tool-names.js';
import { type RoleDefinition } from './types.js';

/**
 * Plain text listing each role's name, description and tools, one entry per role, for the `Agent` tool's
 * description. Rebuild it whenever the roster changes (`RoleRegistry.onDidChange`).
 */
export function describeRoster(roles: readonly RoleDefinition[]): string {
  if (roles.length === 0) return 'No subagent types are available.';
  return roles.map(describeRole).join('\n');
}

function describeRole(role: RoleDefinition): string {
  // Continuation lines are indented so a multi-line description stays visibly inside its entry.
  const description = role.description.trim().replace(/\s*\n\s*/g, '\n  ');
  const tools = resolveRoleTools(role);
  const toolList = tools.length > 0 ? tools.join(', ') : 'none';
  return `- ${role.name}: ${description} (${capability(role)}; tools: ${toolList})`;
}

function capability(role: RoleDefinition): string {
  const runs = resolveRoleTools(role).some((name) => commandToolNames.includes(name)) ? '; runs commands in a scratch copy' : '';
  if (isReadOnlyRole(role)) return 'read-only';
  if (canProposeEdits(role)) return `proposes edits for review${runs}`;
  return runs ? `no file edits${runs}` : 'no file edits';
}
