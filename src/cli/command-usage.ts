/**
 * `agent-team <command> --help`: that command's part of the usage text, every option it takes, and the
 * notes every command shares (keys, exit codes). Cut from the one usage text rather than written twice,
 * so a flag documented for a command is documented in its own help as well.
 */
import { usageText } from './usage-text.js';

/** The usage of `command` alone (as `agent-team --help` shows it), or all of it for a command it does not name. */
export function commandUsage(command: string): string {
  const lines = usageText.split('\n');
  const footerStart = lines.findIndex((line, index) => index > 0 && line.trim() === '');
  const sections = lines.slice(1, footerStart < 0 ? undefined : footerStart);
  const footer = footerStart < 0 ? [] : lines.slice(footerStart);
  const starts = (line: string) => /^ {2}agent-team \S/.test(line);
  const first = sections.findIndex((line) => starts(line) && line.trimStart().split(/\s+/)[1] === command);
  if (first < 0) return usageText;
  // A command may have several usage lines (run's task and its /<name> form): its part ends at another command's.
  const next = sections.findIndex((line, index) => index > first && starts(line) && line.trimStart().split(/\s+/)[1] !== command);
  return ['Usage:', ...sections.slice(first, next < 0 ? undefined : next), ...footer].join('\n');
}
