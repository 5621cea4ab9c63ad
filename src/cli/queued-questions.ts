/**
 * Says on stderr, where the questions are asked, that an agent's question waits behind another's: two
 * interactive agents never question the user at once (the engine's user-turns.ts), so the second is
 * "queued for you" until the first is answered. Once per wait; in `--json` runs as in the others.
 */
import type { TaskEvent } from '../engine/index.js';
import { terminalSafe } from './terminal-text.js';

export class QueuedQuestions {
  /** The tasks whose current wait was already announced. */
  private readonly queued = new Set<string>();

  constructor(private readonly stderr: { write(text: string): void }) {}

  /** Feed every task event. */
  handle(event: TaskEvent): void {
    if (event.type !== 'task-update' && event.type !== 'task-end') return;
    const { task } = event;
    if (task.queuedForUser !== true || event.type === 'task-end') {
      this.queued.delete(task.id);
      return;
    }
    if (this.queued.has(task.id)) return;
    this.queued.add(task.id);
    // Roles and descriptions come from role files and models: nothing in them may act on the terminal.
    this.stderr.write(
      `\n[${terminalSafe(`${task.id} ${task.role}: ${task.description}`)}] is queued for you: its question comes once you have answered the one before.\n`,
    );
  }
}
