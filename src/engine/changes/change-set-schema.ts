/**
 * Plain-data shapes of change sets, defined once: the engine's types and the lenient schema the saved
 * proposals are read back with (src/extension/change-store.ts) come from the same definitions.
 * Everything here survives `JSON.stringify` / `JSON.parse` unchanged.
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import { defineVariants } from '../util/schema-variants.js';

const count = z.number().int().nonnegative();

export const hunkDecisionSchema = z.enum(['pending', 'accepted', 'rejected']);

/** `pending` until applied; `applied` once its accepted content is on disk (then it is final). */
export const fileChangeStatusSchema = z.enum(['pending', 'applied']);

export const hunkSnapshotSchemas = defineVariants((variant) =>
  variant.object({
    /** Stable while the hunk's base range and lines are unchanged. */
    id: z.string(),
    oldStart: count,
    oldLines: count,
    newStart: count,
    newLines: count,
    /** Unified-diff body lines (` `, `-`, `+`, `\ No newline at end of file`). */
    lines: z.array(z.string()),
    added: count,
    removed: count,
    decision: hunkDecisionSchema,
  }),
);

export const fileChangeSnapshotSchemas = defineVariants((variant) =>
  variant.object({
    /** Workspace-relative POSIX path. */
    path: z.string().min(1),
    /**
     * Where `path` led when the task proposed the change, when that is elsewhere (a symbolic link along
     * it): workspace-relative. Apply writes only if it still leads there. Absent: no link involved.
     */
    target: z.string().min(1).optional(),
    /** True when the file did not exist when the task first touched it. */
    isNew: z.boolean(),
    /** sha256 (hex) of the on-disk content when the task first touched the file; null for a new file. */
    baseHash: z.string().nullable(),
    baseContent: z.string().nullable(),
    proposedContent: z.string(),
    /** Unified diff, base → proposal (all hunks, whatever their decision). */
    diff: z.string(),
    hunks: z.array(hunkSnapshotSchemas[variant.name]),
    added: count,
    removed: count,
    /** Sensitive configuration: applied only with explicit per-file approval. */
    requiresApproval: z.boolean(),
    /** Other tasks that propose changes to the same file. */
    overlapsWith: z.array(z.string()),
    status: fileChangeStatusSchema,
    /** The user edited the proposed content by hand (the diff is the agent's and the user's). Absent: not edited. */
    editedByUser: z.boolean().optional(),
  }),
);

export const changeSetSnapshotSchemas = defineVariants((variant) =>
  variant.object({
    taskId: variant.identifier(),
    role: z.string(),
    files: z.array(fileChangeSnapshotSchemas[variant.name]),
    added: count,
    removed: count,
  }),
);

export type HunkDecision = z.infer<typeof hunkDecisionSchema>;
export type FileChangeStatus = z.infer<typeof fileChangeStatusSchema>;
export type HunkSnapshot = z.infer<typeof hunkSnapshotSchemas.strict>;
export type FileChangeSnapshot = z.infer<typeof fileChangeSnapshotSchemas.strict>;
export type ChangeSetSnapshot = z.infer<typeof changeSetSnapshotSchemas.strict>;
