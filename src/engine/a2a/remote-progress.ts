/**
 * What a remote agent has sent so far, read from the A2A stream's events (protocol 0.3): its task id, its
 * state, its artifacts (the answer), the text of its status messages, and any token usage in metadata.
 * Pure bookkeeping, no I/O, so each rule is testable on its own; `remote-task-work.ts` feeds the task.
 */
import type { Message, Part, Task, TaskArtifactUpdateEvent, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { Usage } from '../model/types.js';

export type RemoteEvent = Message | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

/** What one event means for the local task. */
export interface RemoteUpdate {
  /** Text to stream as live output (`appendText`). */
  text?: string;
  /** A line for the transcript: the remote's status and what it said with it. */
  status?: string;
  /** Tokens the event reports (`reportUsage`). */
  usage?: Usage;
}

/** States after which the remote task does nothing more. */
const finalStates: ReadonlySet<TaskState> = new Set(['completed', 'failed', 'canceled', 'rejected']);
/** States in which the remote waits for something a subagent cannot give (an answer, a login). */
const blockedStates: ReadonlySet<TaskState> = new Set(['input-required', 'auth-required']);

export class RemoteProgress {
  taskId?: string;
  contextId?: string;
  state?: TaskState;
  /** The remote's own words with its last status (why it failed, what it asks). */
  lastStatusText = '';
  /** An answer sent as a message instead of a task (a remote with no task lifecycle). */
  private directAnswer?: string;
  /** Artifacts by id, in the order they first came; their text is the answer. */
  private readonly artifacts = new Map<string, string>();

  /** Reads one event; returns what the local task should show of it. */
  read(event: RemoteEvent): RemoteUpdate {
    switch (event.kind) {
      case 'message':
        this.directAnswer = textOf(event.parts);
        this.state = 'completed';
        return { ...withUsage(event.metadata), ...(this.directAnswer ? { text: this.directAnswer } : {}) };
      case 'task': {
        this.taskId = event.id;
        this.contextId = event.contextId;
        for (const artifact of event.artifacts ?? []) this.artifacts.set(artifact.artifactId, textOf(artifact.parts));
        return { ...this.readStatus(event.status.state, event.status.message?.parts), ...withUsage(event.metadata) };
      }
      case 'status-update':
        this.taskId = event.taskId;
        this.contextId = event.contextId;
        return { ...this.readStatus(event.status.state, event.status.message?.parts), ...withUsage(event.metadata, event.status.message?.metadata) };
      case 'artifact-update': {
        this.taskId = event.taskId;
        const id = event.artifact.artifactId;
        const chunk = textOf(event.artifact.parts);
        const earlier = this.artifacts.get(id);
        // A chunk appended streams as it comes; a whole artifact that repeats what was streamed adds nothing new.
        const streamed = event.append && earlier !== undefined ? chunk : earlier === undefined ? chunk : chunk.startsWith(earlier) ? chunk.slice(earlier.length) : '';
        this.artifacts.set(id, event.append && earlier !== undefined ? earlier + chunk : chunk);
        return { ...(streamed ? { text: streamed } : {}), ...withUsage(event.metadata, event.artifact.metadata) };
      }
    }
  }

  get finished(): boolean {
    return this.state !== undefined && finalStates.has(this.state);
  }

  get blocked(): boolean {
    return this.state !== undefined && blockedStates.has(this.state);
  }

  /** The answer: the artifacts' text; else a direct message; else what the final status said. */
  get output(): string {
    const artifacts = [...this.artifacts.values()].filter((text) => text.trim() !== '').join('\n\n');
    return artifacts || this.directAnswer || this.lastStatusText;
  }

  private readStatus(state: TaskState, parts: Part[] | undefined): RemoteUpdate {
    const changed = state !== this.state;
    this.state = state;
    const said = parts ? textOf(parts) : '';
    if (said) this.lastStatusText = said;
    if (!changed && !said) return {};
    return { status: said ? `${state}: ${said}` : state };
  }
}

/** The text parts of a message or artifact; files and data are named, not shown (the model reads text). */
export function textOf(parts: readonly Part[]): string {
  return parts
    .map((part) => (part.kind === 'text' ? part.text : part.kind === 'file' ? `[file ${part.file.name ?? ''}]`.replace(' ]', ']') : ''))
    .filter((text) => text !== '')
    .join('');
}

type Metadata = Readonly<Record<string, unknown>> | undefined;

function withUsage(...sources: Metadata[]): { usage?: Usage } {
  for (const metadata of sources) {
    const usage = readUsage(metadata);
    if (usage) return { usage };
  }
  return {};
}

/**
 * Token usage in an event's metadata, where A2A servers put it: ours as `usage: {inputTokens,
 * outputTokens}`; Google ADK's and kagent's as `*usage_metadata: {promptTokenCount, candidatesTokenCount}`;
 * OpenAI-style `usage: {prompt_tokens, completion_tokens}`. Each report counts as new spend.
 */
export function readUsage(metadata: Metadata): Usage | undefined {
  if (!metadata) return undefined;
  for (const [key, value] of Object.entries(metadata)) {
    if (!/usage/i.test(key) || typeof value !== 'object' || value === null) continue;
    const fields = value as Record<string, unknown>;
    const input = firstNumber(fields, ['inputTokens', 'input_tokens', 'promptTokenCount', 'prompt_token_count', 'prompt_tokens']);
    const output = firstNumber(fields, ['outputTokens', 'output_tokens', 'candidatesTokenCount', 'candidates_token_count', 'completion_tokens']);
    if (input !== undefined || output !== undefined) return { inputTokens: input ?? 0, outputTokens: output ?? 0 };
  }
  return undefined;
}

function firstNumber(fields: Record<string, unknown>, names: readonly string[]): number | undefined {
  for (const name of names) {
    const value = fields[name];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return Math.floor(value);
  }
  return undefined;
}
