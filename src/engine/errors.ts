import { type StopReason, describeStopReason, isStopReason } from './stop-reason.js';

export { type StopReason, describeStopReason, isStopReason } from './stop-reason.js';

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

/** Reads a typed stop reason off an aborted signal; anything else counts as a user stop. */
export function stopReasonOf(signal: AbortSignal): StopReason {
  const reason: unknown = signal.reason;
  if (reason instanceof StoppedError) return reason.reason;
  if (isStopReason(reason)) return reason;
  return { kind: 'user' };
}

/** A short, user-facing description of any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
