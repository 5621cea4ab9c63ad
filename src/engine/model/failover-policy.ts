/**
 * Which failures move a task on to its next model (`FailoverModel`): an outage of the model, seen after
 * the provider stream's own retries. A failure the user must fix (a key, a permission, a request the API
 * refuses, a model id it does not know, a certificate or a redirect) fails the same on any model of the
 * provider, and hiding it behind a fallback would only bill another model for the same mistake.
 */
import { ProviderError } from '../errors.js';
import { isUntrustedCertificate } from './error-causes.js';

/**
 * True for an outage: a 5xx (529 overloaded included) or the provider's in-stream error, a refused or cut
 * connection, a timeout (408 too), a stream cut short, and a 429 (rate limits are per model, and one the
 * provider wants waited out longer than the engine waits is as good as down). False for everything else:
 * 400, 401, 403, 404, 413, …, a stop, and errors that are not the provider's (bugs, to be seen).
 */
export function isOutage(error: unknown): boolean {
  if (!(error instanceof ProviderError)) return false;
  switch (error.kind) {
    case 'server':
    case 'timeout':
    case 'stream':
    case 'rate-limit':
      return true;
    case 'connection':
      // The same certificate comes back whichever model is asked for. (A refused redirect is a `bad-request`.)
      return !isUntrustedCertificate(error.cause);
    case 'bad-request':
      return error.status === 408;
    case 'auth':
      return false;
  }
}
