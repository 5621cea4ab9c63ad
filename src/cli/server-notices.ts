/**
 * What a role's MCP servers could not have, said on stderr as it happens: a server that did not start, or
 * that runs without the network its entry asked for (the user did not allow it). The agent and the
 * transcript are told too (the MCP capability's notices); a terminal run tells the user, who alone can
 * change it.
 */
import type { TaskEvent } from '../engine/tasks/types.js';
import { terminalSafe } from './terminal-text.js';

/** The line for stderr, or undefined when `event` is no MCP server's notice. */
export function serverNoticeLine(event: TaskEvent): string | undefined {
  if (event.type !== 'task-transcript' || event.entry.type !== 'notice' || !event.entry.text.startsWith("MCP server '")) return undefined;
  return `agent-team: ${terminalSafe(event.entry.text)}\n`;
}
