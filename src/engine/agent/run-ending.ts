/** The loop's side of its stop conditions: the list it asks, and how an end a condition decided is written down. */
import type { Compactor } from './compaction/compactor.js';
import { compactionAnswer } from './compaction/compact-command.js';
import type { ConversationRecorder } from './conversation-recorder.js';
import { endWhen, reviewAnswer, toolEndedRun, turnLimit, userReplies } from './stop-condition-kinds.js';
import type { RunStop, StopCondition } from './stop-conditions.js';
import type { AgentRunOptions, AgentRunResult } from './types.js';

/**
 * A run's conditions in the order they are asked: a tool that ended the run, the caller's (`stopWhen`, then
 * the shorthands `reviewFinish`, `endRequested`, `nextUserMessage`), and the turn limit.
 */
export function runStopConditions(options: AgentRunOptions, maxTurns: number): StopCondition[] {
  return [
    toolEndedRun(),
    ...(options.stopWhen ?? []),
    ...(options.reviewFinish ? [reviewAnswer('review-finish', options.reviewFinish)] : []),
    ...(options.endRequested ? [endWhen('end-requested', options.endRequested)] : []),
    ...(options.nextUserMessage ? [userReplies('next-user-message', options.nextUserMessage)] : []),
    turnLimit(maxTurns),
  ];
}

/** The result of a run a condition ended, its notice told to the user first. */
export function endedRun(run: ConversationRecorder, stop: RunStop, redact: (text: string) => string): AgentRunResult {
  if (stop.notice !== undefined) run.addUserNotice(redact(stop.notice));
  if (stop.status === 'max-turns') return run.maxTurns(stop.error ?? '');
  const result = stop.output === undefined ? run.completed() : run.completed(stop.output);
  return stop.endedBy ? { ...result, endedBy: stop.endedBy } : result;
}

/** A chat's `/compact`: compacted at once; when nothing could be, the user is told why. */
export async function compactNow(compactor: Compactor, run: ConversationRecorder, focus: string, signal: AbortSignal): Promise<void> {
  const outcome = await compactor.compact('manual', signal, focus);
  if (!outcome.compacted) run.addUserNotice(compactionAnswer(outcome));
}
