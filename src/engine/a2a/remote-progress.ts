/**
 * What a remote agent has sent so far, read from the A2A stream's events (in protocol 1.0's shapes; the
 * SDK translates a 0.3 agent's events into them): its task id, its state, its artifacts (the answer), the
 * text of its status messages, and any token usage in metadata. Pure bookkeeping, no I/O, so each rule is
 * testable on its own; `remote-task-work.ts` feeds the task.
 */
import type { Part, StreamResponse } from '@a2a-js/sdk';
import type { Usage } from '../model/types.js';
import { answerTextOf, stateName, type TaskStateName, textOf } from './a2a-objects.js';

export type RemoteEvent = StreamResponse;

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
const finalStates: ReadonlySet<TaskStateName> = new Set(['completed', 'failed', 'canceled', 'rejected']);
/** States in which the remote waits for something a subagent cannot give (an answer, a login). */
const blockedStates: ReadonlySet<TaskStateName> = new Set(['input-required', 'auth-required']);

export class RemoteProgress {
  taskId?: string;
  contextId?: string;
  state?: TaskStateName;
  /** The remote's own words with its last status (why it failed, what it asks). */
  lastStatusText = '';
  /** An answer sent as a message instead of a task (a remote with no task lifecycle). */
  private directAnswer?: string;
  /** Artifacts by id, in the order they first came; their text is the answer. */
  private readonly artifacts = new Map<string, string>();
  /** Artifacts whose last chunk so far said more would come. */
  private readonly unfinished = new Set<string>();

  /**
   * `appendLost`: the events come through a translation that drops `append` (the SDK's 0.3 HTTP+JSON
   * client, as of 1.3, leaves it out of every artifact update). Then a chunk that follows an unfinished
   * one and does not repeat it is taken as appended, the only reading under which a streamed answer survives.
   */
  constructor(private readonly appendLost = false) {}

  /** Reads one event; returns what the local task should show of it. */
  read(event: RemoteEvent): RemoteUpdate {
    const payload = event.payload;
    switch (payload?.$case) {
      case 'message': {
        this.directAnswer = answerTextOf(payload.value.parts);
        this.state = 'completed';
        return { ...withUsage(payload.value.metadata), ...(this.directAnswer ? { text: this.directAnswer } : {}) };
      }
      case 'task': {
        const task = payload.value;
        this.taskId = task.id || this.taskId;
        this.contextId = task.contextId || this.contextId;
        for (const artifact of task.artifacts ?? []) this.artifacts.set(artifact.artifactId, answerTextOf(artifact.parts));
        return { ...this.readStatus(stateName(task.status?.state), task.status?.message?.parts), ...withUsage(task.metadata) };
      }
      case 'statusUpdate': {
        const update = payload.value;
        this.taskId = update.taskId || this.taskId;
        this.contextId = update.contextId || this.contextId;
        return {
          ...this.readStatus(stateName(update.status?.state), update.status?.message?.parts),
          ...withUsage(update.metadata, update.status?.message?.metadata),
        };
      }
      case 'artifactUpdate': {
        const update = payload.value;
        this.taskId = update.taskId || this.taskId;
        const artifact = update.artifact;
        if (!artifact) return withUsage(update.metadata);
        const id = artifact.artifactId;
        const chunk = answerTextOf(artifact.parts);
        const earlier = this.artifacts.get(id);
        const append = update.append || (this.appendLost && earlier !== undefined && this.unfinished.has(id) && !chunk.startsWith(earlier));
        if (update.lastChunk) this.unfinished.delete(id);
        else this.unfinished.add(id);
        // A chunk appended streams as it comes; a whole artifact that repeats what was streamed adds only
        // what is new (Google ADK ends an answer with the whole text again).
        const streamed =
          append && earlier !== undefined
            ? chunk
            : earlier === undefined
              ? chunk
              : chunk.startsWith(earlier)
                ? chunk.slice(earlier.length)
                : '';
        this.artifacts.set(id, append && earlier !== undefined ? earlier + chunk : chunk);
        return { ...(streamed ? { text: streamed } : {}), ...withUsage(update.metadata, artifact.metadata) };
      }
      default:
        return {};
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

  private readStatus(state: TaskStateName | undefined, parts: Part[] | undefined): RemoteUpdate {
    if (state === undefined) return {};
    const changed = state !== this.state;
    this.state = state;
    const said = parts ? textOf(parts) : '';
    if (said) this.lastStatusText = said;
    if (!changed && !said) return {};
    return { status: said ? `${state}: ${said}` : state };
  }
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
 * outputTokens}`; Google ADK's (and similar agents') as `*usage_metadata: {promptTokenCount, candidatesTokenCount}`;
 * OpenAI-style `usage: {prompt_tokens, completion_tokens}`. Each report counts as new spend; an event
 * that carries it under two names (ours and ADK's) counts once.
 */
export function readUsage(metadata: Metadata): Usage | undefined {
  if (!metadata) return undefined;
  for (const [key, value] of Object.entries(metadata)) {
    if (!/usage/i.test(key) || typeof value !== 'object' || value === null) continue;
    const fields = value as Record<string, unknown>;
    const input = firstNumber(fields, ['inputTokens', 'input_tokens', 'promptTokenCount', 'prompt_token_count', 'prompt_tokens']);
    const output = firstNumber(fields, [
      'outputTokens',
      'output_tokens',
      'candidatesTokenCount',
      'candidates_token_count',
      'completion_tokens',
    ]);
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
