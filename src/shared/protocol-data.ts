/**
 * The data the sidebar protocol carries: tasks, transcript entries, change-set summaries and the setup
 * state, as zod schemas. Every object schema is strict (unknown keys are rejected, not stripped), so a
 * field that was never designed into the protocol — an API key above all — cannot ride along unnoticed.
 *
 * The inferred types are checked against the engine's (`TaskSnapshot`, `TranscriptEntry`) at the bottom
 * of this file, so the engine and the protocol cannot drift apart silently.
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import type { TranscriptEntry } from '../engine/agent/types.js';
import type { StopReason } from '../engine/errors.js';
import type { TaskSnapshot } from '../engine/tasks/types.js';

const identifier = z.string().min(1).max(200);
const count = z.number().int().nonnegative();
/** Milliseconds since the epoch. */
const timestamp = z.number().nonnegative();

export const usageSchema = z.strictObject({ inputTokens: count, outputTokens: count });

export const stopReasonSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('user') }),
  z.strictObject({ kind: z.literal('parent-stopped'), parentId: identifier }),
  z.strictObject({ kind: z.literal('stopped-by-agent'), taskId: identifier }),
  z.strictObject({ kind: z.literal('budget'), detail: z.string() }),
  z.strictObject({ kind: z.literal('shutdown') }),
  z.strictObject({ kind: z.literal('interrupted') }),
]);

export const taskStatusSchema = z.enum(['queued', 'running', 'completed', 'failed', 'stopped']);

/**
 * A task as the tree shows it: the fields of the engine's `TaskSnapshot` except its two large ones,
 * `prompt` and `output`, which only the detail pane shows; they travel in `task-detail`, for the selected
 * task only. A long history is thousands of tasks, and each costs the webview cloning and validating every
 * field (see `toProtocolTask` for sending one).
 */
export const taskSchema = z.strictObject({
  id: identifier,
  parentId: identifier.nullable(),
  rootId: identifier,
  depth: count,
  role: z.string(),
  description: z.string(),
  model: z.string().optional(),
  background: z.boolean(),
  status: taskStatusSchema,
  createdAt: timestamp,
  startedAt: timestamp.optional(),
  endedAt: timestamp.optional(),
  error: z.string().optional(),
  stopReason: stopReasonSchema.optional(),
  usage: usageSchema,
  treeUsage: usageSchema,
  transcriptLength: count,
});

/** The fields of a task the tree leaves out (see `taskSchema`); see `toTaskDetail` for sending them. */
export const taskDetailSchema = z.strictObject({
  taskId: identifier,
  prompt: z.string(),
  /** The final answer, or the partial output of a stopped or failed task; absent until there is one. */
  output: z.string().optional(),
});

export const transcriptEntrySchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({
    type: z.literal('tool-call'),
    toolCallId: z.string(),
    toolName: z.string(),
    // Optional because a tool call whose JSON did not parse has `input: undefined`, which JSON drops.
    input: z.unknown().optional(),
  }),
  z.strictObject({
    type: z.literal('tool-result'),
    toolCallId: z.string(),
    toolName: z.string(),
    output: z.string(),
    isError: z.boolean(),
  }),
  z.strictObject({ type: z.literal('notice'), text: z.string() }),
]);

/** One file of a task's change set. */
export const changeFileSchema = z.strictObject({
  /** Workspace-relative path, as the change set names it. */
  path: z.string().min(1),
  added: count,
  removed: count,
  /** `pending` until the user accepts or rejects the file. */
  status: z.enum(['pending', 'accepted', 'rejected']),
});

/** A task's change set in brief. A summary with no files means the task has no change set (any more). */
export const changeSummarySchema = z.strictObject({
  taskId: identifier,
  files: z.array(changeFileSchema),
  /** Lines added over all files. */
  added: count,
  /** Lines removed over all files. */
  removed: count,
  /** Files still waiting for review. */
  pending: count,
});

/**
 * What the empty state needs to guide the user. There is deliberately no field for an API key, nor for
 * whether a key string is known: `modelConfigured` is all the webview learns.
 */
export const setupStateSchema = z.strictObject({
  /** True when a provider, a model and its key are all available, so a delegation can start. */
  modelConfigured: z.boolean(),
  /** `anthropic`, `openai`, … when chosen. */
  provider: z.string().optional(),
  model: z.string().optional(),
  /**
   * The address of an OpenAI-compatible server detected on this machine (e.g. `http://127.0.0.1:11434/v1`),
   * offered in the empty state. Display only: `use-local-server` carries no URL, the host uses its own.
   */
  localServerUrl: z.string().optional(),
  /** True in Restricted Mode (an untrusted folder): agents do not run. */
  restricted: z.boolean(),
});

export type ProtocolTask = z.infer<typeof taskSchema>;
export type TaskDetail = z.infer<typeof taskDetailSchema>;
export type ProtocolTranscriptEntry = z.infer<typeof transcriptEntrySchema>;
export type ChangeFile = z.infer<typeof changeFileSchema>;
export type ChangeSummary = z.infer<typeof changeSummarySchema>;
export type SetupState = z.infer<typeof setupStateSchema>;

/**
 * Copies exactly the tree's fields off an engine snapshot (not `prompt` and `output`: `toTaskDetail`).
 * The host sends tasks through this, so a field added to `TaskSnapshot` later does not make every message
 * fail the webview's strict check; it reaches the sidebar once it is added to `taskSchema` on purpose.
 */
export function toProtocolTask(task: TaskSnapshot): ProtocolTask {
  const result: ProtocolTask = {
    id: task.id,
    parentId: task.parentId,
    rootId: task.rootId,
    depth: task.depth,
    role: task.role,
    description: task.description,
    background: task.background,
    status: task.status,
    createdAt: task.createdAt,
    usage: { inputTokens: task.usage.inputTokens, outputTokens: task.usage.outputTokens },
    treeUsage: { inputTokens: task.treeUsage.inputTokens, outputTokens: task.treeUsage.outputTokens },
    transcriptLength: task.transcriptLength,
  };
  if (task.model !== undefined) result.model = task.model;
  if (task.startedAt !== undefined) result.startedAt = task.startedAt;
  if (task.endedAt !== undefined) result.endedAt = task.endedAt;
  if (task.error !== undefined) result.error = task.error;
  if (task.stopReason !== undefined) result.stopReason = copyStopReason(task.stopReason);
  return result;
}

/** The selected task's large fields, for the detail pane. */
export function toTaskDetail(task: TaskSnapshot): TaskDetail {
  return task.output === undefined ? { taskId: task.id, prompt: task.prompt } : { taskId: task.id, prompt: task.prompt, output: task.output };
}

function copyStopReason(reason: StopReason): StopReason {
  // Exhaustive on purpose: a new kind of stop reason fails to compile here until the schema knows it.
  switch (reason.kind) {
    case 'parent-stopped':
      return { kind: reason.kind, parentId: reason.parentId };
    case 'stopped-by-agent':
      return { kind: reason.kind, taskId: reason.taskId };
    case 'budget':
      return { kind: reason.kind, detail: reason.detail };
    case 'user':
    case 'shutdown':
    case 'interrupted':
      return { kind: reason.kind };
  }
}

// Compile-time guards: the engine's types must stay sendable as protocol data, and the protocol's task
// (with its detail) must stay readable as an engine snapshot. A mismatch is a type error here, not a
// dropped message later.
type Assert<Condition extends true> = Condition;
type DetailFields = 'prompt' | 'output';
type _TaskSnapshotFitsProtocol = Assert<Omit<TaskSnapshot, DetailFields> extends ProtocolTask ? true : false>;
type _ProtocolTaskFitsSnapshot = Assert<ProtocolTask extends Omit<TaskSnapshot, DetailFields> ? true : false>;
type _DetailFitsSnapshot = Assert<Pick<TaskSnapshot, DetailFields> extends Omit<TaskDetail, 'taskId'> ? (Omit<TaskDetail, 'taskId'> extends Pick<TaskSnapshot, DetailFields> ? true : false) : false>;
type _TreeLeavesOutTheDetail = Assert<[Extract<keyof ProtocolTask, DetailFields>] extends [never] ? true : false>;
type _StopReasonsMatch = Assert<StopReason extends z.infer<typeof stopReasonSchema> ? (z.infer<typeof stopReasonSchema> extends StopReason ? true : false) : false>;
type _TranscriptEntryFitsProtocol = Assert<TranscriptEntry extends ProtocolTranscriptEntry ? true : false>;
