/**
 * The transcript's notices that the terminal's user must hear as they happen, on stderr: what they alone
 * can change. A role's MCP server that did not start or runs without the network its entry asked for (the
 * user did not allow it), and a file the engine did not read for the agents (an instruction file that is
 * a link to `.env`, a settings file that is not JSON: the one confined reader's `notReadProblem`, which
 * names the rule, never the content). A model that failed and the one the task goes on with (failover), as
 * the user may want to fix the first. The agents and the transcript are told too; every task reads the
 * same files and starts the same servers again, so each line is said once.
 */
import { isFailoverNotice, notReadMarker, type TaskEvent } from '../engine/index.js';
import { terminalSafe } from './terminal-text.js';

export class TerminalNotices {
  private readonly told = new Set<string>();

  constructor(private readonly stderr: { write(text: string): void }) {}

  /** Feed every task event. */
  handle(event: TaskEvent): void {
    if (event.type !== 'task-transcript' || event.entry.type !== 'notice') return;
    const { text } = event.entry;
    if (!text.startsWith("MCP server '") && !text.includes(notReadMarker) && !isFailoverNotice(text)) return;
    if (this.told.has(text)) return;
    this.told.add(text);
    this.stderr.write(`agent-team: ${terminalSafe(text)}\n`);
  }
}
