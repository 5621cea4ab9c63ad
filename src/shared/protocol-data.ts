/**
 * The data the sidebar protocol carries: tasks, transcript entries, change-set summaries and the setup
 * state, as zod schemas. Every object schema is strict (unknown keys are rejected, not stripped), so a
 * field that was never designed into the protocol — an API key above all — cannot ride along unnoticed.
 *
 * Tasks, stop reasons, usage and transcript entries are not described here: they are the strict variants
 * of the engine's own schemas (task-snapshot.ts, stop-reason.ts, usage-schema.ts, transcript-entry.ts),
 * so a field added to the engine's definition reaches the sidebar with no second description to update.
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import { transcriptEntrySchemas } from '../engine/agent/transcript-entry.js';
import { usageSchemas } from '../engine/model/usage-schema.js';
import { stopReasonSchemas } from '../engine/stop-reason.js';
import { type TaskSnapshot, taskSnapshotSchemas, taskStatusSchema } from '../engine/tasks/task-snapshot.js';
import { strictVariant } from '../engine/util/schema-variants.js';

/** The fields of a task the tree leaves out: only the detail pane shows them (the ancestors with the prompt). */
const detailFields = { prompt: true, output: true, ancestorTasks: true } as const;

// Built on first use, not when the module loads (B5 in docs/performance.md): the host, which loads this
// module with the core, never parses what it sends to the webview.
function buildProtocolDataSchemas() {
  const identifier = strictVariant.identifier();
  const count = z.number().int().nonnegative();

  const usageSchema = usageSchemas.strict;
  const stopReasonSchema = stopReasonSchemas.strict;

  /**
   * A task as the tree shows it: the fields of the engine's `TaskSnapshot` except its two large ones,
   * `prompt` and `output`, which only the detail pane shows; they travel in `task-detail`, for the selected
   * task only. A long history is thousands of tasks, and each costs the webview cloning and validating every
   * field (see `toProtocolTask` for sending one).
   */
  const taskSchema = taskSnapshotSchemas.strict.omit(detailFields);

  /**
   * The fields of a task the tree leaves out (see `taskSchema`); see `toTaskDetail` for sending them.
   * `output` is the final answer, or the partial output of a stopped or failed task; absent until there is one.
   */
  /** How the command a task waits to run would run (CommandIsolation): what the approval region says. */
  const commandApprovalSchema = z.strictObject({ summary: z.string().max(2_000), offerAlways: z.boolean() });

  const taskDetailSchema = taskSnapshotSchemas.strict
    .pick(detailFields)
    .extend({ taskId: identifier, commandApproval: commandApprovalSchema.optional() });

  const transcriptEntrySchema = transcriptEntrySchemas.strict;

  /** One file of a task's change set. */
  const changeFileSchema = z.strictObject({
    /** Workspace-relative path, as the change set names it. */
    path: z.string().min(1),
    added: count,
    removed: count,
    /** `pending` until the user accepts or rejects the file; `undone`: accepted, then taken back (Undo Accepted Changes). */
    status: z.enum(['pending', 'accepted', 'rejected', 'undone']),
  });

  /** A task's change set in brief. A summary with no files means the task has no change set (any more). */
  const changeSummarySchema = z.strictObject({
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
  const setupStateSchema = z.strictObject({
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
    /**
     * The name of a model VS Code itself offers (Copilot's, another extension's), offered first when no model
     * is configured: it needs no key. `use-language-model` carries no name, the host picks.
     */
    languageModel: z.string().max(200).optional(),
    /** VS Code's `workbench.tree.indent` in pixels, so the task tree indents as every tree does. */
    treeIndent: z.number().int().min(0).max(40).optional(),
    /** True in Restricted Mode (an untrusted folder): agents do not run. */
    restricted: z.boolean(),
  });

  return {
    usageSchema,
    stopReasonSchema,
    taskStatusSchema,
    taskSchema,
    commandApprovalSchema,
    taskDetailSchema,
    transcriptEntrySchema,
    changeFileSchema,
    changeSummarySchema,
    setupStateSchema,
  };
}

type ProtocolDataSchemas = ReturnType<typeof buildProtocolDataSchemas>;
let protocolData: ProtocolDataSchemas | undefined;

/** The protocol's data schemas, built on the first call. */
export function protocolDataSchemas(): ProtocolDataSchemas {
  return (protocolData ??= buildProtocolDataSchemas());
}

export type ProtocolTask = z.infer<ProtocolDataSchemas['taskSchema']>;
export type TaskDetail = z.infer<ProtocolDataSchemas['taskDetailSchema']>;
export type ProtocolTranscriptEntry = z.infer<ProtocolDataSchemas['transcriptEntrySchema']>;
export type ChangeFile = z.infer<ProtocolDataSchemas['changeFileSchema']>;
export type ChangeSummary = z.infer<ProtocolDataSchemas['changeSummarySchema']>;
export type SetupState = z.infer<ProtocolDataSchemas['setupStateSchema']>;

/** The tree's fields, lenient: parsing with it copies them and drops every other key, nested ones too. */
let treeFields: z.ZodType<ProtocolTask> | undefined;

/**
 * Copies exactly the tree's fields off an engine snapshot (not `prompt` and `output`: `toTaskDetail`),
 * dropping any key the schema does not name, so an object carrying more than a snapshot (say a record
 * with a field of its own) still passes the webview's strict check.
 */
export function toProtocolTask(task: TaskSnapshot): ProtocolTask {
  treeFields ??= taskSnapshotSchemas.lenient.omit(detailFields);
  const copied = treeFields.safeParse(task);
  // Engine snapshots always fit (test/tasks/snapshot-schemas.test.ts). Should one ever not, it goes as it
  // is, and the webview drops it with the reason in its log, rather than the host throwing mid-update.
  return copied.success ? copied.data : (task as ProtocolTask);
}

/** The selected task's large fields, for the detail pane. */
export function toTaskDetail(task: TaskSnapshot, commandApproval?: z.infer<ProtocolDataSchemas['commandApprovalSchema']>): TaskDetail {
  return {
    taskId: task.id,
    prompt: task.prompt,
    ...(task.ancestorTasks === undefined ? {} : { ancestorTasks: task.ancestorTasks }),
    ...(task.output === undefined ? {} : { output: task.output }),
    ...(commandApproval ? { commandApproval } : {}),
  };
}
