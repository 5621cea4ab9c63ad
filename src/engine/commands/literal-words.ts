import type { BashSyntax, ShellNode } from './bash-syntax.js';

/**
 * One word of a command as the program receives it, when it is literal: plain text, '…' and "…" without
 * expansions. A word that would expand (a variable, a glob, a brace, `~`, a substitution) is a reason,
 * not a value: its text is not what runs.
 */

/** The word as the program receives it, when it is literal. */
export function literalWord(syntax: BashSyntax, word: ShellNode): string | { reason: string } {
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
