/**
 * The message of a run's commit, written from the run so `git log` tells what happened without the run
 * history: the first line is the run's description; the body gives the task and, per agent, what it
 * changed and which files.
 */
import type { BranchFile } from './branch-files.js';

export interface RunDescription {
  runId: string;
  /** The root task's short description: the commit's subject and the pull request's title. */
  description: string;
  /** The task as the user gave it. */
  prompt: string;
  /** Each agent that proposed something: its task id, role and what it was asked (its description). */
  agents: ReadonlyArray<{ taskId: string; role: string; description: string }>;
}

/** Git's advice: a subject of at most about 72 characters, on one line. */
const subjectLength = 72;

export function subjectOf(run: RunDescription): string {
  const line = run.description.replace(/\s+/g, ' ').trim() || `Agent Team run ${run.runId}`;
  return line.length <= subjectLength ? line : `${line.slice(0, subjectLength - 1).trimEnd()}…`;
}

export function commitMessageOf(run: RunDescription, files: readonly BranchFile[]): string {
  const lines = [subjectOf(run), '', 'Task:', ...indent(run.prompt.trim() || run.description)];
  for (const agent of run.agents) {
    const own = files.filter((file) => file.taskId === agent.taskId);
    if (own.length === 0) continue;
    lines.push('', `${agent.role} (${agent.taskId}): ${agent.description.replace(/\s+/g, ' ').trim()}`);
    for (const file of own) lines.push(`  - ${file.path} (+${file.added} -${file.removed})`);
  }
  lines.push('', `Agent Team run ${run.runId}`);
  return `${lines.join('\n')}\n`;
}

function indent(text: string): string[] {
  return text.split('\n').map((line) => (line.trim() === '' ? '' : `  ${line}`));
}
