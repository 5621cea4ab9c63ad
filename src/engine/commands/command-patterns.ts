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
import { BashSyntaxError, loadBashSyntax, type BashSyntax, type ShellNode, type ShellVariant } from './bash-syntax.js';

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

/** Each simple command's literal words, or why the line is more than that. */
function literalCommands(syntax: BashSyntax, line: string, shell: ShellVariant): { words: string[][] } | { reason: string } {
  let file: ShellNode;
  try {
    file = syntax.parse(line, shell);
  } catch (error) {
    if (error instanceof BashSyntaxError) return { reason: `it does not parse as bash: ${error.message}` };
    throw error;
  }
  if (hasComments(file)) return { reason: 'it has a comment' };
  const words: string[][] = [];
  for (const statement of (file.Stmts as ShellNode[] | null) ?? []) {
    const reason = collectStatement(syntax, statement, words);
    if (reason !== undefined) return { reason };
  }
  return { words };
}

function hasComments(file: ShellNode): boolean {
  const statements = (file.Stmts as ShellNode[] | null) ?? [];
  const commented = (node: ShellNode) => ((node.Comments as unknown[] | null) ?? []).length > 0;
  return (
    ((file.Last as unknown[] | null) ?? []).length > 0 ||
    statements.some(function visit(statement: ShellNode): boolean {
      if (commented(statement)) return true;
      const command = statement.Cmd as ShellNode | null;
      return (
        command !== null &&
        command !== undefined &&
        ([command.X, command.Y] as Array<ShellNode | undefined>).some((side) => side !== undefined && side !== null && visit(side))
      );
    })
  );
}

const listOperators = new Set(['&&', '||', '|', '|&']);

function collectStatement(syntax: BashSyntax, statement: ShellNode, words: string[][]): string | undefined {
  if (statement.Negated) return 'it negates a command (!)';
  if (statement.Background) return 'it starts a command in the background (&)';
  if (statement.Coprocess) return 'it starts a coprocess';
  for (const redirect of (statement.Redirs as ShellNode[] | null) ?? []) {
    if (!harmlessRedirect(syntax, redirect)) return 'it redirects input or output to a file';
  }
  const command = statement.Cmd as ShellNode | null;
  if (!command) return 'it has a statement without a command';
  const type = syntax.nodeType(command);
  if (type === 'BinaryCmd') {
    const operator = syntax.operator(command.Op);
    if (operator === undefined || !listOperators.has(operator)) return `it uses the operator ${operator ?? 'unknown'}`;
    return collectStatement(syntax, command.X as ShellNode, words) ?? collectStatement(syntax, command.Y as ShellNode, words);
  }
  if (type !== 'CallExpr') return `it uses ${describeCompound(type)}`;
  if (((command.Assigns as unknown[] | null) ?? []).length > 0) return 'it sets a variable for the command';
  const values: string[] = [];
  for (const word of (command.Args as ShellNode[] | null) ?? []) {
    const value = literalWord(syntax, word);
    if (typeof value !== 'string') return value.reason;
    values.push(value);
  }
  if (values.length === 0) return 'it has a statement without a command';
  words.push(values);
  return undefined;
}

function describeCompound(type: string): string {
  const names: Record<string, string> = {
    Subshell: 'a subshell',
    Block: 'a { … } block',
    IfClause: 'if',
    WhileClause: 'a loop',
    ForClause: 'a loop',
    CaseClause: 'case',
    FuncDecl: 'a function',
    ArithmCmd: 'arithmetic',
    TestClause: '[[ … ]]',
    DeclClause: 'a declaration',
    LetClause: 'let',
    TimeClause: 'time',
    CoprocClause: 'a coprocess',
  };
  return names[type] ?? type;
}

/** The word as the program receives it, when it is literal. */
function literalWord(syntax: BashSyntax, word: ShellNode): string | { reason: string } {
  let value = '';
  for (const part of (word.Parts as ShellNode[] | null) ?? []) {
    const type = syntax.nodeType(part);
    if (type === 'Lit') {
      const unescaped = unquotedLiteral(String(part.Value), value);
      if (typeof unescaped !== 'string') return unescaped;
      value += unescaped;
    } else if (type === 'SglQuoted') {
      if (part.Dollar) return { reason: "it uses ANSI-C quoting ($'…')" };
      value += String(part.Value);
    } else if (type === 'DblQuoted') {
      if (part.Dollar) return { reason: 'it uses a translated string ($"…")' };
      for (const inner of (part.Parts as ShellNode[] | null) ?? []) {
        if (syntax.nodeType(inner) !== 'Lit') return { reason: describePart(syntax.nodeType(inner)) };
        value += doubleQuotedLiteral(String(inner.Value));
      }
    } else {
      return { reason: describePart(type) };
    }
  }
  return value;
}

function describePart(type: string): string {
  const names: Record<string, string> = {
    ParamExp: 'it expands a variable',
    CmdSubst: 'it substitutes a command',
    ProcSubst: 'it substitutes a process',
    ArithmExp: 'it expands arithmetic',
    ExtGlob: 'it has an extended glob',
    BraceExp: 'it has a brace expansion',
  };
  return names[type] ?? `it uses ${type}`;
}

/**
 * An unquoted literal with its backslashes removed, or why it is not literal: an unescaped glob or brace,
 * or a `~` bash would expand. `before` is the word's text so far.
 */
function unquotedLiteral(raw: string, before: string): string | { reason: string } {
  let value = '';
  for (let index = 0; index < raw.length; index++) {
    const character = raw[index];
    if (character === '\\') {
      const next = raw[++index];
      if (next !== undefined && next !== '\n') value += next;
      continue;
    }
    if ('*?[{}'.includes(character)) return { reason: 'it has a glob or brace pattern that expands to names' };
    if (character === '~' && tildeExpands(before + value)) return { reason: 'it expands ~' };
    value += character;
  }
  return value;
}

/**
 * Whether bash expands a `~` after `before`: at a word's start, and, in a word that looks like an
 * assignment (`name=…`, even as a command's argument), right after its first `=` or after a `:`.
 * (`HEAD~1` keeps its tilde.)
 */
function tildeExpands(before: string): boolean {
  if (before === '') return true;
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(before)) return false;
  return before.endsWith(':') || before.indexOf('=') === before.length - 1;
}

/** Inside double quotes a backslash quotes only `$`, a backquote, `"`, `\` and a new line. */
function doubleQuotedLiteral(raw: string): string {
  return raw.replace(/\\([$`"\\\n])/g, (_match, character: string) => (character === '\n' ? '' : character));
}

/** `2>&1`, `>&2`, `>/dev/null`, `2>>/dev/null`, `&>/dev/null`, `</dev/null`. */
function harmlessRedirect(syntax: BashSyntax, redirect: ShellNode): boolean {
  const operator = syntax.operator(redirect.Op);
  const word = redirect.Word ? literalWord(syntax, redirect.Word as ShellNode) : undefined;
  const descriptor = redirect.N ? String((redirect.N as ShellNode).Value) : undefined;
  if (typeof word !== 'string' || (descriptor !== undefined && !['0', '1', '2'].includes(descriptor))) return false;
  if (operator === '>&') return word === '1' || word === '2';
  if (operator === '>' || operator === '>>' || operator === '&>' || operator === '&>>' || operator === '<') return word === '/dev/null';
  return false;
}
