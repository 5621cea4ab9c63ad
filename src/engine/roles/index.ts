export { builtInRoles, refactorerRole, researcherRole, reviewerRole } from './built-in/index.js';
export { coordinatorInstruction, coordinatorName, coordinatorTools } from './coordinator.js';
export { formatRoleDiagnostic } from './format-diagnostic.js';
export { loadRoles } from './load-roles.js';
export { maxRoleFileBytes, NodeRoleFileSource } from './node-role-file-source.js';
export { watchRoleDirectories } from './node-role-watch.js';
export { type RoleFileLocation, roleFileLocations } from './role-file-locations.js';
export { type RoleFileSource, type RoleWatch } from './role-file-source.js';
export { type RoleChangeListener, RoleRegistry, type RoleRegistryOptions } from './role-registry.js';
export { canProposeEdits, isReadOnlyRole, resolveRoleTools } from './role-tools.js';
export { describeRoster } from './roster.js';
export { roleNotes } from './role-notes.js';
export { defaultWorkspaceRoleTools, delegationToolNames, editToolNames, readOnlyToolNames, type ToolName } from './tool-names.js';
export { canonicalToolName, type KnownTools } from './known-tools.js';
export {
  type RoleDefinition,
  type RoleDiagnostic,
  type RoleFileFormat,
  type RoleLoadResult,
  type RoleMode,
  roleModes,
  type RoleSource,
} from './types.js';
