/**
 * Opening a folder's run log, signed with the user's key, the one way for every host (the CLI's
 * `.agent-team/runs`, the window's workspace storage): hosts say where and for how long, never construct
 * the log themselves (test/architecture/composition.test.ts).
 */
import { mkdir } from 'node:fs/promises';
import type { Clock } from '../clock.js';
import { RunLog } from '../runs/run-log.js';
import { runFolderSigning } from '../runs/run-log-key.js';
import type { RetentionOptions } from '../runs/run-retention.js';

export interface RunLogPorts {
  /** The folder of the run files; created when missing. */
  directory: string;
  /** The user's home, where their run-log key is (`<home>/.agent-team/keys`). */
  home: string;
  /** How long runs are kept. */
  retention: RetentionOptions;
  /** What an unsigned history means for the user, said with why there is no key. */
  unsignedConsequence: string;
  onWarning(message: string): void;
  /** Default `systemClock`. */
  clock?: Clock;
}

/** The run log of `ports.directory`; without a key (said once), every run reads as foreign. */
export async function openSignedRunLog(ports: RunLogPorts): Promise<RunLog> {
  await mkdir(ports.directory, { recursive: true });
  const signing = await runFolderSigning(ports.home, ports.directory);
  if ('problem' in signing) ports.onWarning(`${signing.problem}. ${ports.unsignedConsequence}`);
  return RunLog.open({
    directory: ports.directory,
    onWarning: ports.onWarning,
    retention: ports.retention,
    signing,
    ...(ports.clock ? { clock: ports.clock } : {}),
  });
}
