import { BashSyntaxError, type BashSyntax, type ShellNode, type ShellVariant } from './bash-syntax.js';
import { literalWord } from './literal-words.js';

/**
 * A command line as bash parses it, reduced to the literal words of each simple command it runs, or the
 * reason it is more than that (expansions, substitutions, redirections other than the harmless ones,
 * control flow…). command-patterns.ts matches the words against the user's patterns; anything this file
 * cannot read as literal words is asked about, never guessed.
 */

/** Each simple command's literal words, or why the line is more than that. */
export function literalCommands(syntax: BashSyntax, line: string, shell: ShellVariant): { words: string[][] } | { reason: string } {
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
