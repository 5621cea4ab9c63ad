/**
 * How many tokens each model's context window holds: the list of `model-context-windows.json` (beside the
 * price list, dated), over which the user's own figures win (`agentTeam.modelContextWindows`), over which
 * a run's `--context-window` wins for every model of that run. A model with no known window has no meter
 * and is never compacted ahead of time; a context-length error from its provider still compacts, and the
 * window that error names is used from then on (context-length-error.ts).
 */
import table from './model-context-windows.json';

/** The date of the list, for the docs. */
export const listContextWindowsAsOf: string = table.asOf;

/** The user's windows, by `provider/model`: each entry checked, a bad one named and left out. */
export function parseContextWindows(value: unknown, source: string): { windows: Record<string, number>; problems: string[] } {
  const windows: Record<string, number> = {};
  const problems: string[] = [];
  if (value === undefined || value === null) return { windows, problems };
  if (typeof value !== 'object' || Array.isArray(value))
    return { windows, problems: [`${source}: not an object of "provider/model": tokens`] };
  for (const [model, tokens] of Object.entries(value as Record<string, unknown>)) {
    if (!model.includes('/')) problems.push(`${source}: "${model}" is not "provider/model" (e.g. "openai/gpt-5"); ignored`);
    else if (!isWindow(tokens))
      problems.push(`${source}: the window of "${model}" must be a whole number of tokens from 1,000 on; ignored`);
    else windows[model] = tokens;
  }
  return { windows, problems };
}

/** A context window worth the name: a whole number of tokens, at least 1,000 (a summary must fit in it). */
export function isWindow(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1000;
}

export class ContextWindowTable {
  private readonly known: ReadonlyMap<string, number>;

  /**
   * `overrides`: the user's windows, which win over the list. `everyModel`: one window for every model
   * (the CLI's `--context-window`), which wins over both. Default: none.
   */
  constructor(
    overrides: Readonly<Record<string, number>> = {},
    private readonly everyModel?: number,
  ) {
    this.known = new Map([...Object.entries(table.windows as Record<string, number>), ...Object.entries(overrides)]);
  }

  /**
   * The window of `provider/model`: its own entry, else the longest entry it is a dated version of
   * (`claude-sonnet-4-5-20250929` is `claude-sonnet-4-5`; `gpt-5-mini` is never `gpt-5`'s), as prices match.
   */
  windowOf(model: string | undefined): number | undefined {
    if (this.everyModel !== undefined) return this.everyModel;
    if (model === undefined) return undefined;
    const exact = this.known.get(model);
    if (exact !== undefined) return exact;
    let best: string | undefined;
    for (const key of this.known.keys()) {
      if (model.startsWith(`${key}-`) && /^-\d/.test(model.slice(key.length)) && (best === undefined || key.length > best.length))
        best = key;
    }
    return best === undefined ? undefined : this.known.get(best);
  }
}
