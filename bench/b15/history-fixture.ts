/**
 * B15's window as it opens on a long history: a run-log directory (src/engine/runs) holding 200 earlier
 * runs of 5 tasks each (a coordinator and 4 researchers), so the window, which loads its newest 200 runs,
 * shows 1,000 history rows. One researcher of the newest run has a large transcript (many `Read` results:
 * megabytes of JSON when it is selected, serialized, resumed). Written directly as files, as B14's are.
 * And a workspace holding one big source file for the refactorers to propose edits to.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TranscriptEntry } from '../../src/engine/agent/types.js';
import type { RunRecord } from '../../src/engine/runs/run-log-records.js';
import type { RunSummary } from '../../src/engine/runs/run-index.js';
import type { TaskSnapshot } from '../../src/engine/tasks/types.js';
import { text } from '../support/earlier-runs.js';

export const researchersPerRun = 4;

export interface HistorySize {
  runs: number;
  /** Entries of the one large transcript (a `Read` call and its result each two). */
  largeTranscriptEntries: number;
  /** Characters of each `Read` result in it. */
  largeResultLength: number;
}

/** The id of the researcher with the large transcript. */
export function largeTranscriptTaskId(size: HistorySize): string {
  return `h${size.runs}r1`;
}

function snapshot(id: string, parentId: string | null, rootId: string, at: number, transcriptLength: number): TaskSnapshot {
  const usage = { inputTokens: 1200, outputTokens: 300 };
  return {
    id,
    parentId,
    rootId,
    depth: parentId === null ? 0 : 1,
    role: parentId === null ? 'coordinator' : 'researcher',
    description: parentId === null ? 'Find the date parser' : 'Read the parser',
    prompt: text(200),
    background: parentId !== null,
    status: 'completed',
    createdAt: at,
    startedAt: at,
    endedAt: at + 1000,
    output: text(300),
    usage,
    treeUsage: usage,
    cost: { usd: 0.01, unpricedTokens: 0 },
    treeCost: { usd: 0.01, unpricedTokens: 0 },
    transcriptLength,
  };
}

function transcript(id: string, reads: number, resultLength: number): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (let read = 0; read < reads; read++) {
    entries.push({ type: 'tool-call', toolCallId: `${id}-c${read}`, toolName: 'Read', input: { file_path: `src/module-${read}.ts` } });
    // Each result differs, as files read one after another do (the run log holds each once anyway).
    entries.push({
      type: 'tool-result',
      toolCallId: `${id}-c${read}`,
      toolName: 'Read',
      output: `${read} ${text(resultLength)}`,
      isError: false,
    });
  }
  entries.push({ type: 'text', text: text(300) });
  return entries;
}

function taskRecords(task: TaskSnapshot, entries: TranscriptEntry[]): RunRecord[] {
  return [
    { type: 'task', task: { ...task, status: 'running', transcriptLength: 0 } },
    ...entries.map((entry, index): RunRecord => ({ type: 'entry', taskId: task.id, index, entry })),
    { type: 'task', task },
  ];
}

/** Writes the earlier runs (`h1`…`hN`, the newest ending a few seconds before `now`) and their index. */
export async function writeHistory(directory: string, size: HistorySize, now: number): Promise<void> {
  await mkdir(directory, { recursive: true });
  const indexLines: string[] = [];
  for (let run = 1; run <= size.runs; run++) {
    const runId = `h${run}`;
    const at = now - (size.runs - run + 2) * 1000;
    const tasks: Array<{ task: TaskSnapshot; entries: TranscriptEntry[] }> = [];
    const rootEntries = transcript(runId, 1, 600);
    tasks.push({ task: snapshot(runId, null, runId, at, rootEntries.length), entries: rootEntries });
    for (let researcher = 1; researcher <= researchersPerRun; researcher++) {
      const id = `${runId}r${researcher}`;
      const large = id === largeTranscriptTaskId(size);
      const entries = large ? transcript(id, size.largeTranscriptEntries / 2, size.largeResultLength) : transcript(id, 1, 600);
      tasks.push({ task: snapshot(id, runId, runId, at, entries.length), entries });
    }
    const content = tasks
      .flatMap(({ task, entries }) => taskRecords(task, entries))
      .map((record) => `${JSON.stringify(record)}\n`)
      .join('');
    const summary: RunSummary = {
      runId,
      description: 'Find the date parser',
      role: 'coordinator',
      status: 'completed',
      createdAt: at,
      updatedAt: at + 1000,
      bytes: Buffer.byteLength(content),
      taskIds: tasks.map(({ task }) => task.id),
      openTasks: 0,
    };
    indexLines.push(JSON.stringify(summary));
    await writeFile(path.join(directory, `${runId}.jsonl`), content);
  }
  await writeFile(path.join(directory, 'index.jsonl'), `${indexLines.join('\n')}\n`);
}

/** The big file's line `index` (0-based): unique, so an edit can name it. */
export function bigFileLine(index: number): string {
  return `export const value${index} = compute(${index}, 'a line of a large generated module');\n`;
}

/** A workspace folder with `src/generated.ts` of `lines` lines and a small `notes.txt`. */
export async function writeWorkspace(root: string, lines: number): Promise<void> {
  await mkdir(path.join(root, 'src'), { recursive: true });
  const content: string[] = [];
  for (let index = 0; index < lines; index++) content.push(bigFileLine(index));
  await writeFile(path.join(root, 'src', 'generated.ts'), content.join(''));
  await writeFile(path.join(root, 'notes.txt'), 'Ship it on Friday.\n');
}
