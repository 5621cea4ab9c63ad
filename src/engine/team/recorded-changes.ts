/**
 * A finished run's proposals, read back from its run log, in a change-set registry the log follows: what
 * `agent-team apply` accepts is recorded in the run's file, so `agent-team runs` stops listing it as pending.
 * Built here, not by the CLI: hosts construct no engine part (test/architecture/composition.test.ts).
 */
import type { ChangeSet } from '../changes/change-set.js';
import { ChangeSetRegistry } from '../changes/registry.js';
import type { RunLog } from '../runs/run-log.js';

export function recordedChangeSets(runLog: Pick<RunLog, 'attachChanges'>, changeSets: readonly ChangeSet[]): ChangeSetRegistry {
  const registry = new ChangeSetRegistry();
  runLog.attachChanges(registry);
  for (const changeSet of changeSets) registry.add(changeSet);
  return registry;
}
