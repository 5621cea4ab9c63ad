/**
 * A folder's executable configuration as the user reads it on a terminal: one line per item, what it is,
 * the file that defines it, and exactly what it runs. Whatever the file says is shown, not obeyed: line
 * breaks and other control characters appear escaped (`\n`, `\x1b`), so a command cannot draw a line of
 * its own that looks like the end of the list, nor hide a part of itself.
 */
import type { FolderItem } from '../engine/index.js';
import { terminalSafe } from './terminal-text.js';

export function describeFolderItems(items: readonly FolderItem[]): string {
  return items.map((item) => `  - ${shown(item.what)} (${shown(item.file)}): ${shown(item.runs)}\n`).join('');
}

/** Control characters escaped, then made safe (bidirectional overrides shown by name). */
export function shown(text: string): string {
  let escaped = '';
  for (const character of text) {
    const code = character.charCodeAt(0);
    if (code >= 0x20 && (code < 0x7f || code > 0x9f)) escaped += character;
    else if (character === '\n') escaped += '\\n';
    else if (character === '\t') escaped += '\\t';
    else escaped += `\\x${code.toString(16).padStart(2, '0')}`;
  }
  return terminalSafe(escaped);
}
