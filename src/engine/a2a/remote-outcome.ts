/**
 * What a remote exchange's end means for the local task, in words: the error for an answer that ended
 * without finishing the task, and for a failure on the way. Every error after the card was read names what
 * the card offered and what we tried.
 */
import { RemoteAgentError } from './remote-agent-error.js';
import { describeChoice } from './remote-card.js';
import type { Negotiated } from './remote-connect.js';
import { describeRemoteFailure } from './remote-failure.js';
import type { RemoteProgress } from './remote-progress.js';

export interface ExchangeFacts {
  role: string;
  /** How the agent is named in messages (displayAddress). */
  address: string;
  secrets: readonly string[];
  progress: RemoteProgress;
  negotiated: Negotiated | undefined;
}

/** The error for an answer that ended in any state but `completed`. */
export function unfinishedError(facts: ExchangeFacts): RemoteAgentError {
  const { progress, secrets } = facts;
  const said = progress.lastStatusText ? `: ${progress.lastStatusText}` : '';
  const agent = `The remote agent for '${facts.role}' at ${facts.address}`;
  if (progress.blocked) {
    const wanted = progress.state === 'auth-required' ? 'authentication' : 'input';
    return new RemoteAgentError('blocked', `${agent} asked for ${wanted}, which a subagent cannot give${said}`, secrets);
  }
  if (progress.state === 'canceled') return new RemoteAgentError('failed', `${agent} cancelled the task${said}`, secrets);
  if (progress.state === 'failed' || progress.state === 'rejected') {
    const what = progress.state === 'failed' ? 'failed' : 'rejected the task';
    return new RemoteAgentError('failed', `${agent} ${what}${said}`, secrets);
  }
  return new RemoteAgentError(
    'protocol',
    `${agent} ended its answer without finishing the task (last state: ${progress.state ?? 'none'})${triedText(facts.negotiated)}`,
    secrets,
  );
}

/** The error for a failure on the way; `silentForMs` is set when the silence timer ended the request. */
export function exchangeFailure(error: unknown, facts: ExchangeFacts, silentForMs: number | undefined): RemoteAgentError {
  const timedOut = silentForMs !== undefined;
  const what = describeRemoteFailure(error, silentForMs, facts.secrets);
  if (error instanceof RemoteAgentError) return error;
  const { negotiated, progress } = facts;
  const stage = progress.taskId ? 'stopped answering' : negotiated ? 'did not take the task' : 'could not be reached';
  const hint = negotiated && !progress.taskId && !timedOut ? versionHint(what) : '';
  return new RemoteAgentError(
    timedOut ? 'timeout' : negotiated ? 'protocol' : 'unreachable',
    `The remote agent for '${facts.role}' at ${facts.address} ${stage}: ${what}${hint}${triedText(negotiated)}`,
    facts.secrets,
  );
}

/** For an error after the card was read: what it offered and what we tried. */
function triedText(negotiated: Negotiated | undefined): string {
  if (!negotiated?.chosen) return '';
  return `. Its card offers: ${negotiated.offered}; tried ${describeChoice(negotiated.chosen)}`;
}

/**
 * An agent whose card names one protocol version and that speaks another answers the first request with
 * "method not found", a 404, or a body that is not the stream asked for: said so, since the raw error does not.
 */
function versionHint(what: string): string {
  return /method not found|-32601|\b404\b|content-type|not a valid|unexpected token/i.test(what)
    ? ' (the agent may speak another protocol version than its card offers)'
    : '';
}
