/**
 * Who defined a role: the product (built in), the user (a file in their home: `~/.claude/agents`, …) or
 * the folder being worked on (a file in the workspace). A folder's role file choosing programs to start or
 * an address to send the task to is the folder's executable configuration: it runs only where the folder
 * is trusted. The user's own files are theirs and run regardless.
 */
import type { RoleDefinition } from '../roles/types.js';

export type RoleOrigin = 'built-in' | 'user' | 'workspace';

export function roleOrigin(role: Pick<RoleDefinition, 'source'>): RoleOrigin {
  if (role.source.kind === 'built-in') return 'built-in';
  // The loader names the user's files from `~/` (load-roles.ts); every other path is the workspace's.
  return role.source.path.startsWith('~/') ? 'user' : 'workspace';
}
