import { type AgentTeamError, ProviderError, StoppedError, stopReasonOf } from '../errors.js';
import { redactErrorInPlace } from '../secrets.js';
import { certificateProblem } from './certificate-problem.js';
import { ContextLengthError, contextLengthOf } from './context-length-error.js';
import { errorText, isTransportOrParseFailure, networkDetail, refusedRedirectOf, serverMessageOf } from './error-causes.js';
import { contextOf, formatSeconds, attempts, providerLabel, type ProviderFailureContext } from './provider-failure-context.js';
import { fromStatus, streamCut, timeoutError } from './status-errors.js';
import { ResponseTimeout } from './response-timeout.js';

/**
 * Turns whatever an SDK call threw into an error a user can act on. Both SDKs are generated from the same
 * template (Stainless), so one mapping serves both: each adapter hands over its SDK's error classes.
 */

/**
 * Maps a failure of one model request. `phase` says where it happened: `request` (before the response
 * started streaming) or `stream` (while reading it, where any transport failure means the stream was cut).
 * Errors that did not come from the SDK or the network are returned unchanged: they are bugs to see.
 */
export function toProviderFailure(error: unknown, phase: 'request' | 'stream', context: ProviderFailureContext): unknown {
  if (context.signal.aborted) return new StoppedError(stopReasonOf(context.signal));
  if (error instanceof ProviderError || error instanceof StoppedError) return error;
  const classes = context.errorClasses;
  const label = providerLabel(context);
  const errorContext = contextOf(context);

  if (error instanceof ResponseTimeout) return timeoutError(error, context, label);
  if (error instanceof classes.APIUserAbortError) {
    // The SDK saw an abort that was not ours (a closed client); treat it as a cut connection.
    return streamCut(label, 'the request was aborted', errorContext, error);
  }
  if (error instanceof classes.APIConnectionTimeoutError) {
    const after = context.timeoutMs === undefined ? '' : ` after ${formatSeconds(context.timeoutMs)}`;
    return new ProviderError(
      'connection',
      `the request to ${context.baseUrl} timed out${after} (${attempts(context)}); check the network or raise the timeout`,
      errorContext,
      { cause: error },
    );
  }
  const redirect = error instanceof classes.APIConnectionError ? refusedRedirectOf(error) : undefined;
  if (redirect) {
    const where = redirect.target ? `: it points to ${redirect.target}` : ' (open it in a browser to see where)';
    return new ProviderError(
      'bad-request',
      `${context.baseUrl} answered with a redirect, which Agent Team does not follow: it would send the API key on to wherever it points. Set the base URL to the address the server redirects to${where}.`,
      errorContext,
      { cause: error },
    );
  }
  if (error instanceof classes.APIConnectionError) {
    const detail = networkDetail(error);
    const refusedCertificate = certificateProblem(detail);
    if (refusedCertificate) {
      return new ProviderError('connection', `cannot connect to ${context.baseUrl}: ${refusedCertificate}`, errorContext, { cause: error });
    }
    return new ProviderError(
      'connection',
      `cannot connect to ${context.baseUrl} (is the server running?${detail ? ` ${detail}` : ''})`,
      errorContext,
      { cause: error },
    );
  }
  if (error instanceof classes.APIError) {
    const status = (error as Error & { status?: unknown }).status;
    if (typeof status === 'number') {
      const serverMessage = serverMessageOf(error);
      const sizes = contextLengthOf(status, serverMessage, (error as Error & { error?: unknown }).error);
      if (sizes)
        return new ContextLengthError(
          `the conversation no longer fits the context window of ${context.modelId} (${status}): ${serverMessage}`,
          contextOf(context, status),
          sizes.usedTokens,
          sizes.windowTokens,
          { cause: error },
        );
      return fromStatus(status, serverMessage, context, label, error);
    }
    // An error event inside the stream: the provider gave up mid-response.
    return new ProviderError(
      'server',
      `${label} reported an error during the response: ${serverMessageOf(error)}; try again`,
      errorContext,
      {
        cause: error,
      },
    );
  }
  if (phase === 'stream' && isTransportOrParseFailure(error)) {
    const code = networkDetail(error);
    return streamCut(label, code ? `the connection was cut: ${code}` : errorText(error), errorContext, error);
  }
  // Left unchanged so the bug is seen, but without a key it may quote.
  redactErrorInPlace(error, context.secrets);
  return error;
}

/** The failure for a stream that ended cleanly but without the provider's end-of-response marker. */
export function incompleteStreamError(context: ProviderFailureContext, detail: string): AgentTeamError {
  if (context.signal.aborted) return new StoppedError(stopReasonOf(context.signal));
  return streamCut(providerLabel(context), detail, contextOf(context));
}
