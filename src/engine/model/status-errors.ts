import { ProviderError, type ProviderErrorContext } from '../errors.js';
import { attempts, contextOf, formatSeconds, type ProviderFailureContext } from './provider-failure-context.js';
import type { ResponseTimeout } from './response-timeout.js';

/** The provider's errors that a status, a timeout or a cut stream become: what to do next, in words. */

/** The provider did not start answering in time, or went quiet mid-response; the request was closed. */
export function timeoutError(timeout: ResponseTimeout, context: ProviderFailureContext, label: string): ProviderError {
  const waited = formatSeconds(timeout.timeoutMs);
  const message =
    timeout.phase === 'response-start'
      ? `${label} did not start answering within ${waited} (${attempts(context)}), so the request was closed. Check the server at ${context.baseUrl}, or raise the request timeout.`
      : `${label} stopped sending: nothing arrived for ${waited} after the response had started (${attempts(context)}), so the request was closed. Try again, or raise the idle timeout.`;
  return new ProviderError('timeout', message, contextOf(context), { cause: timeout });
}

export function fromStatus(
  status: number,
  serverMessage: string,
  context: ProviderFailureContext,
  label: string,
  cause: Error,
): ProviderError {
  const errorContext = contextOf(context, status);
  const said = serverMessage ? `: ${serverMessage}` : '';
  const keyHelp = `Set ${context.apiKeyVariable}, or run "Agent Team: Set API Key" in VS Code`;
  if (status === 401) {
    return new ProviderError('auth', `${label} rejected the API key (401)${said}. ${keyHelp}.`, errorContext, { cause });
  }
  if (status === 403) {
    return new ProviderError(
      'auth',
      `${label} refused access (403)${said}. Check that the API key is allowed to use model "${context.modelId}". ${keyHelp}.`,
      errorContext,
      { cause },
    );
  }
  if (status === 429) {
    return new ProviderError(
      'rate-limit',
      `${label} rate limited the request (429, ${attempts(context)})${said}. Try again later, or run fewer tasks at once.`,
      errorContext,
      { cause },
    );
  }
  if (status >= 500) {
    const server = context.officialBaseUrl ? `${label}'s server` : label;
    return new ProviderError('server', `${server} failed (${status}, ${attempts(context)})${said}. Try again later.`, errorContext, {
      cause,
    });
  }
  if (status === 404) {
    return new ProviderError(
      'bad-request',
      `${label} has no such model or endpoint (404)${said}. Check the model id "${context.modelId}" and the base URL ${context.baseUrl}.`,
      errorContext,
      { cause },
    );
  }
  return new ProviderError('bad-request', `${label} rejected the request (${status})${said}`, errorContext, { cause });
}

export function streamCut(label: string, detail: string, errorContext: ProviderErrorContext, cause?: unknown): ProviderError {
  return new ProviderError(
    'stream',
    `the stream from ${label} ended before the response was complete (${detail}); try again`,
    errorContext,
    cause === undefined ? undefined : { cause },
  );
}
