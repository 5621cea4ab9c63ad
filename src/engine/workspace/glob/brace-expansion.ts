import { WorkspaceError } from '../../errors.js';
import { classEnd, matchingClose } from './character-class.js';

/** Most patterns one glob's braces may expand to (`{a,b}{c,d}` is four). */
export const maxBraceExpansions = 256;

/**
 * Expands a glob's braces as picomatch and the shells do: `{a,b}` alternatives (nested, possibly empty,
 * possibly holding `/`) and `{1..5}`, `{01..10}`, `{a..e}` ranges with an optional step. A brace with
 * neither a top-level comma nor a range (`{a}`, `a{b`) stays literal. Backslash escapes and `[...]`
 * classes are left untouched. Refuses (clear error) patterns that expand to more than `maxBraceExpansions`.
 */
export function expandBraces(pattern: string, originalPattern = pattern): string[] {
  const results: string[] = [];
  const pending = [pattern];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const brace = findExpandableBrace(current, originalPattern);
    if (!brace) {
      results.push(current);
      if (results.length > maxBraceExpansions) throw tooManyExpansions(originalPattern);
      continue;
    }
    const prefix = current.slice(0, brace.open);
    const suffix = current.slice(brace.close + 1);
    // Reversed so that the results come out in the pattern's order.
    for (const alternative of [...brace.alternatives].reverse()) pending.push(prefix + alternative + suffix);
    if (results.length + pending.length > maxBraceExpansions) throw tooManyExpansions(originalPattern);
  }
  return results;
}

interface ExpandableBrace {
  open: number;
  close: number;
  alternatives: string[];
}

/** The first `{...}` that expands (has a top-level comma or is a range), or undefined. */
function findExpandableBrace(pattern: string, originalPattern: string): ExpandableBrace | undefined {
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') {
      index++;
    } else if (character === '[') {
      index = classEnd(pattern, index) ?? index;
    } else if (character === '{') {
      const close = matchingClose(pattern, index, '{', '}');
      if (close === undefined) continue;
      const body = pattern.slice(index + 1, close);
      const alternatives = splitTopLevelCommas(body) ?? expandRange(body, originalPattern);
      if (alternatives) return { open: index, close, alternatives };
    }
  }
  return undefined;
}

/** The body's top-level alternatives, or undefined when it has no top-level comma. */
function splitTopLevelCommas(body: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < body.length; index++) {
    const character = body[index];
    if (character === '\\') index++;
    else if (character === '[') index = classEnd(body, index) ?? index;
    else if (character === '{') depth++;
    else if (character === '}') depth--;
    else if (character === ',' && depth === 0) {
      parts.push(body.slice(start, index));
      start = index + 1;
    }
  }
  if (parts.length === 0) return undefined;
  parts.push(body.slice(start));
  return parts;
}

const numericRange = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/;
const letterRange = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/;

function expandRange(body: string, originalPattern: string): string[] | undefined {
  const numeric = numericRange.exec(body);
  if (numeric) {
    const [, first, last, step] = numeric;
    const width = /^-?0\d/.test(first) || /^-?0\d/.test(last) ? Math.max(first.length, last.length) : 0;
    return rangeValues(Number(first), Number(last), step, originalPattern).map((value) => padNumber(value, width));
  }
  const letters = letterRange.exec(body);
  if (letters) {
    const [, first, last, step] = letters;
    return rangeValues(first.charCodeAt(0), last.charCodeAt(0), step, originalPattern).map((code) => String.fromCharCode(code));
  }
  return undefined;
}

function rangeValues(first: number, last: number, stepText: string | undefined, originalPattern: string): number[] {
  const step = Math.abs(Number(stepText ?? 1)) || 1;
  const count = Math.floor(Math.abs(last - first) / step) + 1;
  // Checked before building the list: `{1..1000000000}` must not allocate a billion strings first.
  if (!(count <= maxBraceExpansions)) throw tooManyExpansions(originalPattern);
  const direction = last >= first ? 1 : -1;
  return Array.from({ length: count }, (_, index) => first + direction * step * index);
}

function padNumber(value: number, width: number): string {
  const digits = String(Math.abs(value)).padStart(width - (value < 0 ? 1 : 0), '0');
  return value < 0 ? `-${digits}` : digits;
}

function tooManyExpansions(pattern: string): WorkspaceError {
  return new WorkspaceError(
    'invalid',
    `The glob ${JSON.stringify(pattern)} expands to more than ${maxBraceExpansions} patterns through its {…} braces. Use fewer alternatives or a wildcard such as *.`,
  );
}
