/**
 * The chain of tasks a task is part of (seed 000's `<Ancestor Tasks>`): the outermost first, its parent's
 * last. "Write the tests" means little without "for the parser rewrite", so nested planners, a plan's
 * leaves and subagents started by subagents see it, as context and not as instructions: it goes before
 * the task in the agent's first user message, once (the system prompt stays the role's own, the same for
 * every task of the role and so shared by prompt caching), and it is the task snapshot's `ancestorTasks`,
 * which the detail view and the trace show. Each entry is cut and the whole is bounded (limits.ts).
 */
import { maxAncestorContextCharacters, maxAncestorTaskCharacters } from '../limits.js';

/** The entry that stands for ancestors left out of the middle of a long chain. */
const gapPattern = /^\(… (\d+) more ancestor tasks? left out …\)$/;

function gap(count: number): string {
  return `(… ${count} more ancestor task${count === 1 ? '' : 's'} left out …)`;
}

/** One task as an ancestor: trimmed, cut to `maxAncestorTaskCharacters`. */
export function ancestorEntry(task: string): string {
  const trimmed = task.trim();
  return trimmed.length > maxAncestorTaskCharacters ? `${trimmed.slice(0, maxAncestorTaskCharacters - 1)}…` : trimmed;
}

/**
 * The chain of a task whose parent has `parentChain` and does `parentTask`: the parent's chain and the
 * parent's task, within `maxAncestorContextCharacters` (the outermost and the nearest kept; entries just
 * after the outermost give way first, counted in one gap entry).
 */
export function chainBelow(parentChain: readonly string[], parentTask: string): string[] {
  const entry = ancestorEntry(parentTask);
  // A plan's leaf does its node's own task: the same text twice would say nothing more.
  const chain = parentChain.at(-1) === entry || entry === '' ? [...parentChain] : [...parentChain, entry];
  const size = () => chain.reduce((total, entry) => total + entry.length, 0);
  while (size() > maxAncestorContextCharacters && chain.length > 2) {
    const counted = gapPattern.exec(chain[1]!);
    const leftOut = counted ? Number(counted[1]) : 0;
    // The entry after the gap (or the first after the outermost) goes; the nearest stays to the end.
    const dropAt = counted ? 2 : 1;
    if (dropAt >= chain.length - 1) break;
    chain.splice(dropAt, 1);
    if (counted) chain[1] = gap(leftOut + 1);
    else chain.splice(1, 0, gap(1));
  }
  return chain;
}

/** The first user message of a task with ancestors: the chain, marked as context, then the task itself. */
export function withAncestorTasks(task: string, chain: readonly string[] | undefined): string {
  if (!chain || chain.length === 0) return task;
  // A task's text cannot close the section early and pass what follows off as ours.
  const entries = chain.map((entry, index) => `${index + 1}. ${entry.replaceAll('</ancestor-tasks>', '<\\/ancestor-tasks>')}`);
  return `Ancestor tasks (context only; your task is below). The larger tasks yours is part of, outermost first, so you know what your work is for. Do not do them yourself; do only your task.
<ancestor-tasks>
${entries.join('\n')}
</ancestor-tasks>

Your task:
${task}`;
}
