import type * as Re2Module from 're2js';

/**
 * The linear-time regex engine (re2js, a pure-JavaScript port of RE2) that every pattern a model writes
 * runs on: Grep's regexes on the JavaScript paths, and Glob's and Grep's globs. V8's backtracking
 * `RegExp` can take exponential time on patterns such as `(a+)+$`, and a match cannot be interrupted, so
 * one such call would freeze the process (Ctrl-C and tool timeouts included). RE2 needs time linear in
 * the input, and its syntax is the one ripgrep uses.
 *
 * Loaded on first use: the builds put it in a vendor bundle of its own (scripts/vendor-bundles.mjs), so
 * activating the extension does not pay for its Unicode tables.
 */
export type Re2 = typeof Re2Module.RE2JS;
export type CompiledRe2 = Re2Module.RE2JS;

let loading: Promise<Re2> | undefined;

export function loadRe2(): Promise<Re2> {
  loading ??= import('re2js').then((loaded) => {
    // Imported from the CommonJS vendor bundle, the named exports may sit under `default`.
    const module = loaded as typeof Re2Module & { default?: typeof Re2Module };
    return module.RE2JS ?? module.default!.RE2JS;
  });
  return loading;
}

/** The message of an error re2js threw, without its generic "error parsing regexp: " prefix. */
export function re2ErrorDetail(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^error parsing regexp:\s*/, '');
}
