/**
 * JSON with comments, as VS Code writes its configuration files (`.vscode/mcp.json` may hold `//` and
 * `/* *\/` comments and trailing commas): the comments and those commas are removed, outside strings,
 * and the rest is parsed by `JSON.parse`, so anything else that is not JSON is still an error.
 */
export function parseJsonc(text: string): unknown {
  return JSON.parse(withoutCommentsAndTrailingCommas(text));
}

function withoutCommentsAndTrailingCommas(text: string): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    if (character === '"') {
      const end = stringEnd(text, index);
      out += text.slice(index, end);
      index = end;
    } else if (text.startsWith('//', index)) {
      const end = text.indexOf('\n', index);
      index = end === -1 ? text.length : end;
    } else if (text.startsWith('/*', index)) {
      const end = text.indexOf('*/', index + 2);
      if (end === -1) throw new SyntaxError('a /* comment is not closed');
      // A space keeps the tokens on either side apart.
      out += ' ';
      index = end + 2;
    } else if (character === ',' && /^\s*[}\]]/.test(nextCode(text, index + 1))) {
      index++;
    } else {
      out += character;
      index++;
    }
  }
  return out;
}

/** The index just after the string that starts at `start` (its closing quote), or the text's end. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    if (text[index] === '\\') index += 2;
    else if (text[index] === '"') return index + 1;
    else index++;
  }
  return text.length;
}

/** What follows `from`, with comments skipped, enough to see whether a `}` or `]` comes next. */
function nextCode(text: string, from: number): string {
  let index = from;
  for (;;) {
    while (index < text.length && /\s/.test(text[index]!)) index++;
    if (text.startsWith('//', index)) {
      const end = text.indexOf('\n', index);
      index = end === -1 ? text.length : end;
    } else if (text.startsWith('/*', index)) {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 2;
    } else return text.slice(index, index + 1);
  }
}
