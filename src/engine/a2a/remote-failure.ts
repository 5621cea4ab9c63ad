/**
 * Readable words for what went wrong between us and a remote agent. `fetch` says only "fetch failed" and
 * hides the reason (refused, unknown host, reset) in its cause chain; the SDK says "HTTP error … 401". A
 * user needs the reason and what to check, and never the token: everything is redacted on the way out.
 */
import { errorMessage } from '../errors.js';
import { redactSecrets } from '../secrets.js';

/** What network error codes mean, in the words a user can act on. */
const networkReasons: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused (is the agent running, and is the port right?)',
  ENOTFOUND: 'the host name is unknown',
  EAI_AGAIN: 'the host name could not be looked up',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed and not trusted',
};

/** An address as it may be shown: no user info and no query (either could hold a credential). */
export function displayAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(an invalid address)';
  }
}

/**
 * One line saying why an exchange failed. `silenceMs`: set when the engine's own timeout ended it, which
 * then is the reason, whatever the aborted request threw.
 */
export function describeRemoteFailure(error: unknown, silenceMs: number | undefined, secrets: readonly string[]): string {
  if (silenceMs !== undefined) return `no answer within ${Math.round(silenceMs / 1000)} s`;
  const code = networkCode(error);
  if (code && networkReasons[code]) return networkReasons[code];
  const message = errorMessage(error);
  const status = /\b(401|403)\b/.exec(message);
  if (status) return `it refused the request (${status[1]}): check the token in the variable its role names with 'a2a_auth_env'`;
  if (/\b404\b/.test(message)) return `nothing answers there (404): check 'a2a_url' (${oneLine(message, secrets)})`;
  if (error instanceof SyntaxError) return `it did not answer as an A2A agent (${oneLine(message, secrets)})`;
  return oneLine(code ? `${message} (${code})` : message, secrets);
}

function networkCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function oneLine(text: string, secrets: readonly string[]): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return redactSecrets(line.length > 300 ? `${line.slice(0, 300)}…` : line, secrets);
}

/** Why a silent remote's request was ended (the abort reason the HTTP client reports). */
export function noAnswerWithin(silentMs: number): Error {
  return new Error(`no answer within ${Math.round(silentMs / 1000)} s`);
}
