/**
 * A run's trace, for a pull request or a bug report: the tree (who did what, on which model, how long,
 * how many tokens, how it ended), each task's prompt, transcript (model turns, tool calls and results)
 * and answer, and the diffs it proposed. Built from the task manager and the change sets; secrets are
 * redacted and long tool results cut where the trace is made, so no rendering can leak or balloon.
 */
import type { ChangeSetRegistry } from '../changes/registry.js';
import type { Cost } from '../model/cost-schema.js';
import type { TranscriptEntry } from '../agent/transcript-entry.js';
import { redactSecrets } from '../secrets.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { TaskSnapshot } from '../tasks/types.js';
import type { TodoItem } from '../tasks/todo-item.js';

export const traceVersion = 1;

export interface TraceTask {
  id: string;
  parentId: string | null;
  role: string;
  description: string;
  status: TaskSnapshot['status'];
  stopReason?: TaskSnapshot['stopReason'];
  error?: string;
  model?: string;
  startedAt?: string;
  endedAt?: string;
  durationMs?: number;
  usage: TaskSnapshot['usage'];
  treeUsage: TaskSnapshot['treeUsage'];
  budgetTokens?: number;
  /** The task's own cost and its tree's (`usd`, and `unpricedTokens` of models with no known price). */
  cost?: Cost;
  treeCost?: Cost;
  /** The task's own usage and cost by model, when more than one did its work (a failover). */
  usageByModel?: TaskSnapshot['usageByModel'];
  budgetUsd?: number;
  /** How full its context window was at its last request (`usedTokens`, `windowTokens` when known); compactions are transcript notices. */
  context?: TaskSnapshot['context'];
  prompt: string;
  /** The tasks it is part of, outermost first, as its agent saw them before its prompt. Absent when none. */
  ancestorTasks?: string[];
  output?: string;
  /** Its todo list as last written (`TodoWrite`, a plan's sub-tasks); each change is a `TodoWrite` step of the transcript. Absent when none. */
  todos?: TodoItem[];
  transcript: TranscriptEntry[];
  /** `editedByUser`: the user edited the proposal by hand before deciding it (the diff holds both edits). */
  changes: Array<{ path: string; status: string; added: number; removed: number; diff: string; editedByUser?: true }>;
}

export interface RunTrace {
  version: typeof traceVersion;
  /** The root task: the run as a whole. */
  run: TraceTask;
  /** Every task of the run, the root first, parents before children. */
  tasks: TraceTask[];
}

export interface TraceOptions {
  /** Values to keep out (the keys in use); key-shaped values are redacted either way. */
  secrets?: readonly string[];
  /** A tool result longer than this is cut, with a note. Default 4,000 characters. */
  maxToolResultCharacters?: number;
}

/** Async: a finished task's transcript may be in the run log rather than in memory (`readTranscript`). */
export async function buildRunTrace(
  taskManager: TaskManager,
  changes: ChangeSetRegistry,
  rootId: string,
  options: TraceOptions = {},
): Promise<RunTrace> {
  const root = taskManager.get(rootId);
  if (!root) throw new Error(`There is no task ${rootId} to trace.`);
  const ids = [rootId];
  for (let index = 0; index < ids.length; index++) ids.push(...taskManager.children(ids[index]!).map((child) => child.id));
  const transcripts = await Promise.all(ids.map((id) => taskManager.readTranscript(id)));
  const tasks = ids.map((id, index) => traceTask(taskManager.get(id)!, transcripts[index]!, changes, options));
  return { version: traceVersion, run: tasks[0]!, tasks };
}

function traceTask(
  task: TaskSnapshot,
  transcript: readonly TranscriptEntry[],
  changes: ChangeSetRegistry,
  options: TraceOptions,
): TraceTask {
  const clean = (text: string) => redactSecrets(text, options.secrets ?? []);
  const limit = options.maxToolResultCharacters ?? 4_000;
  const traced: TraceTask = {
    id: task.id,
    parentId: task.parentId,
    role: task.role,
    description: clean(task.description),
    status: task.status,
    usage: { ...task.usage },
    treeUsage: { ...task.treeUsage },
    prompt: clean(task.prompt),
    transcript: transcript.map((entry) => cleanEntry(entry, clean, limit)),
    changes: (changes.get(task.id)?.snapshot().files ?? []).map((file) => ({
      path: file.path,
      status: file.status,
      added: file.added,
      removed: file.removed,
      diff: clean(file.diff),
      ...(file.editedByUser === true ? { editedByUser: true as const } : {}),
    })),
  };
  if (task.stopReason) traced.stopReason = task.stopReason;
  if (task.error !== undefined) traced.error = clean(task.error);
  if (task.model !== undefined) traced.model = task.model;
  if (task.startedAt !== undefined) traced.startedAt = new Date(task.startedAt).toISOString();
  if (task.endedAt !== undefined) traced.endedAt = new Date(task.endedAt).toISOString();
  if (task.startedAt !== undefined && task.endedAt !== undefined) traced.durationMs = task.endedAt - task.startedAt;
  if (task.budgetTokens !== undefined) traced.budgetTokens = task.budgetTokens;
  if (task.cost) traced.cost = { ...task.cost };
  if (task.treeCost) traced.treeCost = { ...task.treeCost };
  if (task.usageByModel) traced.usageByModel = task.usageByModel;
  if (task.budgetUsd !== undefined) traced.budgetUsd = task.budgetUsd;
  if (task.context) traced.context = { ...task.context };
  if (task.output !== undefined) traced.output = clean(task.output);
  if (task.ancestorTasks !== undefined) traced.ancestorTasks = task.ancestorTasks.map(clean);
  if (task.todos !== undefined)
    traced.todos = task.todos.map((todo) => ({ content: clean(todo.content), status: todo.status, activeForm: clean(todo.activeForm) }));
  return traced;
}

function cleanEntry(entry: TranscriptEntry, clean: (text: string) => string, limit: number): TranscriptEntry {
  switch (entry.type) {
    case 'text':
    case 'notice':
      return { ...entry, text: clean(entry.text) };
    case 'tool-call': {
      if (entry.input === undefined) return entry;
      const input = clean(JSON.stringify(entry.input));
      // A Write's whole file is in its input: the diff shows the change, the trace keeps the start.
      return {
        ...entry,
        input:
          input.length > limit ? `${input.slice(0, limit)} [cut: ${input.length - limit} more characters]` : (JSON.parse(input) as unknown),
      };
    }
    case 'tool-result': {
      const output = clean(entry.output);
      return {
        ...entry,
        output: output.length > limit ? `${output.slice(0, limit)}\n[cut: ${output.length - limit} more characters]` : output,
      };
    }
  }
}
