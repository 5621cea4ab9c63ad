/**
 * `agent-team apply` and the checks: the run's kept verdict (`run --checks`) is said before anything is
 * written; proposals with new failures are applied only with `--force` (the same flag that applies a
 * foreign run: "I have looked, apply it anyway"); `--show` writes nothing, so it only warns.
 */
import path from 'node:path';
import { AgentTeamError, type ChecksVerdictDetail } from '../engine/index.js';
import { readVerdict } from './checks-verdict-file.js';
import { runHistoryDirectory } from './run-history.js';
import { terminalSafe } from './terminal-text.js';

export async function checksBeforeApply(
  runId: string,
  workspaceRoot: string,
  options: { force: boolean; writes: boolean; warn: (message: string) => void },
): Promise<ChecksVerdictDetail | undefined> {
  const verdict = await readVerdict(path.join(workspaceRoot, runHistoryDirectory), runId);
  if (!verdict?.hasNewFailures) return verdict;
  const failing = verdict.results
    .filter((result) => result.newFailures.length > 0 || result.status === 'failed' || result.status === 'timed-out')
    .map((result) => `${result.name}: ${result.summary ?? result.status}`);
  const said = `The checks found new failures in run ${runId}'s proposals: ${failing.join('; ')}.`;
  if (!options.writes) {
    options.warn(said);
    return verdict;
  }
  if (!options.force)
    throw new ApplyRefusedError(
      `${said} Nothing was applied. Look at them (agent-team run's output, or its --trace), and to apply anyway run again with --force.`,
    );
  options.warn(`${said} Applying anyway (--force).`);
  return verdict;
}

/** Nothing applied because of the checks: exit 1 (something not applied), not a usage error. */
export class ApplyRefusedError extends AgentTeamError {
  override readonly name: string = 'ApplyRefusedError';
  readonly code = 'apply-refused';
  constructor(message: string) {
    super(terminalSafe(message));
  }
}
