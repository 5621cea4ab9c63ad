/**
 * The CLI's JSON Lines events (contract in docs/architecture.md), derived from the task manager's one event
 * stream. Contract types: task-start, task-end, change-proposed, run-end. Extra types (consumers ignore
 * what they don't know): task-background, text-delta, tool-call, tool-result, notice, todo.
 */
import type { Cost, StopReason, TaskEvent, TaskSnapshot, TodoItem, Usage, UsageByModel } from '../engine/index.js';
import { TodoChanges } from './todo-changes.js';

/**
 * How a task or run ended. `interrupted`: stopped because the session ended (the window closed, the
 * process died, Agent Team shut down) rather than by anybody's choice; `agent-team run --resume <runId>`
 * continues it.
 */
export type CliEndStatus = 'completed' | 'failed' | 'stopped' | 'interrupted';

export type CliJsonEvent =
  | { type: 'task-start'; taskId: string; parentId: string | null; role: string; description: string; background: boolean }
  | { type: 'task-background'; taskId: string }
  /** Words a task's model is streaming, as they come (the step's full text follows in its entry). */
  | { type: 'text-delta'; taskId: string; text: string }
  | { type: 'tool-call'; taskId: string; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-result'; taskId: string; toolCallId: string; toolName: string; isError: boolean }
  /** What a task's transcript says besides its tool calls (a remote task that may still be running). */
  | { type: 'notice'; taskId: string; text: string }
  /** A task's todo list, whole, each time it changes (`TodoWrite`, a planned task's sub-tasks). */
  | { type: 'todo'; taskId: string; todos: TodoItem[] }
  /** `usageByModel`: the task's usage and cost by model, when more than one did its work (a failover). */
  | {
      type: 'task-end';
      taskId: string;
      status: CliEndStatus;
      output?: string;
      error?: string;
      stopReason?: StopReason;
      usage: Usage;
      cost?: Cost;
      costUsd?: number;
      usageByModel?: UsageByModel;
    }
  /** `target`: where `path` leads when a symbolic link sends it elsewhere (workspace-relative). */
  | { type: 'change-proposed'; taskId: string; path: string; diff: string; target?: string }
  /** The checks' verdict on the run's pending proposals (`run --checks`; CONTRACTS4 "Evidence"). */
  | { type: 'checks'; runId: string; taskIds: string[]; results: Array<Record<string, unknown>> }
  /** How full a task's context window is, after each model request: `windowTokens` when known. */
  | { type: 'context'; taskId: string; usedTokens: number; windowTokens?: number }
  /** A task's conversation was compacted: the next request's estimated size before and after. */
  | { type: 'compaction'; taskId: string; beforeTokens: number; afterTokens: number }
  | {
      type: 'run-end';
      status: CliEndStatus;
      output: string;
      error?: string;
      stopReason?: StopReason;
      usage: Usage;
      cost?: Cost;
      costUsd?: number;
    };

/** Turns task events into CLI events; remembers which tasks were already announced as backgrounded. */
export class JsonEventMapper {
  private readonly backgrounded = new Set<string>();
  /** Each task's context as last told, so an update tells it only when it changed. */
  private readonly contexts = new Map<string, TaskSnapshot['context']>();
  private readonly todos = new TodoChanges();

  map(event: TaskEvent): CliJsonEvent[] {
    switch (event.type) {
      case 'task-start':
        if (event.task.background) this.backgrounded.add(event.task.id);
        return [taskStart(event.task)];
      case 'task-update': {
        const events = this.contextOf(event.task);
        if (event.task.background && !this.backgrounded.has(event.task.id)) {
          this.backgrounded.add(event.task.id);
          events.push({ type: 'task-background', taskId: event.task.id });
        }
        const todos = this.todos.changed(event.task);
        if (todos) events.push({ type: 'todo', taskId: event.task.id, todos: todos.map((todo) => ({ ...todo })) });
        return events;
      }
      case 'task-compaction':
        return [{ type: 'compaction', taskId: event.taskId, beforeTokens: event.beforeTokens, afterTokens: event.afterTokens }];
      case 'task-transcript': {
        const entry = event.entry;
        if (entry.type === 'tool-call') {
          return [{ type: 'tool-call', taskId: event.taskId, toolCallId: entry.toolCallId, toolName: entry.toolName, input: entry.input }];
        }
        if (entry.type === 'tool-result') {
          return [
            { type: 'tool-result', taskId: event.taskId, toolCallId: entry.toolCallId, toolName: entry.toolName, isError: entry.isError },
          ];
        }
        if (entry.type === 'notice') return [{ type: 'notice', taskId: event.taskId, text: entry.text }];
        return [];
      }
      case 'task-text-delta':
        return [{ type: 'text-delta', taskId: event.taskId, text: event.text }];
      case 'task-conversation':
        return [];
      case 'task-end':
        this.contexts.delete(event.task.id);
        return [taskEnd(event.task)];
    }
  }

  private contextOf(task: TaskSnapshot): CliJsonEvent[] {
    const context = task.context;
    // Snapshots share the frozen context object until it changes.
    if (context === undefined || this.contexts.get(task.id) === context) return [];
    this.contexts.set(task.id, context);
    return [
      {
        type: 'context',
        taskId: task.id,
        usedTokens: context.usedTokens,
        ...(context.windowTokens === undefined ? {} : { windowTokens: context.windowTokens }),
      },
    ];
  }
}

function taskStart(task: TaskSnapshot): CliJsonEvent {
  return {
    type: 'task-start',
    taskId: task.id,
    parentId: task.parentId,
    role: task.role,
    description: task.description,
    background: task.background,
  };
}

function taskEnd(task: TaskSnapshot): CliJsonEvent {
  return {
    type: 'task-end',
    taskId: task.id,
    status: endStatusOf(task),
    ...(task.output !== undefined ? { output: task.output } : {}),
    ...(task.error !== undefined ? { error: task.error } : {}),
    ...(task.stopReason !== undefined ? { stopReason: task.stopReason } : {}),
    usage: { inputTokens: task.usage.inputTokens, outputTokens: task.usage.outputTokens },
    // The task's own cost, like its usage: `usd` for the priced tokens, `unpricedTokens` for the rest.
    ...(task.cost ? { cost: { ...task.cost } } : {}),
    ...costInDollars(task.cost),
    ...(task.usageByModel
      ? { usageByModel: task.usageByModel.map((entry) => ({ model: entry.model, usage: { ...entry.usage }, cost: { ...entry.cost } })) }
      : {}),
  };
}

/** A task's status as the contract's end status: a task ends completed, failed, stopped or interrupted. */
function endStatusOf(task: TaskSnapshot): CliEndStatus {
  switch (task.status) {
    case 'completed':
    case 'failed':
    case 'interrupted':
      return task.status;
    default:
      // Only a task still at work could be anything else, and `task-end` is sent once it has ended.
      return 'stopped';
  }
}

/** The contract's `costUsd`: present only when every token had a price (an unknown price is not 0). */
function costInDollars(cost: Cost | undefined): { costUsd?: number } {
  return cost && cost.unpricedTokens === 0 ? { costUsd: cost.usd } : {};
}

/**
 * The run's last event. `root` is undefined when the run failed before or outside its root task; `error`
 * then (or for a stall) says why. A run `stopped` whose root was interrupted (the session ended under
 * it) ends `interrupted`: the caller need not tell the two apart, the root's stop reason does.
 */
export function runEndEvent(root: TaskSnapshot | undefined, status: CliEndStatus, error?: string): CliJsonEvent {
  const why = error ?? (status === 'completed' ? undefined : root?.error);
  return {
    type: 'run-end',
    status: status === 'stopped' && root?.status === 'interrupted' ? 'interrupted' : status,
    output: root?.output ?? '',
    ...(why !== undefined ? { error: why } : {}),
    ...(root?.stopReason !== undefined ? { stopReason: root.stopReason } : {}),
    usage: root
      ? { inputTokens: root.treeUsage.inputTokens, outputTokens: root.treeUsage.outputTokens }
      : { inputTokens: 0, outputTokens: 0 },
    ...(root?.treeCost ? { cost: { ...root.treeCost } } : {}),
    ...costInDollars(root?.treeCost),
  };
}
