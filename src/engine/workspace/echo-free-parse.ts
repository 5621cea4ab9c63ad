/**
 * Parse errors that never echo the text they failed on. A file the confined reader read may still be a
 * secret under an innocent name (a committed `credentials.json` a settings file links to is refused, but
 * one that is simply broken is not), and the parsers quote what they choke on: V8's JSON.parse says
 * `Unexpected token 'A', "AKIA…" is not valid JSON`, the YAML parser names an unresolved alias or tag and,
 * with pretty errors, prints the offending line under a caret. Those messages reach the user, the model's
 * transcript, the run log and stderr; these keep only the kind of error and where it is.
 */

export type QuietParse = { ok: true; value: unknown } | { ok: false; problem: string };

/** `text` as JSON, or a problem naming the line and column of the error (never its text). */
export function parseJsonQuietly(text: string): QuietParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: `it is not valid JSON${jsonErrorPlace(text, error)}` };
  }
}

/** ` (line L, column C)` from V8's message (`at position N`, sometimes with the line already); '' without one. */
function jsonErrorPlace(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lineColumn) return ` (line ${lineColumn[1]}, column ${lineColumn[2]})`;
  const position = /at position (\d+)/.exec(message);
  if (position) {
    const before = text.slice(0, Number(position[1])).split('\n');
    return ` (line ${before.length}, column ${before.at(-1)!.length + 1})`;
  }
  // "Unexpected end of JSON input" and the like: the place is the end.
  return /end of JSON input/.test(message) ? ' (it ends too early)' : '';
}

/**
 * A YAML parser's message without the text it quotes: what comes after a colon (`Unresolved tag: !x`,
 * `Unresolved alias (…): name`), quoted parts and a pretty error's excerpt lines are dropped.
 */
export function echoFreeYamlMessage(message: string): string {
  const firstLine = (message.split('\n')[0] ?? '').replace(/^[A-Za-z]*Error: /, '');
  const beforeColon = firstLine.split(':')[0] ?? '';
  const withoutQuotes = beforeColon.replace(/"[^"]*"|'[^']*'|`[^`]*`/g, '…').trim();
  return withoutQuotes === '' ? 'it is not valid YAML' : withoutQuotes;
}
