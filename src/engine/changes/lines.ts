/**
 * Splits text into lines that each keep their terminator (`\n`, or `\r\n` as `\r` + `\n`), so joining
 * them gives the text back byte for byte. Only the last line can lack a terminator. `''` has no lines.
 */
export function splitLinesKeepingEnds(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if (end < 0) break;
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** The line as a diff shows it: without its `\n` (a `\r` stays visible, as git shows it). */
export function withoutNewline(line: string): string {
  return line.endsWith('\n') ? line.slice(0, -1) : line;
}
