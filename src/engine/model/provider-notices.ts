/**
 * The Anthropic SDK prints its notices (a deprecated model, a deprecated `thinking` type) with
 * `console.warn` at the start of every request: five requests, five two-line copies on stderr, around
 * the run's own output and with no option to turn them off (the client's `logger`/`logLevel` do not
 * govern them). So each request is made with those notices caught, and each becomes one warning of ours
 * per run: said once, in our words, through the run's own channel.
 */

/** Where a provider's notices go, e.g. the CLI's stderr or the extension's log. Each distinct notice once. */
export type ProviderNoticeSink = (notice: string) => void;

/**
 * Runs `call` (the SDK's synchronous request start) with `console.warn` redirected to `onNotice`. The swap
 * lasts only while `call` runs, which is synchronous: nothing else can print in between.
 */
export function catchingSdkNotices<Result>(call: () => Result, onNotice: (printed: string) => void): Result {
  const original = console.warn;
  console.warn = (...parts: unknown[]) => onNotice(parts.map(String).join(' '));
  try {
    return call();
  } finally {
    console.warn = original;
  }
}

/** Our words for what the SDK printed: the deprecation with its date and what to do; anything else as it came. */
export function describeSdkNotice(provider: string, printed: string): string {
  const deprecated = /The model '([^']+)' is deprecated and will reach end-of-life on ([^\n]+)/.exec(printed);
  if (deprecated) {
    return `${provider}/${deprecated[1]} is deprecated and reaches end of life on ${deprecated[2].trim()}: name a newer model (agent-team models lists the defaults; in VS Code, Agent Team: Select Model).`;
  }
  return `the ${provider} SDK says: ${printed.replace(/\s+/g, ' ').trim()}`;
}

/** A sink that passes on each distinct notice once, for the life of a run (or an extension session). */
export function onceEach(sink: ProviderNoticeSink): ProviderNoticeSink {
  const said = new Set<string>();
  return (notice) => {
    if (said.has(notice)) return;
    said.add(notice);
    sink(notice);
  };
}
