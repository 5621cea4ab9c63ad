/**
 * Keeps secrets out of text the engine creates from what others sent it: a provider's error body that
 * echoes the API key would otherwise reach task events, the terminal, the task history and the next
 * request to the model. Redaction happens where such text becomes an error (provider-errors.ts, and the
 * `ProviderError` constructor as a second net), so every consumer downstream is covered.
 *
 * Two nets: the values the caller knows are secret (the configured API keys), replaced wherever they
 * appear, as themselves and in their common encodings (base64, hex, URL-encoded, reversed:
 * secret-encodings.ts); and well-known key shapes, for keys the engine was never told about (another
 * provider's key, a key a proxy added). A guard against accidents, not against a determined command: a
 * program can always encode a key in a way no matcher knows; the sandbox, which never gives commands the
 * keys, is the guard there.
 */
import { type CompiledSecrets, compileSecrets, redactBase64Runs } from './secret-encodings.js';

/** What a secret is replaced with. */
export const redactionMarker = '[redacted]';

/**
 * Shorter values are not redacted by value, nor by their encodings: no real API key is this short, and
 * replacing every "abc" (or its hex) in a message would garble it. Such values are still caught by the
 * shape patterns if they look like keys.
 */
export const minimumSecretLength = 8;

/** Each pattern's first group (when it has one) is kept: the label before the secret. */
const keyShapes: readonly RegExp[] = [
  // Credentials in a URL: https://user:password@host
  /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]+(?=@)/gi,
  // Anthropic (sk-ant-…) and OpenAI (sk-…, sk-proj-…) keys.
  /()\bsk-[A-Za-z0-9_-]{16,}/g,
  // Authorization header values.
  /(\b(?:Bearer|Basic)\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  /(\bauthorization["']?\s*[:=]\s*["']?)(?!(?:Bearer|Basic)\s)[^\s"',;]{8,}/gi,
  // Labelled values: x-api-key: …, api_key=…, "apiKey": "…", aws_secret_access_key = …
  /(\b(?:x-api-key|api[_-]?key|access[_-]?token|auth[_-]?token|session[_-]?token|client[_-]?secret|(?:aws[_-]?)?secret[_-]?access[_-]?key|password)["']?\s*[:=]\s*["']?)[^\s"'&,;)}\]]+/gi,
  // Query parameters that carry keys: ?key=…, &token=…
  /([?&](?:key|token|sig|signature)=)[^&\s#"']+/gi,
  // AWS access key ids.
  /()\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b/g,
  // Google API keys and GitHub tokens.
  /()\bAIza[0-9A-Za-z_-]{35}\b/g,
  /()\bgh[pousr]_[A-Za-z0-9]{36,}\b/g,
];

/**
 * The known secrets in the form `redactSecrets` wants: trimmed, long enough, without duplicates, longest
 * first (so a key that contains another is replaced whole). Undefined and empty values are skipped.
 */
export function secretValues(values: Iterable<string | undefined>): string[] {
  const unique = new Set<string>();
  for (const value of values) {
    const trimmed = value?.trim();
    if (trimmed === undefined || trimmed.length < minimumSecretLength) continue;
    unique.add(trimmed);
    // A key can travel URL-encoded (a query parameter, a proxy's echo of the request line).
    const encoded = encodeURIComponent(trimmed);
    if (encoded !== trimmed) unique.add(encoded);
  }
  return [...unique].sort((a, b) => b.length - a.length);
}

/**
 * `text` with every known secret replaced by `[redacted]`, and nothing else: for what agents read (a
 * file's `password = "…"` must stay editable), where only the values the user configured are secrets.
 */
export function redactKnownSecrets(text: string, knownSecrets: readonly string[]): string {
  if (knownSecrets.length === 0) return text;
  const compiled = compiledFor(knownSecrets);
  if (compiled.anyForm === undefined || !compiled.anyForm.test(text)) return text;
  let result = text;
  for (const needle of compiled.exact) {
    if (result.includes(needle)) result = result.split(needle).join(redactionMarker);
  }
  return compiled.base64Cores.length === 0 ? result : redactBase64Runs(result, compiled.base64Cores, redactionMarker);
}

/**
 * The last set of secrets compiled, by its values: callers ask with a fresh array each time (the set can
 * change during a run, as remote roles' tokens are added), and the same values most of the time.
 */
let lastCompiled: { key: string; compiled: CompiledSecrets } | undefined;

function compiledFor(knownSecrets: readonly string[]): CompiledSecrets {
  const values = knownSecrets.filter((secret) => secret.length >= minimumSecretLength);
  const key = values.join('\n');
  if (lastCompiled?.key !== key) lastCompiled = { key, compiled: compileSecrets(values) };
  return lastCompiled.compiled;
}

/** `text` with every known secret and every key-shaped value replaced by `[redacted]`. */
export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  let result = redactKnownSecrets(text, knownSecrets);
  for (const pattern of keyShapes) {
    // Every pattern has exactly one group, so the offset and the whole text come next.
    result = result.replace(pattern, (match: string, label: string | undefined, offset: number, whole: string) => {
      const kept = label ?? '';
      // A value the first net already replaced stays as it is.
      return whole.startsWith(redactionMarker, offset + kept.length) ? match : `${kept}${redactionMarker}`;
    });
  }
  return result;
}

/** How deep a cause chain is copied; deeper causes are dropped. */
const maximumCauseDepth = 5;

/**
 * A copy of an error that is safe to keep as a `cause`: the same name, a redacted message and stack, the
 * `code` and `status` (for diagnosis: `ECONNREFUSED`, 503), and a copied cause chain. Nothing else: an SDK
 * error carries the raw response body and headers, which may hold the key, and `util.inspect` (a logged
 * error) or a careless serializer would print them.
 */
export function redactedErrorCopy(error: unknown, knownSecrets: readonly string[] = [], depth = 0): Error {
  if (!(error instanceof Error)) return new RedactedError('Error', redactSecrets(String(error), knownSecrets));
  const cause =
    error.cause !== undefined && depth < maximumCauseDepth ? redactedErrorCopy(error.cause, knownSecrets, depth + 1) : undefined;
  const copy = new RedactedError(error.name, redactSecrets(error.message, knownSecrets), cause === undefined ? undefined : { cause });
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') copy.code = typeof code === 'string' ? redactSecrets(code, knownSecrets) : code;
  const status = (error as Error & { status?: unknown }).status;
  if (typeof status === 'number') copy.status = status;
  copy.stack = error.stack === undefined ? undefined : redactSecrets(error.stack, knownSecrets);
  return copy;
}

/** The class of `redactedErrorCopy`'s copies; it keeps the original's name. */
export class RedactedError extends Error {
  code?: string | number;
  status?: number;

  constructor(name: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = name;
  }
}

/**
 * Redacts an error the engine passes on unchanged (a bug it wants seen, not mapped): its message, its
 * stack and its cause chain, in place, so the error keeps its identity and class.
 */
export function redactErrorInPlace(error: unknown, knownSecrets: readonly string[] = []): void {
  if (!(error instanceof Error)) return;
  error.message = redactSecrets(error.message, knownSecrets);
  if (error.stack !== undefined) error.stack = redactSecrets(error.stack, knownSecrets);
  if (error.cause !== undefined) error.cause = redactedErrorCopy(error.cause, knownSecrets);
}
