import type { DelegationReach } from '../delegation/delegation-reach.js';
import { toolsBeyondReach } from '../delegation/delegation-reach.js';
import type { RosterEntry } from '../delegation/delegation-scope.js';
import type { RoleRegistry } from '../roles/role-registry.js';
import { resolveRoleTools } from '../roles/role-tools.js';
import type { DelegatorTools } from '../roles/tool-names.js';

/**
 * The roster as each delegator sees it: roles beyond its reach are marked. Every task that may delegate
 * asks for it, so it is built once per role list (the registry replaces the list when a role file
 * changes) and per reach, then shared (it is never changed).
 */
export class TeamRoster {
  private built: { roles: readonly unknown[] | undefined; byReach: Map<string, RosterEntry[]> } = { roles: undefined, byReach: new Map() };

  constructor(
    private readonly roles: RoleRegistry,
    private readonly reach: DelegationReach | undefined,
  ) {}

  for(delegator: DelegatorTools): RosterEntry[] {
    const reach = this.reach === 'any' ? 'all' : delegator;
    const roles = this.roles.list();
    if (this.built.roles !== roles) this.built = { roles, byReach: new Map() };
    const key = reach === 'all' ? 'all' : reach.join(',');
    let roster = this.built.byReach.get(key);
    if (!roster) {
      roster = roles.map((role) => {
        const beyond = toolsBeyondReach(reach, resolveRoleTools(role));
        const entry: RosterEntry = {
          name: role.name,
          description: role.description,
          mode: role.mode,
          ...(role.inputSchema ? { inputSchema: role.inputSchema } : {}),
        };
        return beyond.length > 0 ? { ...entry, toolsBeyondReach: beyond } : entry;
      });
      this.built.byReach.set(key, roster);
    }
    return roster;
  }
}
