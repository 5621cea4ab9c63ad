import { certificateProblem } from './certificate-problem.js';
import { RedirectRefused } from './redirect-refused.js';

/**
 * What an SDK's error says, read down its cause chain: the provider's own words, the network's code, a
 * refused redirect or certificate. Kept apart from the mapping (provider-errors.ts) that turns them into
 * messages, since the retry policy asks the same questions.
 */

/**
 * The provider's own words. Anthropic's SDK keeps the whole body (`{type, error: {type, message}}`),
 * OpenAI's keeps `body.error` (`{message, type}`); a non-JSON body ends up in the message after the status.
 */
export function serverMessageOf(error: Error): string {
  const body = (error as Error & { error?: unknown }).error;
  const nested = readMessage(body) ?? readMessage(isRecord(body) ? body.error : undefined);
  const text = nested ?? error.message.replace(/^\d{3}\s+/, '').replace(/^\d{3} status code \(no body\)$/, '');
  return truncate(text.trim(), 300);
}

function readMessage(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  return typeof value.message === 'string' && value.message !== '' ? value.message : undefined;
}

/** The most specific reason in an error's cause chain: `ECONNREFUSED`, `other side closed`, … */
export function networkDetail(error: unknown): string {
  const details: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string' && !details.includes(code)) details.push(code);
    current = current.cause;
  }
  return details.join(', ');
}

/** True when TLS refused the server's certificate: not worth a retry, the same certificate comes back. */
export function isUntrustedCertificate(error: unknown): boolean {
  return certificateProblem(networkDetail(error)) !== undefined;
}

/**
 * True when the transport refused a redirect (`RedirectRefused`, somewhere down the cause chain: the SDK
 * wraps it). Not worth a retry: the server answers the same way again.
 */
export function isRefusedRedirect(error: unknown): boolean {
  return refusedRedirectOf(error) !== undefined;
}

export function refusedRedirectOf(error: unknown): RedirectRefused | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof RedirectRefused) return current;
    current = current.cause;
  }
  return undefined;
}

/** Transport failures (`TypeError: terminated`) and garbled event data, as opposed to our own bugs. */
export function isTransportOrParseFailure(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  if (!(error instanceof Error)) return false;
  if (error.name === 'AbortError') return true;
  return (error instanceof TypeError && (error.message === 'terminated' || error.cause instanceof Error)) || hasNetworkCode(error);
}

function hasNetworkCode(error: Error): boolean {
  return networkDetail(error) !== '';
}

export function errorText(error: unknown): string {
  if (error instanceof SyntaxError) return `unreadable event data: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

export function truncate(text: string, maximum: number): string {
  return text.length <= maximum ? text : `${text.slice(0, maximum - 1)}…`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
