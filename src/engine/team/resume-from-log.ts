/**
 * What a resume takes from a run's log: each task's conversation and the results recorded after it (the
 * team's `ResumeSource`), and the run's proposals put back in the registry, so a resumed agent sees the
 * edits it had made (the CLI's registry starts empty; the extension's has them from its own store).
 */
import { ChangeSet } from '../changes/change-set.js';
import type { ChangeSetRegistry } from '../changes/registry.js';
import { errorMessage } from '../errors.js';
import type { ResumeSource } from './resume-run.js';
import type { RunContents } from '../runs/run-contents.js';

export function resumeSourceOf(contents: RunContents): ResumeSource {
  return {
    conversation: (taskId) => contents.conversations.get(taskId),
    recordedResults: (taskId) =>
      new Map(
        (contents.resultsAfterConversation.get(taskId) ?? []).map((entry) => [
          entry.toolCallId,
          { output: entry.output, isError: entry.isError },
        ]),
      ),
  };
}

/** Restores the run's proposals that the registry does not have; returns how many. */
export function restoreProposals(registry: ChangeSetRegistry, contents: RunContents, warn: (message: string) => void): number {
  let restored = 0;
  for (const snapshot of contents.changeSets) {
    if (registry.get(snapshot.taskId)) continue;
    try {
      registry.add(ChangeSet.fromSnapshot(snapshot));
      restored++;
    } catch (error) {
      warn(`Could not restore the proposed changes of task ${snapshot.taskId}: ${errorMessage(error)}`);
    }
  }
  return restored;
}
