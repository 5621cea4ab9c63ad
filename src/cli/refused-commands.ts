/**
 * The commands agents wanted to run with `Bash` that no `--allow-command` allowed: nobody can be asked in
 * a terminal run, so they were refused, and the user hears of them at the end with the flags that would
 * allow them next time.
 */
import { literalPattern, type TaskEvent } from '../engine/index.js';

/** The refusal the Bash tool gives for a command no pattern allows (src/engine/commands/bash-tool.ts). */
const notAllowed = 'is not among the commands the user allows';

export class RefusedCommands {
  private readonly calls = new Map<string, string>();
  private readonly refused = new Set<string>();

  /** Feed every task event. */
  handle(event: TaskEvent): void {
    if (event.type !== 'task-transcript') return;
    const entry = event.entry;
    if (entry.type === 'tool-call' && entry.toolName === 'Bash') {
      const command = (entry.input as { command?: unknown } | undefined)?.command;
      if (typeof command === 'string') this.calls.set(entry.toolCallId, command.trim());
    } else if (entry.type === 'tool-result' && entry.toolName === 'Bash' && entry.isError && entry.output.includes(notAllowed)) {
      const command = this.calls.get(entry.toolCallId);
      if (command) this.refused.add(command);
    }
  }

  /** What to tell the user, or undefined when every command was allowed. */
  report(): string | undefined {
    if (this.refused.size === 0) return undefined;
    // As literals: a refused `rm -f *.log` must not come back as a pattern that allows `rm -f /x.log`.
    const flags = [...this.refused].map((command) => `--allow-command ${shellQuote(literalPattern(command))}`).join(' ');
    const one = this.refused.size === 1;
    return `agent-team: ${one ? 'a command' : `${this.refused.size} commands`} the agents wanted to run ${one ? 'was' : 'were'} refused (nothing allowed ${one ? 'it' : 'them'}). To allow ${one ? 'it' : 'them'} next time, add: ${flags}\n`;
  }
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
