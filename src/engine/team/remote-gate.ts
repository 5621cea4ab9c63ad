/**
 * Remote roles and trust: a role file of the folder sends the task (and a token) to the address it
 * chooses, so it reaches it only where the folder is trusted (the host's `allowed`). The user's own remote
 * roles (`~/.claude/agents`) are the user's choice and reach theirs regardless.
 */
import type { A2aHost } from '../a2a/remote-task-work.js';
import type { RoleDefinition } from '../roles/types.js';
import { roleOrigin } from '../roles/role-origin.js';

export function remoteHostFor(host: A2aHost | undefined, role: Pick<RoleDefinition, 'source'>): A2aHost | undefined {
  if (!host || roleOrigin(role) !== 'user') return host;
  // Over the host, not a copy of it: its getters (where tokens are read, the secrets) stay read at each use.
  return Object.create(host, { allowed: { value: () => true } }) as A2aHost;
}
