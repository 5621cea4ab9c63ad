/** A provider's server answered with a redirect, which the transport does not follow (`nodeHttpFetch`). */
import { AgentTeamError } from '../errors.js';
export class RedirectRefused extends AgentTeamError {
  override readonly name: string = 'RedirectRefused';
  readonly code = 'redirect-refused';
  readonly status: number;
  /** Where the redirect pointed (see `redirectTarget`), when it named a place. */
  readonly target: string | undefined;
  constructor(url: URL, status: number, location: string | undefined) {
    const target = location ? redirectTarget(location, url) : undefined;
    super(`${url.origin} answered ${status}, a redirect${target ? ` to ${target}` : ''}, which is not followed`);
    this.status = status;
    this.target = target;
  }
}

/**
 * Where a redirect pointed: its origin, with the path when it stays on the same server (a missing `/v1` or
 * slash is the usual cause there); never the query, which may carry a token, nor another site's path.
 */
function redirectTarget(location: string, base: URL): string | undefined {
  try {
    const target = new URL(location, base);
    return target.origin === base.origin ? `${target.origin}${target.pathname}` : target.origin;
  } catch {
    return undefined;
  }
}
