/**
 * A run's answer as data, for the protocols that carry it beside the text (MCP's `structuredContent`, an
 * A2A data part): when the run's role declares an `outputSchema`, its result is JSON that matched it.
 */
import type { RoleRegistry } from '../roles/role-registry.js';
import type { TaskSnapshot } from '../tasks/types.js';

/** The JSON value a completed run of a role with an `outputSchema` answered; undefined for any other run. */
export function structuredAnswer(roles: Pick<RoleRegistry, 'get'>, root: TaskSnapshot): { value: unknown } | undefined {
  if (root.status !== 'completed' || root.output === undefined || !roles.get(root.role)?.outputSchema) return undefined;
  try {
    return { value: JSON.parse(root.output) as unknown };
  } catch {
    // Checked and written as JSON by the role's work (role-limits-work.ts); a role file edited since may differ.
    return undefined;
  }
}
