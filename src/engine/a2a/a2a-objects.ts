/**
 * The A2A 1.0 objects the engine writes and reads, in the SDK's types (protocol buffers' shapes: every field
 * present, parts as a `$case` union, states as numbers). Type-only imports: the client side loads the SDK
 * lazily (its own bundle), so the state numbers are the protocol's own, written out here once.
 */
import type { Artifact, Message, Part, Role, Task, TaskArtifactUpdateEvent, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';

/** The protocol's task states (`TaskState` in a2a.proto), by the names protocol 0.3 gave them. */
export const taskStates = {
  submitted: 1,
  working: 2,
  completed: 3,
  failed: 4,
  canceled: 5,
  'input-required': 6,
  rejected: 7,
  'auth-required': 8,
} as const;

export type TaskStateName = keyof typeof taskStates;

const stateNames = new Map<number, TaskStateName>(Object.entries(taskStates).map(([name, value]) => [value, name as TaskStateName]));

/** The 0.3 name of a state ("working"), or undefined for one the protocol does not define. */
export function stateName(state: TaskState | undefined): TaskStateName | undefined {
  return state === undefined ? undefined : stateNames.get(state);
}

export function stateOf(name: TaskStateName): TaskState {
  return taskStates[name] as TaskState;
}

const roles = { user: 1, agent: 2 } as const;

export function textPart(text: string, metadata?: Record<string, unknown>): Part {
  return { content: { $case: 'text', value: text }, metadata, filename: '', mediaType: '' };
}

/** Structured data (a role's JSON answer) as a part of its own, beside the text that carries the same. */
export function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

export interface MessageFields {
  role: keyof typeof roles;
  parts: Part[];
  messageId: string;
  taskId?: string;
  contextId?: string;
  metadata?: Record<string, unknown>;
}

export function message(fields: MessageFields): Message {
  return {
    messageId: fields.messageId,
    contextId: fields.contextId ?? '',
    taskId: fields.taskId ?? '',
    role: roles[fields.role] as Role,
    parts: fields.parts,
    metadata: fields.metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function task(id: string, contextId: string, state: TaskStateName, history: Message[] = []): Task {
  return {
    id,
    contextId,
    status: { state: stateOf(state), message: undefined, timestamp: new Date().toISOString() },
    artifacts: [],
    history,
    metadata: undefined,
  };
}

export function statusUpdate(
  taskId: string,
  contextId: string,
  state: TaskStateName,
  said?: Message,
  metadata?: Record<string, unknown>,
): TaskStatusUpdateEvent {
  return { taskId, contextId, status: { state: stateOf(state), message: said, timestamp: new Date().toISOString() }, metadata };
}

export interface ArtifactChunk {
  artifactId: string;
  name?: string;
  parts: Part[];
  append: boolean;
  lastChunk: boolean;
  metadata?: Record<string, unknown>;
}

export function artifactUpdate(taskId: string, contextId: string, chunk: ArtifactChunk): TaskArtifactUpdateEvent {
  const artifact: Artifact = {
    artifactId: chunk.artifactId,
    name: chunk.name ?? '',
    description: '',
    parts: chunk.parts,
    metadata: undefined,
    extensions: [],
  };
  return { taskId, contextId, artifact, append: chunk.append, lastChunk: chunk.lastChunk, metadata: chunk.metadata };
}

/**
 * Google ADK's mark on a part that is the agent's thinking or progress, not its answer (`adk_thought`): ADK
 * shows unmarked status text as answer text, so our server marks its progress lines with it.
 */
export const thoughtMetadata = { adk_thought: true } as const;

function isThought(part: Part): boolean {
  return part.metadata?.adk_thought === true;
}

/** The answer's text in an artifact's parts: its thinking left out. */
export function answerTextOf(parts: readonly Part[] | undefined): string {
  return textOf((parts ?? []).filter((part) => !isThought(part)));
}

/** The text parts of a message or artifact; files and data are named, not shown (the model reads text). */
export function textOf(parts: readonly Part[] | undefined): string {
  return (parts ?? [])
    .map((part) => {
      const content = part.content;
      if (content?.$case === 'text') return content.value;
      if (content?.$case === 'url' || content?.$case === 'raw') return part.filename ? `[file ${part.filename}]` : '[file]';
      return '';
    })
    .filter((text) => text !== '')
    .join('');
}
