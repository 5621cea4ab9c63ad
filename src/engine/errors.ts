/**
 * One base class for every error the engine raises on purpose, with subclasses by who is at fault, so
 * callers (the CLI's exit code, the sidebar's message, the agent loop's tool results) can act on the kind
 * and show a message a user can act on.
 */
export abstract class AgentTeamError extends Error {
  /** A stable machine-readable code, e.g. `provider-auth`. */
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The user's setup or input is wrong: a missing key, an unknown role, a bad flag. */
export class ConfigurationError extends AgentTeamError {
  readonly code = 'configuration';
}

/** Which model provider an error came from, with the address it used. */
export interface ProviderErrorContext {
  provider: string;
  baseUrl?: string;
  status?: number;
}

/** A model provider failed; `kind` says how, the message says what to do next. */
export class ProviderError extends AgentTeamError {
  readonly code: string;
  readonly provider: string;
  readonly baseUrl?: string;
  readonly status?: number;

  constructor(
    readonly kind: 'auth' | 'rate-limit' | 'server' | 'connection' | 'stream' | 'bad-request',
    message: string,
    context: ProviderErrorContext,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = `provider-${kind}`;
    this.provider = context.provider;
    this.baseUrl = context.baseUrl;
    this.status = context.status;
  }
}

/** The model produced something the engine cannot use (beyond what a tool error result can fix). */
export class ModelBehaviorError extends AgentTeamError {
  readonly code = 'model-behavior';
}

/** A workspace operation was refused: a path outside the root, a sensitive file, a binary file. */
export class WorkspaceError extends AgentTeamError {
  readonly code: string;
  constructor(
    readonly kind: 'outside-workspace' | 'sensitive' | 'not-found' | 'binary' | 'too-large' | 'read-only' | 'conflict' | 'invalid',
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.code = `workspace-${kind}`;
  }
}

/** Work ended because its signal was aborted; `reason` says who stopped it and why. */
export class StoppedError extends AgentTeamError {
  readonly code = 'stopped';
  constructor(readonly reason: StopReason) {
    super(describeStopReason(reason));
  }
}

/** Why a task or run was stopped. Carried as the `AbortSignal`'s reason so every layer can tell. */
export type StopReason =
  | { kind: 'user' }
  | { kind: 'parent-stopped'; parentId: string }
  /** The agent that started it stopped it with the `TaskStop` tool. */
  | { kind: 'stopped-by-agent'; taskId: string }
  | { kind: 'budget'; detail: string }
  | { kind: 'shutdown' }
  | { kind: 'interrupted' };

export function describeStopReason(reason: StopReason): string {
  switch (reason.kind) {
    case 'user':
      return 'stopped by the user';
    case 'parent-stopped':
      return `stopped because its parent task ${reason.parentId} was stopped`;
    case 'stopped-by-agent':
      return `stopped by task ${reason.taskId}, which had started it`;
    case 'budget':
      return `budget exceeded: ${reason.detail}`;
    case 'shutdown':
      return 'stopped because Agent Team shut down';
    case 'interrupted':
      return 'interrupted: it was still running when Agent Team last closed';
  }
}

/** Reads a typed stop reason off an aborted signal; anything else counts as a user stop. */
export function stopReasonOf(signal: AbortSignal): StopReason {
  const reason: unknown = signal.reason;
  if (reason instanceof StoppedError) return reason.reason;
  if (isStopReason(reason)) return reason;
  return { kind: 'user' };
}

export function isStopReason(value: unknown): value is StopReason {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return kind === 'user' || kind === 'parent-stopped' || kind === 'stopped-by-agent' || kind === 'budget' || kind === 'shutdown' || kind === 'interrupted';
}

/** A short, user-facing description of any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
