/**
 * Histories for B14, written quickly and directly as files: a run-log directory holding N earlier runs
 * (each a root and a child, their transcripts and conversations, ~4 KB, with its index line, as the run
 * log writes them), and the same N tasks as one `PersistedHistory` for the old JSON file store.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TranscriptEntry } from '../../src/engine/agent/types.js';
import type { ModelMessage } from '../../src/engine/model/types.js';
import type { RunRecord } from '../../src/engine/runs/run-log-records.js';
import type { RunSummary } from '../../src/engine/runs/run-index.js';
import type { PersistedHistory, PersistedTask } from '../../src/engine/tasks/task-store.js';
import type { TaskSnapshot } from '../../src/engine/tasks/types.js';

const sentence = 'The parser splits the date on separators and builds it in local time, which is wrong for UTC stamps. ';

/** About `length` characters of text. */
export function text(length: number): string {
  return sentence.repeat(Math.ceil(length / sentence.length)).slice(0, length);
}

function snapshot(id: string, parentId: string | null, rootId: string, at: number): TaskSnapshot {
  const usage = { inputTokens: 1200, outputTokens: 300 };
  return {
    id,
    parentId,
    rootId,
    depth: parentId === null ? 0 : 1,
    role: parentId === null ? 'coordinator' : 'researcher',
    description: 'Find the date parser',
    prompt: text(200),
    background: false,
    status: 'completed',
    createdAt: at,
    startedAt: at,
    endedAt: at + 1000,
    output: text(300),
    usage,
    treeUsage: usage,
    cost: { usd: 0.01, unpricedTokens: 0 },
    treeCost: { usd: 0.01, unpricedTokens: 0 },
    transcriptLength: 3,
  };
}

function transcript(id: string): TranscriptEntry[] {
  return [
    { type: 'tool-call', toolCallId: `${id}-c1`, toolName: 'Read', input: { file_path: 'src/parse.ts' } },
    { type: 'tool-result', toolCallId: `${id}-c1`, toolName: 'Read', output: text(600), isError: false },
    { type: 'text', text: text(300) },
  ];
}

function conversation(id: string): ModelMessage[] {
  return [
    { role: 'user', content: [{ type: 'text', text: text(200) }] },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: `${id}-c1`, toolName: 'Read', input: { file_path: 'src/parse.ts' } }] },
    { role: 'user', content: [{ type: 'tool-result', toolCallId: `${id}-c1`, toolName: 'Read', output: text(600), isError: false }] },
  ];
}

/** One finished task as the run log records it. */
function taskRecords(task: TaskSnapshot): RunRecord[] {
  return [
    { type: 'task', task: { ...task, status: 'running', transcriptLength: 0 } },
    ...transcript(task.id).map((entry, index): RunRecord => ({ type: 'entry', taskId: task.id, index, entry })),
    { type: 'conversation', taskId: task.id, from: 0, messages: conversation(task.id) },
    { type: 'task', task },
  ];
}

/** Writes `count` earlier runs (`e1`…, each a root and a child) and their index; the newest changed just now. */
export async function writeEarlierRuns(directory: string, count: number, now: number): Promise<void> {
  const indexLines: string[] = [];
  const batch = 64;
  for (let start = 1; start <= count; start += batch) {
    const writes: Promise<void>[] = [];
    for (let run = start; run < Math.min(count + 1, start + batch); run++) {
      const runId = `e${run}`;
      const at = now - (count - run + 1) * 1000;
      const records = [...taskRecords(snapshot(runId, null, runId, at)), ...taskRecords(snapshot(`${runId}c`, runId, runId, at))];
      const content = records.map((record) => `${JSON.stringify(record)}\n`).join('');
      const summary: RunSummary = {
        runId,
        description: 'Find the date parser',
        role: 'coordinator',
        status: 'completed',
        createdAt: at,
        updatedAt: at + 1000,
        bytes: Buffer.byteLength(content),
        taskIds: [runId, `${runId}c`],
        openTasks: 0,
      };
      indexLines.push(JSON.stringify(summary));
      writes.push(writeFile(path.join(directory, `${runId}.jsonl`), content));
    }
    await Promise.all(writes);
  }
  await writeFile(path.join(directory, 'index.jsonl'), `${indexLines.join('\n')}\n`);
}

/** `count` finished tasks (roots and children in turn) as the old JSON store saves them. */
export function earlierHistory(count: number, now: number): PersistedHistory {
  const tasks: PersistedTask[] = [];
  for (let index = 1; index <= count; index++) {
    const rootId = index % 2 === 1 ? `e${index}` : `e${index - 1}`;
    const task = snapshot(`e${index}`, index % 2 === 1 ? null : rootId, rootId, now - (count - index) * 1000);
    tasks.push({ task, transcript: transcript(task.id), droppedTranscriptEntries: 0 });
  }
  return { version: 1, tasks };
}
