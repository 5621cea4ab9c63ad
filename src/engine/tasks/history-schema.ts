/**
 * Reads a stored task history defensively: a file written by an older or newer version, edited by hand or
 * damaged must never stop the extension from starting. Tasks that don't fit the schema are skipped one
 * by one (with a warning); anything unusable at the top level gives an empty history.
 */
import * as z from 'zod';
import type { TranscriptEntry } from '../agent/types.js';
import type { PersistedHistory, PersistedTask } from './task-store.js';
import type { TaskSnapshot } from './types.js';

const usageSchema = z.object({ inputTokens: z.number().min(0), outputTokens: z.number().min(0) });

const stopReasonSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user') }),
  z.object({ kind: z.literal('parent-stopped'), parentId: z.string() }),
  z.object({ kind: z.literal('stopped-by-agent'), taskId: z.string() }),
  z.object({ kind: z.literal('budget'), detail: z.string() }),
  z.object({ kind: z.literal('shutdown') }),
  z.object({ kind: z.literal('interrupted') }),
]);

const snapshotSchema = z.object({
  id: z.string().min(1),
  parentId: z.string().min(1).nullable(),
  rootId: z.string().min(1),
  depth: z.number().int().min(0),
  role: z.string(),
  description: z.string(),
  prompt: z.string(),
  model: z.string().optional(),
  background: z.boolean(),
  status: z.enum(['queued', 'running', 'completed', 'failed', 'stopped']),
  createdAt: z.number(),
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  output: z.string().optional(),
  error: z.string().optional(),
  stopReason: stopReasonSchema.optional(),
  usage: usageSchema,
  treeUsage: usageSchema,
  transcriptLength: z.number().int().min(0),
});

const transcriptEntrySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('tool-call'), toolCallId: z.string(), toolName: z.string(), input: z.unknown() }),
  z.object({
    type: z.literal('tool-result'),
    toolCallId: z.string(),
    toolName: z.string(),
    output: z.string(),
    isError: z.boolean(),
  }),
  z.object({ type: z.literal('notice'), text: z.string() }),
]);

const persistedTaskSchema = z.object({
  task: snapshotSchema,
  transcript: z.array(transcriptEntrySchema),
  droppedTranscriptEntries: z.number().int().min(0).optional(),
  partialOutput: z.string().optional(),
});

const historySchema = z.object({ version: z.literal(1), tasks: z.array(z.unknown()) });

/**
 * Turns parsed JSON into a history; never throws. Returns undefined (after a warning) when the whole thing
 * is unusable; `warn` also hears about single task records left out.
 */
export function parsePersistedHistory(value: unknown, warn: (message: string) => void): PersistedHistory | undefined {
  const top = historySchema.safeParse(value);
  if (!top.success) {
    warn(`Task history has an unknown format (${z.prettifyError(top.error)}); starting with an empty history.`);
    return undefined;
  }
  const tasks: PersistedTask[] = [];
  let skipped = 0;
  for (const item of top.data.tasks) {
    const parsed = persistedTaskSchema.safeParse(item);
    if (!parsed.success) {
      skipped++;
      continue;
    }
    const task: PersistedTask = {
      task: parsed.data.task as TaskSnapshot,
      transcript: parsed.data.transcript as TranscriptEntry[],
      droppedTranscriptEntries: parsed.data.droppedTranscriptEntries ?? 0,
    };
    if (parsed.data.partialOutput !== undefined) task.partialOutput = parsed.data.partialOutput;
    tasks.push(task);
  }
  if (skipped > 0) warn(`Task history: ${skipped} damaged task record(s) were skipped.`);
  return { version: 1, tasks };
}
