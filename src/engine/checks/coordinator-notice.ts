/** The verdict as the coordinator reads it, and, in a fix-until-green round, whom to send the work back to. */
import type { ChecksVerdictDetail } from './types.js';

export interface NoticeContext {
  /** Which task proposed each file. */
  authorOf: ReadonlyMap<string, string>;
  role(taskId: string): string;
  /** Set when this verdict opens a round of fix-until-green. */
  round: { number: number; limit: number } | undefined;
  limit: number;
}

export function describeVerdictForCoordinator(verdict: ChecksVerdictDetail, context: NoticeContext): string {
  const lines = [
    `The repository's checks on your subagents' combined proposals (tasks ${verdict.taskIds.join(', ')}): ${verdict.summary.replace(/^checks: /, '')}`,
  ];
  for (const result of verdict.results) lines.push(`- ${result.name}: ${result.status}${result.summary ? ` — ${result.summary}` : ''}`);
  if (!verdict.hasNewFailures) return lines.join('\n');
  const culprits = causes(verdict, context.authorOf);
  const who = culprits.map((taskId) => `${taskId} (${context.role(taskId)})`).join(', ');
  if (context.round) {
    const failing = verdict.results.filter(
      (result) => result.newFailures.length > 0 || result.status === 'failed' || result.status === 'timed-out',
    );
    lines.push(
      `Fix until green, round ${context.round.number} of ${context.round.limit}: the proposals break what passed before. Send the work back: delegate again (Agent) to the role that made it (${who}), telling it exactly what newly fails (${failing.map((result) => `${result.name}: ${result.summary ?? result.status}`).join('; ')}), so that it proposes a fix. Then answer.`,
    );
  } else if (context.limit > 0) {
    lines.push(
      `Fix until green: the ${context.limit} round(s) allowed are used. Do not send the work back again; tell the user in your answer what still fails.`,
    );
  } else {
    lines.push('Tell the user in your answer what newly fails.');
  }
  return lines.join('\n');
}

/** The tasks whose files the new failures name (a type error's file), else every task with proposals. */
function causes(verdict: ChecksVerdictDetail, authorOf: ReadonlyMap<string, string>): string[] {
  const named = new Set<string>();
  for (const failure of verdict.results.flatMap((result) => result.newFailures)) {
    const file = failure.split(': ')[0];
    const author = authorOf.get(file);
    if (author !== undefined) named.add(author);
  }
  return named.size > 0 ? [...named] : verdict.taskIds;
}
