/**
 * Which commands the user allows without being asked: `agentTeam.allowedCommands` and `--allow-command`.
 *
 * A pattern is a command with `*` standing for any run of characters (`npm test`, `npm run *`,
 * `node test/*.js`), or Claude Code's prefix form `npm run test:*` (the command itself, or it followed by
 * arguments); `\*` is a star itself. `*` alone allows every line.
 *
 * A line is judged as bash parses it (bash-syntax.ts), failing closed: it runs without asking only when
 * it is simple commands joined by `&&`, `||`, `;`, new lines or pipes, each made of literal words (plain
 * text, '…' and "…" without expansions) and at most the harmless redirections agents append (`2>&1`,
 * `>/dev/null`), and each command's words, joined by single spaces, match a pattern. The words matched
 * are the ones the program receives, so a `*` that covers `x; y` inside quotes covers an argument, never
 * a second command. Anything else asks (or is refused where nobody can be asked): expansions and
 * substitutions, ANSI-C `$'…'` strings, globs and braces (they expand to names the pattern never saw),
 * assignments before a command (`NODE_OPTIONS=… npm test` changes what runs), other redirections,
 * background jobs, subshells, functions, control flow, heredocs, comments, and lines bash would not parse.
 * A pattern without a wildcard equal to the whole line allows that exact line, whatever it holds: it is
 * what "Always for this workspace" stores, for a line the user read.
 */
import { loadBashSyntax, type ShellVariant } from './bash-syntax.js';
import { literalCommands } from './literal-commands.js';

/** The verdict on one command line. */
export interface PatternVerdict {
  allowed: boolean;
  /** The commands no pattern allows (all of the line when it cannot be judged command by command). */
  unmatched: string[];
  /** Why the line cannot be judged command by command, when it cannot. */
  reason?: string;
}

/** `shell`: the shell that runs the line (default bash); where it is a POSIX sh, bash-only forms parse as sh reads them. */
export async function judgeCommand(
  command: string,
  patterns: readonly string[],
  options: { shell?: ShellVariant } = {},
): Promise<PatternVerdict> {
  const line = command.trim();
  const cleaned = patterns.map((pattern) => pattern.trim()).filter((pattern) => pattern !== '');
  if (cleaned.includes('*')) return { allowed: true, unmatched: [] };
  if (cleaned.some((pattern) => exactLine(pattern) === line)) return { allowed: true, unmatched: [] };
  const commands = literalCommands(await loadBashSyntax(), line, options.shell ?? 'bash');
  if ('reason' in commands) return { allowed: false, unmatched: [line], reason: commands.reason };
  const matchers = cleaned.map(compilePattern);
  const unmatched = commands.words.map((words) => words.join(' ')).filter((text) => !matchers.some((matches) => matches(text)));
  return { allowed: commands.words.length > 0 && unmatched.length === 0, unmatched };
}

/** A pattern's text with `\*` read as a star, when it has no wildcard; undefined when it has one. */
function exactLine(pattern: string): string | undefined {
  const tokens = patternTokens(pattern);
  return tokens.every((token) => token !== wildcard) ? tokens.join('') : undefined;
}

/** A pattern as a test on one command's words joined by single spaces. */
export function compilePattern(pattern: string): (command: string) => boolean {
  const prefix = /^(.*):\*$/s.exec(pattern);
  if (prefix) {
    const head = exactLine(collapseSpaces(prefix[1]));
    if (head !== undefined) return (command) => command === head || command.startsWith(`${head} `);
  }
  const tokens = patternTokens(collapseSpaces(pattern));
  return (command) => wildcardMatches(tokens, command);
}

/** Escapes a command so that, as a pattern, it means exactly that command ("Always" stores these). */
export function literalPattern(command: string): string {
  return command.trim().replace(/[\\*]/g, (character) => `\\${character}`);
}

const wildcard = Symbol('wildcard');
type PatternToken = string | typeof wildcard;

/** One token per character: a star is the wildcard unless escaped; `\\` is a backslash. */
function patternTokens(pattern: string): PatternToken[] {
  const tokens: PatternToken[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\' && (pattern[index + 1] === '*' || pattern[index + 1] === '\\')) tokens.push(pattern[++index]);
    else tokens.push(character === '*' ? wildcard : character);
  }
  return tokens;
}

/**
 * Matched without a regular expression: the command comes from model output, and a pattern with several
 * `*` as a backtracking regex could take seconds on a long crafted line. Greedy, falling back only to the
 * last wildcard (linear for the patterns people write).
 */
function wildcardMatches(pattern: readonly PatternToken[], text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let starText = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== wildcard && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === wildcard) {
      star = p++;
      starText = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++starText;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === wildcard) p++;
  return p === pattern.length;
}

function collapseSpaces(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}
