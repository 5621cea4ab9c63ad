export { ChangeSet, type ChangeSetOptions, type DecisionTarget, type RebaseProposal } from './change-set.js';
export { ChangeSetRegistry, type ChangeSetRegistryOptions } from './registry.js';
export { applyChangeSet, type ApplyOptions, type ApplyOutcome, type ApplyReport, type FileApplyResult } from './apply.js';
export { contentHash } from './file-change.js';
export type {
  ChangeSetEvent,
  ChangeSetListener,
  ChangeSetSnapshot,
  FileChangeSnapshot,
  FileChangeStatus,
  HunkDecision,
  HunkSnapshot,
} from './types.js';
