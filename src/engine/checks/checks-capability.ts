/**
 * The coordinator hears the verdict of its subagents' combined proposals before it answers: after a turn
 * in which it delegated (`Agent`) or sent a subagent more work (`SendMessage`), when its tree's pending
 * proposals are new, the checks run on them and the verdict comes as a notice on its next turn. With
 * fix-until-green N, a verdict with new failures also tells it to send the work back to the subagent that
 * caused them, at most N rounds; each round is a delegation, so a task of its own in the tree.
 */
import type { Capability } from '../capabilities/capability.js';
import type { ChangeSetRegistry } from '../changes/registry.js';
import { errorMessage } from '../errors.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { ChecksService } from './checks-service.js';
import type { ChecksSettings } from './checks-settings.js';
import { describeVerdictForCoordinator } from './coordinator-notice.js';
import { pendingProposals, proposalsFingerprint } from './pending-proposals.js';

const delegationTools = new Set(['Agent', 'SendMessage']);

export interface ChecksCapabilityParts {
  checks: ChecksService;
  settings: ChecksSettings;
  changes: ChangeSetRegistry;
  taskManager: TaskManager;
}

export function checksCapability(parts: ChecksCapabilityParts): Capability {
  return {
    name: 'checks',
    grant(task) {
      if (!task.agent.mayDelegate || !parts.settings.enabled()) return undefined;
      let rounds = 0;
      let lastFingerprint: string | undefined;
      return {
        instructions:
          "After you delegate, the repository's own checks (its tests, type check, linter) run on your subagents' combined proposals, and you are told the verdict before you answer. Say it in your answer.",
        afterToolCalls: async (calls, signal) => {
          if (!calls.some((call) => delegationTools.has(call.toolName) && !call.isError)) return [];
          const pending = pendingProposals(parts.changes, parts.taskManager, task.rootId);
          if (pending.proposals.length === 0) return [];
          const fingerprint = proposalsFingerprint(pending.proposals);
          if (fingerprint === lastFingerprint) return [];
          lastFingerprint = fingerprint;
          try {
            const verdict = await parts.checks.runOnProposals({
              runId: task.rootId,
              taskIds: pending.taskIds,
              proposals: pending.proposals,
              signal,
            });
            const limit = parts.settings.fixUntilGreen?.() ?? 0;
            const sendBack = verdict.hasNewFailures && rounds < limit;
            if (sendBack) rounds += 1;
            return [
              describeVerdictForCoordinator(verdict, {
                authorOf: pending.authorOf,
                role: (taskId) => parts.taskManager.get(taskId)?.role ?? 'unknown',
                round: sendBack ? { number: rounds, limit } : undefined,
                limit,
              }),
            ];
          } catch (error) {
            if (signal.aborted) return [];
            return [`The repository's checks could not run on the proposals: ${errorMessage(error)}`];
          }
        },
      };
    },
  };
}
