/**
 * Reads a stored task history defensively: a file written by an older or newer version, edited by hand or
 * damaged must never stop the extension from starting. Tasks that don't fit the schema are skipped one
 * by one (with a warning); anything unusable at the top level gives an empty history. The task and its
 * transcript are read with the lenient variants of the engine's own schemas (unknown fields are dropped,
 * fields added later get their defaults), so the history always knows every field the engine has.
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import { transcriptEntrySchemas } from '../agent/transcript-entry.js';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { taskSnapshotSchemas } from './task-snapshot.js';
import type { PersistedHistory, PersistedTask } from './task-store.js';

// Built at the first history read, not when the module loads (B5 in docs/performance.md).
const persistedTaskSchema = builtOnFirstUse(() =>
  z.object({
    task: taskSnapshotSchemas.lenient,
    transcript: z.array(transcriptEntrySchemas.lenient),
    droppedTranscriptEntries: z.number().int().min(0).optional(),
    partialOutput: z.string().optional(),
  }),
);

const historySchema = builtOnFirstUse(() => z.object({ version: z.literal(1), tasks: z.array(z.unknown()) }));

/**
 * Turns parsed JSON into a history; never throws. Returns undefined (after a warning) when the whole thing
 * is unusable; `warn` also hears about single task records left out.
 */
export function parsePersistedHistory(value: unknown, warn: (message: string) => void): PersistedHistory | undefined {
  const top = historySchema().safeParse(value);
  if (!top.success) {
    warn(`Task history has an unknown format (${z.prettifyError(top.error)}); starting with an empty history.`);
    return undefined;
  }
  const tasks: PersistedTask[] = [];
  let skipped = 0;
  for (const item of top.data.tasks) {
    const parsed = persistedTaskSchema().safeParse(item);
    if (!parsed.success) {
      skipped++;
      continue;
    }
    const task: PersistedTask = {
      task: parsed.data.task,
      transcript: parsed.data.transcript,
      droppedTranscriptEntries: parsed.data.droppedTranscriptEntries ?? 0,
    };
    if (parsed.data.partialOutput !== undefined) task.partialOutput = parsed.data.partialOutput;
    tasks.push(task);
  }
  if (skipped > 0) warn(`Task history: ${skipped} damaged task record(s) were skipped.`);
  return { version: 1, tasks };
}
