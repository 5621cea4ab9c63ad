/**
 * The engine's front door: everything a host (src/cli, src/extension) may use, and nothing else.
 * test/architecture/front-door.test.ts holds hosts to this file; a name is public because a host needs it,
 * and adding one here is a deliberate change to the engine's surface.
 */

// a2a
export { displayAddress } from './a2a/remote-failure.js';

// (root)
export { onAbort, throwIfStopped } from './abort.js';
export { type Clock, systemClock } from './clock.js';
export { AgentTeamError, ConfigurationError, errorMessage, ProviderError, StoppedError, stopReasonOf, WorkspaceError } from './errors.js';
export { defaultLimits, defaults, type LimitName, limitRanges } from './limits.js';
export { isProcessAlive } from './process-alive.js';
export { distrustProgramsUnder } from './program-search-path.js';
export { secretValues } from './secrets.js';
export { describeStopReason, type StopReason } from './stop-reason.js';

// agent
export { contextPolicy, type ContextPolicy, defaultCompactAt, isCompactAt } from './agent/compaction/context-policy.js';
export { type TranscriptEntry } from './agent/transcript-entry.js';

// capabilities
export { type CliOption, InvalidSettingError, type SettingDescriptor } from './capabilities/capability-descriptor.js';
export { declaredSettings } from './capabilities/descriptor-list.js';

// changes
export { diskContent } from './changes/disk-content.js';
export { applyChangeSet, type ApplyOutcome, type ApplyReport, type FileApplyResult } from './changes/apply.js';
export { ChangeSet } from './changes/change-set.js';
export {
  type ChangeSetSnapshot,
  changeSetSnapshotSchemas,
  type FileChangeSnapshot,
  type HunkSnapshot,
} from './changes/change-set-schema.js';
export { contentHash } from './changes/file-change.js';
export { acceptHunks, rejectHunks, requirePendingHunks } from './changes/hunk-decisions.js';
export { computeHunks, formatUnifiedDiff } from './changes/hunks.js';
export { describeConflicts } from './changes/merge-onto-disk.js';
export { type MergePlan, type MergeStep, planFileMerge } from './changes/merge-plan.js';
export { decideNumberedHunks, type HunkDecisionResult, type HunkNumbers, numberHunks } from './changes/numbered-hunks.js';
export { describeOverlaps } from './changes/overlap-note.js';
export { type ChangeSetRegistry } from './changes/registry.js';
export { type ConflictSide, hasConflictMarkers, type MergeConflict, type MergeLabels, settle } from './changes/three-way.js';
export { type ChangeSetEvent } from './changes/types.js';

// checks
export { maxFixUntilGreen } from './checks/checks-descriptor.js';
export { type ChecksService } from './checks/checks-service.js';
export { discoverChecks } from './checks/discovery.js';
export { pendingProposals } from './checks/pending-proposals.js';
export { type ChecksVerdict, type ChecksVerdictDetail, type ProposalChecks } from './checks/types.js';
export { verdictMarkdown } from './checks/verdict-markdown.js';

// commands
export { namesHoldingSecrets } from './commands/child-environment.js';
export { type CommandApproval, type CommandApprovalRequest, type CommandDecision } from './commands/command-host.js';
export { literalPattern } from './commands/command-patterns.js';
export { type DisposableCommandHost } from './commands/create-command-host.js';
export { detectSandbox, type SandboxAvailability } from './commands/sandbox/sandbox-availability.js';
export { type CommandIsolation } from './commands/sandbox/sandbox-state.js';

// conversation
export { type ConversationStore, MemoryConversationStore } from './conversation/conversation-store.js';
export { FileConversationStore } from './conversation/file-conversation-store.js';
export { isPlanQuestion } from './conversation/plan-question.js';
export { type UserChannel, type UserQuestion } from './conversation/user-channel.js';

// delegation
export { type DelegationReach } from './delegation/delegation-reach.js';
export { type FanOutRequest } from './delegation/fan-out.js';

// file-tools
export { describeTaskChanges } from './file-tools/workspace-toolbox.js';

// git
export { applyToBranch, type ApplyToBranchResult } from './git/apply-to-branch.js';
export { type HeldBackFile } from './git/branch-approvals.js';
export { branchFilesOf } from './git/branch-files.js';
export { branchNameRuleProblem } from './git/branch-name-rules.js';
export { type RunDescription, subjectOf } from './git/commit-message.js';
export { neutralProgramRunner, type NeutralRunner } from './git/neutral-program-runner.js';
export { openPullRequest, type PullRequestResult } from './git/pull-request.js';

// instructions
export { type InstructionSource } from './instructions/instruction-sources.js';

// mcp
export { type HostToolInfo, type HostToolPort } from './mcp/host-tools.js';
export { type CatalogEntry, readMcpCatalog } from './mcp/mcp-catalog.js';
export { userMcpConfigPath } from './mcp/mcp-config-files.js';
export { type McpInputAsker } from './mcp/mcp-inputs.js';

// model
export { unpricedBudgetError, unpricedModels } from './model/budget-prices.js';
export { ContextWindowTable, parseContextWindows } from './model/context-windows.js';
export { addCost, type Cost, formatCost, zeroCost } from './model/cost-schema.js';
export {
  apiKeyVariables,
  baseUrlVariables,
  createModel,
  defaultModelIds,
  isModelProvider,
  type ModelProvider,
  modelProviders,
  type ModelSettings,
} from './model/create-model.js';
export { isFailoverNotice, withFallbacks } from './model/failover-model.js';
export { IdleWatch } from './model/idle-watch.js';
export { describeImage, imageFromBytes, maxImageBytes, maxImagesPerPrompt } from './model/image-parts.js';
export { resolveModelOverride } from './model/model-aliases.js';
export { listPrices, listPricesAsOf, type ModelPrice, parseModelPrices, PriceTable } from './model/model-prices.js';
export { onceEach, type ProviderNoticeSink } from './model/provider-notices.js';
export { defaultIdleTimeoutMs, defaultRequestTimeoutMs } from './model/request-limits.js';
export { ResponseTimeout, withinTimeout } from './model/response-timeout.js';
export {
  type ImagePart,
  type Model,
  type ModelMessage,
  type ModelRequest,
  type ModelStreamEvent,
  type ToolDefinition,
} from './model/types.js';
export { type Usage } from './model/usage-schema.js';

// prompt-files
export { resolvePromptCommand, slashCommandOf } from './prompt-files/prompt-commands.js';
export { findPromptFiles } from './prompt-files/prompt-file-sources.js';

// roles
export { coordinatorName } from './roles/coordinator.js';
export { maxFallbackModels } from './roles/fallback-models.js';
export { formatRoleDiagnostic } from './roles/format-diagnostic.js';
export { newRoleDirectory, newRoleFileText, roleDescriptionProblem, roleNameProblem } from './roles/new-role-file.js';
export { maxRoleFileBytes, NodeRoleFileSource } from './roles/node-role-file-source.js';
export { roleFileLocations, userRoleLocations } from './roles/role-file-locations.js';
export { type RoleFileSource, type RoleWatch } from './roles/role-file-source.js';
export { roleNotes } from './roles/role-notes.js';
export { type RoleRegistry } from './roles/role-registry.js';
export { resolveRoleTools } from './roles/role-tools.js';
export { mcpServersNamed } from './roles/server-tool-names.js';
export { defaultWorkspaceRoleTools } from './roles/tool-names.js';
export { type RoleDefinition, type RoleDiagnostic } from './roles/types.js';

// runs
export { AcceptCheckpoint, type RestorePointSink } from './runs/checkpoints/accept-checkpoint.js';
export { type RestorePoint } from './runs/checkpoints/restore-point.js';
export { undoAccepted, type UndoOutcome } from './runs/checkpoints/undo-accepted.js';
export { restoredPaths } from './runs/checkpoints/undo-plan.js';
export { WorkspaceBytes } from './runs/checkpoints/workspace-bytes.js';
export { type RunContents } from './runs/run-contents.js';
export { idsAfter } from './runs/run-ids.js';
export { type RunSummary } from './runs/run-index-line.js';
export { type RunLog } from './runs/run-log.js';
export { restorePointRecordTypes, safeRunId } from './runs/run-log-records.js';
export { describeForeign, type RunSignature } from './runs/run-log-signature.js';

// servers
export { ServedQuestions } from './servers/a2a/served-questions.js';
export { startTeamA2aServer } from './servers/a2a/team-a2a-server.js';
export { ElicitedQuestions } from './servers/mcp/elicited-questions.js';
export { registerHunkTool } from './servers/mcp/hunk-mcp-tool.js';
export { McpStdioTransport } from './servers/mcp/mcp-stdio-transport.js';
export { registerTeamTools } from './servers/mcp/team-mcp-tools.js';

// tasks
export { attachedPathLine, withAttachments } from './tasks/attachments.js';
export { endReason } from './tasks/end-reason.js';
export { createSequentialIds } from './tasks/ids.js';
export { JsonFileTaskStore } from './tasks/json-file-task-store.js';
export { type LifecycleReport } from './tasks/lifecycle-report.js';
export { type TaskManager } from './tasks/task-manager.js';
export { type TaskSnapshot, type TaskStatus } from './tasks/task-snapshot.js';
export { emptyHistory, type PersistedHistory, type TaskStore } from './tasks/task-store.js';
export { sameTodos, type TodoItem, todoLines, todoProgress } from './tasks/todo-item.js';
export { treeSettled } from './tasks/tree-settled.js';
export { isTerminal, type TaskEvent, terminalStatuses } from './tasks/types.js';
export { type UsageByModel } from './tasks/usage-by-model.js';
export { type StartTaskResult } from './tasks/work.js';

// team
export { type AgentTeam } from './team/agent-team.js';
export {
  capabilityDescriptors,
  type CapabilitySettings,
  defaultCapabilitySettings,
  knownToolNames,
  knownTools,
} from './team/capabilities.js';
export { createEngine, type Engine } from './team/create-engine.js';
export { createEngineCore, type EngineCore, type EngineHistory } from './team/engine-core.js';
export { type EngineHost } from './team/engine-host.js';
export { readTeamRoles, withTeamRoles } from './team/engine-roles.js';
export { openSignedRunLog } from './team/engine-run-log.js';
export { type FolderConfiguration, itemKey, readFolderConfiguration } from './team/folder-configuration.js';
export { type FolderItem, type FolderItemKind } from './team/folder-item.js';
export { configuredServerItem } from './team/folder-mcp-items.js';
export { promptFileItem } from './team/folder-prompt-file-items.js';
export { recordedChangeSets } from './team/recorded-changes.js';
export { restoreProposals, resumeSourceOf } from './team/resume-from-log.js';
export { type ResumeRequest } from './team/resume-run.js';
export {
  type DelegateRequest,
  type FollowUpRequest,
  type PlanRequest,
  type RevisionRequest,
  type WorkflowRunRequest,
} from './team/run-requests.js';
export { type ModelChooser } from './team/team-options.js';

// telemetry
export { startTelemetry } from './telemetry/start-telemetry.js';
export { type EngineTelemetry } from './telemetry/telemetry-types.js';

// trace
export { buildRunTrace } from './trace/run-trace.js';
export { renderTraceJson, renderTraceMarkdown } from './trace/trace-markdown.js';

// util
export { builtOnFirstUse } from './util/built-on-first-use.js';
export { Disposable, DisposableStore } from './util/disposable.js';
export { KeyedQueue } from './util/keyed-queue.js';

// web
export { normalHost } from './web/domain-rules.js';
export { type DomainDecision, type DomainRequest, type WebHost } from './web/web-host.js';

// workflows
export { type WorkflowDefinition } from './workflows/workflow-definition.js';
export { formatWorkflowProblem, type WorkflowProblem } from './workflows/workflow-problem.js';
export { loadWorkflows, type WorkflowEntry } from './workflows/workflow-registry.js';
export { workflowRoles } from './workflows/workflow-roles.js';

// workspace
export { notReadMarker } from './workspace/confined-file-reader.js';
export { NodeConfinement } from './workspace/node-confinement.js';
export { NodeWorkspace } from './workspace/node-workspace.js';
export { describeLink } from './workspace/path-rules.js';
export { comparePaths, isInside, isWithin, toWorkspacePath } from './workspace/paths.js';
export { defaultWorkspacePolicy, policyMatcher, type PolicyMatcher, type WorkspacePolicy } from './workspace/policy.js';
export { SearchPacer } from './workspace/search/search-pacer.js';
export { compileSearchPattern, searchGlobMatcher, searchText } from './workspace/search/search-pattern.js';
export { tooLarge } from './workspace/text-file.js';
export {
  defaultSearchMaxResults,
  type FileStat,
  type GlobOptions,
  type GlobResult,
  type ReadOptions,
  type RealPath,
  type SearchMatch,
  type SearchOptions,
  type SearchResult,
  type Workspace,
} from './workspace/workspace.js';
