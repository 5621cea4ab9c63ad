/** How one check's process ended, with its output parsed: what compare.ts compares. */
import type { ParsedOutput } from './parsed-output.js';
import type { CheckStatus } from './types.js';

export interface CheckOutcome {
  name: string;
  status: CheckStatus;
  durationMs: number;
  exitCode?: number;
  parsed?: ParsedOutput;
  /** The end of stdout and stderr, redacted. */
  output: string;
  /** Why it did not run or could not finish (refused, error, timed out). */
  reason?: string;
}
