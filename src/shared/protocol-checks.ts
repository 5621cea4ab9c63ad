/**
 * The verdict of the repository's own checks on a run's proposals, as the sidebar receives it (issue 40):
 * per run, whether checks are running and the last verdict (src/engine/checks/types.ts `ChecksVerdictDetail`,
 * bounded). Strict like every protocol object; the host redacts secrets before it sends anything.
 */
// A namespace import lets the bundler drop zod's unused locales (the webview bundle shrinks by ~370 KB).
import * as z from 'zod';
import type { ChecksVerdictDetail } from '../engine/checks/types.js';

/** Most names per list the webview is sent ("and 12 more" says the rest). */
export const maxNamesShown = 50;
/** The end of a check's output the detail view shows (the engine keeps 16 KiB). */
export const maxOutputShown = 16 * 1024;

// Built on first use, not when the module loads (B5 in docs/performance.md): only the webview parses them.
function buildProtocolChecksSchemas() {
  const identifier = z.string().min(1).max(200);
  const count = z.number().int().nonnegative();
  /** A failing test's or error's name, as the runner printed it. */
  const failureName = z.string().max(500);

  const checkResultSchema = z.strictObject({
    name: z.string().min(1).max(200),
    status: z.enum(['passed', 'failed', 'timed-out', 'error', 'skipped', 'refused']),
    passed: count.optional(),
    failed: count.optional(),
    newFailures: z.array(failureName).max(maxNamesShown),
    /** How many new failures there were in all (the list may be cut at `maxNamesShown`). */
    newFailureCount: count,
    fixed: z.array(failureName).max(maxNamesShown),
    fixedCount: count,
    durationMs: z.number().nonnegative(),
    summary: z.string().max(2_000).optional(),
    output: z.string().max(maxOutputShown).optional(),
  });

  /** A run's checks: `running` while a verdict is awaited (the last one, if any, still shown), else `done`. */
  const runChecksSchema = z.strictObject({
    runId: identifier,
    state: z.enum(['running', 'done', 'failed']),
    /** One line: the engine's summary; while running, what was last known. */
    summary: z.string().max(2_000),
    /** The last verdict had new failures, a check that failed where the baseline passed, or one that timed out. */
    hasNewFailures: z.boolean(),
    results: z.array(checkResultSchema).max(100),
  });

  return { checkResultSchema, runChecksSchema };
}

type ProtocolChecksSchemas = ReturnType<typeof buildProtocolChecksSchemas>;
let protocolChecks: ProtocolChecksSchemas | undefined;

/** The schemas of the checks the webview is sent, built on the first call. */
export function protocolChecksSchemas(): ProtocolChecksSchemas {
  return (protocolChecks ??= buildProtocolChecksSchemas());
}

export type ProtocolCheckResult = z.infer<ProtocolChecksSchemas['checkResultSchema']>;
export type RunChecks = z.infer<ProtocolChecksSchemas['runChecksSchema']>;

/** A verdict as the webview is sent it: names and output bounded (the counts say how many there were). */
export function toRunChecks(
  verdict: ChecksVerdictDetail | undefined,
  state: RunChecks['state'],
  runId: string,
  failure?: string,
): RunChecks {
  return {
    runId,
    state,
    summary: (failure ?? verdict?.summary ?? (state === 'running' ? 'Running checks\u2026' : 'No checks ran.')).slice(0, 2_000),
    hasNewFailures: verdict?.hasNewFailures ?? false,
    results: (verdict?.results ?? []).slice(0, 100).map((result) => ({
      name: result.name.slice(0, 200),
      status: result.status,
      ...(result.passed === undefined ? {} : { passed: result.passed }),
      ...(result.failed === undefined ? {} : { failed: result.failed }),
      newFailures: result.newFailures.slice(0, maxNamesShown).map((name) => name.slice(0, 500)),
      newFailureCount: result.newFailures.length,
      fixed: result.fixed.slice(0, maxNamesShown).map((name) => name.slice(0, 500)),
      fixedCount: result.fixed.length,
      durationMs: Math.max(0, result.durationMs),
      ...(result.summary === undefined ? {} : { summary: result.summary.slice(0, 2_000) }),
      ...(result.output === undefined ? {} : { output: result.output.slice(-maxOutputShown) }),
    })),
  };
}
