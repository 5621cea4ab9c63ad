/**
 * The lines of a run file (`<runId>.jsonl`), defined once: the types the writer builds and the lenient
 * schemas the reader checks them with. A run file outlives the version that wrote it, so the task and
 * transcript shapes are the lenient variants of the engine's own schemas (unknown fields are dropped,
 * fields added later get their defaults), and a record of a type this version does not know is ignored.
 *
 * `type` is always the first key a writer puts in a line: a reader that wants only some types can tell
 * the others by their first bytes and skip them without parsing (a run's conversations are most of it).
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import { transcriptEntrySchemas } from '../agent/transcript-entry.js';
import type { TranscriptEntry } from '../agent/types.js';
import { changeSetSnapshotSchemas, fileChangeSnapshotSchemas } from '../changes/change-set-schema.js';
import type { ChangeSetSnapshot, FileChangeSnapshot } from '../changes/types.js';
import { type RestorePointRecord, buildRestorePointRecordSchemas } from './checkpoints/restore-point.js';
import type { ModelMessage } from '../model/types.js';
import { taskSnapshotSchemas } from '../tasks/task-snapshot.js';
import type { TaskSnapshot } from '../tasks/types.js';

/** Task ids as the task manager makes them; anything else is refused before it can name a file. */
export const safeRunId = /^[A-Za-z0-9_-]{1,100}$/;

/** The most one line may hold: a record past it is not written (and a longer line is not read). */
export const maxLineBytes = 16 * 1024 * 1024;

export type ToolResultEntry = Extract<TranscriptEntry, { type: 'tool-result' }>;

export type RunRecord =
  /** A task as it started, changed status, background or model, and ended. */
  | { type: 'task'; task: TaskSnapshot }
  /** One transcript entry; an index written again replaces the earlier one. */
  | { type: 'entry'; taskId: string; index: number; entry: TranscriptEntry }
  /** The task's conversation from `from` on, replacing what was there from `from`. */
  | { type: 'conversation'; taskId: string; from: number; messages: ModelMessage[] }
  /**
   * The task's conversation was compacted (compaction/): the `conversation` record after it holds the whole
   * new one, so a resumed task goes on from the summary. Sizes are the next request's estimated tokens.
   */
  | { type: 'compaction'; taskId: string; beforeTokens: number; afterTokens: number; trigger: 'auto' | 'overflow' | 'manual' }
  /** A conversation kept for follow-ups (ConversationStore.save); `key` is a task id. */
  | { type: 'kept-conversation'; key: string; messages: ModelMessage[] }
  /**
   * The task's proposals after a change, whole; null once its change set is gone. Since proposals are
   * written as `proposals` records, only the null is written (older files hold whole ones).
   */
  | { type: 'changes'; taskId: string; changeSet: ChangeSetSnapshot | null }
  /**
   * A text of the task's proposals (a file's base or proposed content), written once and named by `textId`
   * in the `proposals` records after it; with `delta`, built from an earlier text of the same file (run-proposal-texts.ts).
   */
  | { type: 'file-text'; taskId: string; textId: string; text: string; delta?: FileTextDelta }
  /** The task's proposals after a change, each file's contents named by the `file-text` records before it. */
  | { type: 'proposals'; taskId: string; changeSet: ChangeSetByText }
  /** A restore point of an accept or an undo, a record per file then its header (checkpoints/restore-point.ts). */
  | RestorePointRecord;

/** A text made of the text `from` (see text-delta.ts); `length`: the length of the result, checked when read. */
export interface FileTextDelta {
  from: string;
  keepStart: number;
  keepEnd: number;
  length: number;
}

/** A text of a `file-text` record, with its length (checked when read). */
export interface TextReference {
  textId: string;
  length: number;
}

export type FileChangeByText = Omit<FileChangeSnapshot, 'baseContent' | 'proposedContent'> & {
  baseText: TextReference | null;
  proposedText: TextReference;
};
export type ChangeSetByText = Omit<ChangeSetSnapshot, 'files'> & { files: FileChangeByText[] };

export type RunRecordType = RunRecord['type'];

export const runRecordTypes: readonly RunRecordType[] = [
  'task',
  'entry',
  'conversation',
  'compaction',
  'kept-conversation',
  'changes',
  'file-text',
  'proposals',
  'restore-file',
  'restore-point',
];

/** The restore points of a run (what its accepts and undos changed on disk): an undo reads these. */
export const restorePointRecordTypes: readonly RunRecordType[] = ['restore-file', 'restore-point'];

/** The proposals of a run are told by these types together: a reader that wants one wants them all. */
export const proposalRecordTypes: readonly RunRecordType[] = ['changes', 'file-text', 'proposals'];

/** How every line of that type begins, as `JSON.stringify` writes a record built with `type` first. */
export function linePrefixOf(type: RunRecordType): string {
  return `{"type":${JSON.stringify(type)},`;
}

// Built on the first read of a run file, not when the module loads: the extension's core loads it at its
// start, and these are most of the schemas it would otherwise build then (B5 in docs/performance.md).
function buildRunRecordSchema() {
  const identifier = z.string().min(1);
  const count = z.number().int().nonnegative();

  const textPart = z.object({ type: z.literal('text'), text: z.string() });
  const imagePart = z.object({
    type: z.literal('image'),
    mediaType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
    data: z.string(),
    name: z.string().optional(),
  });
  const toolCallPart = z.object({ type: z.literal('tool-call'), toolCallId: z.string(), toolName: z.string(), input: z.unknown() });
  const toolResultPart = z.object({
    type: z.literal('tool-result'),
    toolCallId: z.string(),
    toolName: z.string(),
    output: z.string(),
    isError: z.boolean().optional(),
  });

  /**
   * A message as the model layer sends it. A part of a type this version does not know fails the message
   * (and its record): a conversation missing a part would replay to the model as something it never said.
   */
  const modelMessageSchema = z.discriminatedUnion('role', [
    z.object({ role: z.literal('user'), content: z.array(z.discriminatedUnion('type', [textPart, imagePart, toolResultPart])) }),
    z.object({ role: z.literal('assistant'), content: z.array(z.discriminatedUnion('type', [textPart, toolCallPart])) }),
  ]);

  const messagesSchema = z.array(modelMessageSchema).transform((messages) => messages as ModelMessage[]);

  const textReferenceSchema = z.object({ textId: identifier, length: count });

  /** A file change as the lenient schema reads it, its two contents named rather than held. */
  const fileChangeByTextSchema = fileChangeSnapshotSchemas.lenient
    .omit({ baseContent: true, proposedContent: true })
    .extend({ baseText: textReferenceSchema.nullable(), proposedText: textReferenceSchema });
  const changeSetByTextSchema = changeSetSnapshotSchemas.lenient.extend({ files: z.array(fileChangeByTextSchema) });
  const fileTextDeltaSchema = z.object({ from: identifier, keepStart: count, keepEnd: count, length: count });

  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('task'), task: taskSnapshotSchemas.lenient }),
    z.object({ type: z.literal('entry'), taskId: identifier, index: count, entry: transcriptEntrySchemas.lenient }),
    z.object({ type: z.literal('conversation'), taskId: identifier, from: count, messages: messagesSchema }),
    z.object({
      type: z.literal('compaction'),
      taskId: identifier,
      beforeTokens: count,
      afterTokens: count,
      trigger: z.enum(['auto', 'overflow', 'manual']),
    }),
    z.object({ type: z.literal('kept-conversation'), key: identifier, messages: messagesSchema }),
    z.object({ type: z.literal('changes'), taskId: identifier, changeSet: changeSetSnapshotSchemas.lenient.nullable() }),
    z.object({
      type: z.literal('file-text'),
      taskId: identifier,
      textId: identifier,
      text: z.string(),
      delta: fileTextDeltaSchema.optional(),
    }),
    z.object({ type: z.literal('proposals'), taskId: identifier, changeSet: changeSetByTextSchema }),
    ...buildRestorePointRecordSchemas(),
  ]);
}

let runRecords: ReturnType<typeof buildRunRecordSchema> | undefined;

/** The schema of one line of a run file (lenient: see the top of this file), built on the first call. */
export function runRecordSchema(): ReturnType<typeof buildRunRecordSchema> {
  return (runRecords ??= buildRunRecordSchema());
}

/** Which task a record is about, for warnings. */
export function subjectOf(record: RunRecord): string {
  switch (record.type) {
    case 'task':
      return `task ${record.task.id}`;
    case 'kept-conversation':
      return `the kept conversation ${record.key}`;
    case 'restore-file':
    case 'restore-point':
      return `the restore point ${record.pointId}`;
    default:
      return `task ${record.taskId}`;
  }
}
