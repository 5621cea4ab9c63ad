import { coordinatorName } from '../roles/coordinator.js';
import type { RoleRegistry } from '../roles/role-registry.js';
import type { WorkflowValidationContext } from './validate-workflows.js';

/**
 * The roles a workflow step may name: every role of the registry, and the coordinator, so a step can
 * hand a part of the pipeline to an agent that plans and delegates on its own (the hierarchical pattern);
 * and the tools its role files may name, which inline agents may name too.
 */
export function workflowRoles(roles: RoleRegistry): WorkflowValidationContext {
  return {
    hasRole: (name) => name === coordinatorName || roles.get(name) !== undefined,
    roleNames: () => [coordinatorName, ...roles.list().map((role) => role.name)],
    knownTools: roles.knownTools,
  };
}
