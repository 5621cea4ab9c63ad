/**
 * Finds an OpenAI-compatible server on this machine (Ollama, LM Studio), to offer it when no model is set
 * up. One GET of `<base>/models` per candidate with a short timeout; never at activation, and the caller
 * runs it at most once per activation.
 */

/** Default addresses: Ollama's OpenAI-compatible API, then LM Studio's. */
export const localServerCandidates: readonly string[] = ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:1234/v1'];

export interface LocalServer {
  /** The base URL, e.g. `http://127.0.0.1:11434/v1`. */
  url: string;
  /** Model ids the server listed (possibly none). */
  models: string[];
}

export interface ProbeOptions {
  /** Base URLs to try, in order of preference. Default `localServerCandidates`. */
  candidates?: readonly string[];
  /** How long each request may take. Default 1,500 ms. */
  timeoutMs?: number;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/** The first candidate (in the given order) that answers with a model list; undefined when none does. */
export async function probeLocalServers(options: ProbeOptions = {}): Promise<LocalServer | undefined> {
  const candidates = options.candidates ?? localServerCandidates;
  const results = await Promise.all(candidates.map((url) => probe(url, options.timeoutMs ?? 1_500, options.fetch ?? fetch)));
  return results.find((result) => result !== undefined);
}

async function probe(url: string, timeoutMs: number, fetchFunction: typeof fetch): Promise<LocalServer | undefined> {
  try {
    const response = await fetchFunction(`${url.replace(/\/+$/, '')}/models`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return undefined;
    const models = body.data
      .map((entry: unknown) => (typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined))
      .filter((id): id is string => typeof id === 'string' && id !== '');
    return { url, models };
  } catch {
    // Nothing listening, a timeout, or not an OpenAI-compatible answer: not a server we can offer.
    return undefined;
  }
}
