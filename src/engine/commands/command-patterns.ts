/**
 * Which commands the user allows without being asked: `agentTeam.allowedCommands` and `--allow-command`.
 *
 * A pattern is a command with `*` standing for any run of characters (`npm test`, `npm run *`,
 * `node test/*.js`), or Claude Code's prefix form `npm run test:*` (the command itself, or it followed by
 * arguments). `*` alone allows everything.
 *
 * A command line is judged part by part: it is split at `&&`, `||`, `;`, `|`, `&` and new lines outside
 * quotes, and every part must match a pattern, so `npm test && curl … | sh` is not allowed by `npm test*`.
 * A `*` never stands for a redirection (`>`, `<`) either: `echo *` does not allow `echo x > ~/.bashrc`. The
 * harmless redirections agents append (`2>&1`, `>/dev/null`) are set aside before matching. A line with
 * command substitution (`$(…)`, backticks, `<(…)`) cannot be judged by parts: only `*` or a pattern
 * without wildcards equal to the whole line allows it.
 */

/** The verdict on one command line. */
export interface PatternVerdict {
  allowed: boolean;
  /** The parts no pattern allows (all of the line when it has command substitution). */
  unmatched: string[];
}

/** On a part whose spaces are already collapsed (a `\s*` here would backtrack on long runs of spaces). */
const harmlessRedirection = / ?(?:[012]?>>? ?\/dev\/null|[12]?>&[12]|&> ?\/dev\/null)(?= |$)/g;

export function judgeCommand(command: string, patterns: readonly string[]): PatternVerdict {
  const line = command.trim();
  const cleaned = patterns.map((pattern) => pattern.trim()).filter((pattern) => pattern !== '');
  if (cleaned.includes('*')) return { allowed: true, unmatched: [] };
  if (hasSubstitution(line)) {
    const allowed = cleaned.some((pattern) => !pattern.includes('*') && pattern === line);
    return { allowed, unmatched: allowed ? [] : [line] };
  }
  const parts = splitCommandLine(line).map((part) => collapseSpaces(part).replace(harmlessRedirection, '').trim()).filter((part) => part !== '');
  const matchers = cleaned.map(compilePattern);
  const unmatched = parts.filter((part) => !matchers.some((matches) => matches(part)));
  return { allowed: parts.length > 0 && unmatched.length === 0, unmatched };
}

/** A pattern as a test on one part of a command line. */
export function compilePattern(pattern: string): (part: string) => boolean {
  const prefix = /^(.*):\*$/.exec(pattern);
  if (prefix) {
    const head = collapseSpaces(prefix[1]);
    return (part) => {
      const command = collapseSpaces(part);
      return !/[<>]/.test(command) && (command === head || command.startsWith(`${head} `));
    };
  }
  const cleaned = collapseSpaces(pattern);
  return (part) => wildcardMatches(cleaned, collapseSpaces(part));
}

/**
 * `*` for any run of characters but `<` and `>`, matched without a regular expression: the command comes
 * from model output, and a pattern with several `*` as a backtracking regex could take seconds on a long
 * crafted line. The redirections split both sides into pieces that must line up one for one; each piece
 * is matched greedily, falling back only to the last `*` (linear for the patterns people write).
 */
function wildcardMatches(pattern: string, text: string): boolean {
  const patternPieces = pattern.split(/([<>])/);
  const textPieces = text.split(/([<>])/);
  if (patternPieces.length !== textPieces.length) return false;
  return patternPieces.every((piece, index) => (index % 2 === 1 ? piece === textPieces[index] : pieceMatches(piece, textPieces[index])));
}

function pieceMatches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let starText = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      starText = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++starText;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

function collapseSpaces(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** True when the line runs a command inside itself: `$(…)`, backticks, `<(…)`, `>(…)` outside single quotes. */
export function hasSubstitution(line: string): boolean {
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < line.length; index++) {
    const character = line[index];
    if (character === '\\' && quote !== "'") {
      index++;
      continue;
    }
    if (quote === "'") {
      if (character === "'") quote = undefined;
      continue;
    }
    if (character === '`') return true;
    if (character === '$' && line[index + 1] === '(') return true;
    if (quote === undefined && (character === '<' || character === '>') && line[index + 1] === '(') return true;
    if (character === '"') quote = quote === '"' ? undefined : '"';
    else if (character === "'" && quote === undefined) quote = "'";
  }
  return false;
}

/** The simple commands of a line: split at `&&`, `||`, `;`, `|`, `&` and new lines outside quotes. */
export function splitCommandLine(line: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < line.length; index++) {
    const character = line[index];
    if (character === '\\' && quote !== "'" && index + 1 < line.length) {
      current += character + line[index + 1];
      index++;
      continue;
    }
    if (quote) {
      if (character === quote) quote = undefined;
      current += character;
      continue;
    }
    if (character === "'" || character === '"') {
      quote = character;
      current += character;
      continue;
    }
    // `>&` and `&>` are redirections, not a command sent to the background.
    const isRedirectionAmpersand = character === '&' && (line[index - 1] === '>' || line[index + 1] === '>');
    if ((character === '&' && !isRedirectionAmpersand) || character === '|' || character === ';' || character === '\n') {
      parts.push(current);
      current = '';
      if ((character === '&' || character === '|') && line[index + 1] === character) index++;
      continue;
    }
    current += character;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}
