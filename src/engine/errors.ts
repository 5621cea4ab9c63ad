import { redactedErrorCopy, redactSecrets } from './secrets.js';
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
  /**
   * The class's name, written out by each class: a minified build renames classes, so `new.target.name`
   * would show users and traces (`error.type`) a letter instead.
   */
  abstract override readonly name: string;
}

/** The user's setup or input is wrong: a missing key, an unknown role, a bad flag. */
export class ConfigurationError extends AgentTeamError {
  override readonly name: string = 'ConfigurationError';
  readonly code = 'configuration';
}

/** Which model provider an error came from, with the address it used. */
export interface ProviderErrorContext {
  provider: string;
  baseUrl?: string;
  status?: number;
  /**
   * Values to keep out of the message and the cause (the API keys the request used). Key-shaped values
   * (`sk-ant-…`, `Bearer …`) are redacted whether listed or not. Never stored on the error.
   */
  secrets?: readonly string[];
}

/**
 * How a provider failed. `timeout`: the provider did not start answering in time, or stopped sending
 * mid-response; `stream`: the response was cut or garbled.
 */
export type ProviderErrorKind = 'auth' | 'rate-limit' | 'server' | 'connection' | 'timeout' | 'stream' | 'bad-request';

/**
 * A model provider failed; `kind` says how, the message says what to do next. Provider responses end up
 * in the message (the provider's own words help), so the message is redacted here, and the cause is kept
 * only as a redacted copy: an SDK error holds the raw body and headers, and whoever logs this error with
 * its cause chain must not print a key the body echoed.
 */
export class ProviderError extends AgentTeamError {
  override readonly name: string = 'ProviderError';
  readonly code: string;
  readonly provider: string;
  readonly baseUrl?: string;
  readonly status?: number;

  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    context: ProviderErrorContext,
    options?: { cause?: unknown },
  ) {
    const secrets = context.secrets ?? [];
    const cause = options?.cause === undefined ? undefined : { cause: redactedErrorCopy(options.cause, secrets) };
    super(redactSecrets(message, secrets), cause);
    this.code = `provider-${kind}`;
    this.provider = context.provider;
    this.baseUrl = context.baseUrl === undefined ? undefined : redactSecrets(context.baseUrl, secrets);
    this.status = context.status;
  }
}

/** The model produced something the engine cannot use (beyond what a tool error result can fix). */
export class ModelBehaviorError extends AgentTeamError {
  override readonly name: string = 'ModelBehaviorError';
  readonly code = 'model-behavior';
}

/** A workspace operation was refused: a path outside the root, a sensitive file, a binary file. */
export class WorkspaceError extends AgentTeamError {
  override readonly name: string = 'WorkspaceError';
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
  override readonly name: string = 'StoppedError';
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
