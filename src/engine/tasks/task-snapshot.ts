/**
 * A task as everybody outside the manager sees it, defined once: the engine's `TaskSnapshot` type, the
 * sidebar protocol's strict schema (protocol-data.ts) and the task history's lenient one
 * (history-schema.ts) all come from `taskSnapshotSchemas`, so a field added here reaches all three.
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import { costSchemas } from '../model/cost-schema.js';
import { usageSchemas } from '../model/usage-schema.js';
import { stopReasonSchemas } from '../stop-reason.js';
import { usageByModelSchemas } from './usage-by-model.js';
import { defineVariants } from '../util/schema-variants.js';
import { todoListSchemas } from './todo-item.js';

/**
 * `interrupted` is a stop by the end of the session (the window closed, the process died) rather than by
 * anybody's choice: an end state like `stopped`, but one a run can be resumed from.
 */
export const taskStatusSchema = z.enum(['queued', 'running', 'waiting', 'completed', 'failed', 'stopped', 'interrupted']);

export type TaskStatus = z.infer<typeof taskStatusSchema>;

const count = z.number().int().nonnegative();
const timestamp = z.number().nonnegative();

export const taskSnapshotSchemas = defineVariants((variant) =>
  variant.object({
    id: variant.identifier(),
    /** null for a root task (a delegation from the user). */
    parentId: variant.identifier().nullable(),
    rootId: variant.identifier(),
    /** 0 for a root. */
    depth: count,
    /** Who does the work: a role name (`researcher`), `coordinator`, or any label the caller chooses. */
    role: z.string(),
    /** A 3-5 word title. */
    description: z.string(),
    prompt: z.string(),
    /**
     * The tasks this one is part of, outermost first, each cut short and the whole bounded (ancestor-tasks.ts):
     * context its agent sees before its prompt. Absent when it has none (a root, a subagent of the root).
     */
    ancestorTasks: z.array(z.string()).optional(),
    /** The model that ran it, e.g. `anthropic/claude-sonnet-4-5`, when known. */
    model: z.string().optional(),
    /** True once the caller no longer waits for it (started in the background, or auto-backgrounded). */
    background: z.boolean(),
    /** True for a follow-up of a finished run, or a revision of a finished subagent's work. */
    followUp: z.boolean().optional(),
    status: taskStatusSchema,
    /**
     * True while the task is `waiting` with a question for the user that waits behind another task's: it
     * is put once the user has answered that one ("queued for you"). Absent otherwise.
     */
    queuedForUser: z.boolean().optional(),
    /** Milliseconds since the epoch, from the manager's injected clock. */
    createdAt: timestamp,
    startedAt: timestamp.optional(),
    endedAt: timestamp.optional(),
    /** The final answer, or the partial output of a stopped or failed task. */
    output: z.string().optional(),
    error: z.string().optional(),
    stopReason: stopReasonSchemas[variant.name].optional(),
    /** This task's own model usage. */
    usage: usageSchemas[variant.name],
    /** This task's usage plus all its descendants'. */
    treeUsage: usageSchemas[variant.name],
    /** The token budget of this task's tree (input + output), when it has one: `treeUsage` counts against it. */
    budgetTokens: count.optional(),
    /** What this task's own usage cost, at its model's price. Absent in history saved before costs were kept. */
    cost: costSchemas[variant.name].optional(),
    /** What the task and all its descendants cost. */
    treeCost: costSchemas[variant.name].optional(),
    /** This task's own usage and cost by model, in the order they worked: only when more than one did (a failover). */
    usageByModel: usageByModelSchemas[variant.name].optional(),
    /** The money budget of this task's tree (US dollars), when it has one: `treeCost` counts against it. */
    budgetUsd: z.number().finite().positive().optional(),
    /**
     * How full the task's context window is: its last request's input tokens, and the window when known
     * (compaction/context-meter.ts). Absent before its first model request, and for work without a model.
     */
    context: z.object({ usedTokens: count, windowTokens: count.optional() }).optional(),
    /** Its agent's plan as it last wrote it with `TodoWrite` (conversation/plan-capability.ts), or a planned task's sub-tasks. Absent until written. */
    todos: todoListSchemas[variant.name].optional(),
    /** Number of transcript entries recorded so far (the entries travel in `task-transcript` events). */
    transcriptLength: count,
  }),
);

/** An immutable picture of one task; every event carries one, so consumers never hold live objects. */
export type TaskSnapshot = z.infer<typeof taskSnapshotSchemas.strict>;
