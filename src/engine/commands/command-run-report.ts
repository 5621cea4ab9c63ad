/** What the Bash tool's agent reads once a command has run: how it ended, what it changed, the ends of its output. */
import type { CommandRunResult } from './command-process.js';

/** Changed files listed by name at most. */
const maxChangedFilesListed = 50;

/** The result the agent reads: how it ended, what it changed, then the ends of its output. */
export function describeCommandRun(
  result: CommandRunResult,
  timeout: { usedMs: number; maxMs: number },
  changed: readonly string[] | undefined,
  linked: readonly string[],
  limit?: string,
  copyLine?: string,
): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  const lines: string[] = [];
  if (limit !== undefined) lines.push(`${limit} (${seconds} s)`);
  else if (result.ended === 'timeout')
    lines.push(
      `Timed out after ${Math.round(timeout.usedMs / 1000)} s: the command and every process it started were ended. Run something narrower, or pass a longer timeout_ms (at most ${timeout.maxMs}).`,
    );
  else if (result.ended === 'stopped') lines.push(`Stopped after ${seconds} s: the command and every process it started were ended.`);
  else if (result.exitCode !== null) lines.push(`Exit code ${result.exitCode} (${seconds} s)`);
  else lines.push(`Ended by signal ${result.signal ?? 'unknown'} (${seconds} s)`);
  if (changed === undefined) lines.push('Which files it changed in the scratch copy could not be determined; none of it is kept.');
  else if (changed.length > 0) {
    const listed = changed.slice(0, maxChangedFilesListed).join(', ');
    const more = changed.length > maxChangedFilesListed ? ` and ${changed.length - maxChangedFilesListed} more` : '';
    lines.push(`Files it changed in the scratch copy (not kept; propose them with Edit or Write if they are wanted): ${listed}${more}`);
  }
  if (linked.length > 0) lines.push(`Linked from the user's folder, not copied (writes there reach it): ${linked.join(', ')}`);
  if (copyLine !== undefined) lines.push(copyLine);
  lines.push(section('stdout', result.stdout), section('stderr', result.stderr));
  return lines.filter((line) => line !== '').join('\n');
}

function section(name: string, output: { text: string; droppedBytes: number }): string {
  if (output.text === '' && output.droppedBytes === 0) return `${name}: (empty)`;
  const note = output.droppedBytes > 0 ? ` (the first ${output.droppedBytes} bytes are not shown; this is the end)` : '';
  return `${name}${note}:\n${output.text.replace(/\s+$/, '')}`;
}
