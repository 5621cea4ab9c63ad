export type { Workspace, FileStat, GlobOptions, GlobResult, RealPath, SearchOptions, SearchMatch, SearchResult } from './workspace.js';
export { defaultGlobMaxResults, defaultSearchMaxResults } from './workspace.js';
export { NodeWorkspace, type NodeWorkspaceOptions } from './node-workspace.js';
export {
  defaultWorkspacePolicy,
  defaultSensitivePatterns,
  defaultAllowedSensitivePatterns,
  defaultApprovalRequiredPatterns,
  defaultProtectedPatterns,
  resolvePolicy,
  policyMatcher,
  type WorkspacePolicy,
  type PolicyMatcher,
} from './policy.js';
export { toWorkspacePath, comparePaths } from './paths.js';
export { PathRules, describeLink } from './path-rules.js';
export { manifestApprovalReason } from './package-manifest.js';
export { findRipgrepOnPath } from './search/find-ripgrep.js';
