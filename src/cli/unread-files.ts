/**
 * Files the engine did not read for the agents (an instruction file that is a link to `.env`, a settings
 * file that is not JSON): their notices are in the transcript, and the terminal's user hears of each
 * once on stderr, with the rule that refused it (never the file's content; the engine's readers say
 * only the rule). The notices come from the one confined reader's `notReadProblem`.
 */
import type { TaskEvent } from '../engine/tasks/types.js';
import { notReadMarker } from '../engine/workspace/confined-file-reader.js';
import { terminalSafe } from './terminal-text.js';

export class UnreadFiles {
  private readonly told = new Set<string>();

  constructor(private readonly stderr: { write(text: string): void }) {}

  /** Feed every task event. */
  handle(event: TaskEvent): void {
    if (event.type !== 'task-transcript' || event.entry.type !== 'notice' || !event.entry.text.includes(notReadMarker)) return;
    // Every task reads the same files again: one line each is enough.
    if (this.told.has(event.entry.text)) return;
    this.told.add(event.entry.text);
    this.stderr.write(`agent-team: ${terminalSafe(event.entry.text)}\n`);
  }
}
