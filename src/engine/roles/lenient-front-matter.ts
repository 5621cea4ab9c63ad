import { parse } from 'yaml';
import { type FrontMatter, type SplitFile } from './front-matter.js';

/**
 * Reads a header that is not valid YAML as `key: value` lines, the way many Claude Code and Copilot agent
 * files are written (an unquoted description containing `Examples:` or `user: "…"`, continuation lines
 * that are not indented). Only `knownFields` start a new field; every other line continues the current
 * one. Each field's text is parsed as YAML when it can be, and kept as a plain string when it cannot.
 * Returns undefined when the header does not begin with a known field, so the YAML error stands.
 */
export function parseLenientHeader(split: SplitFile, knownFields: ReadonlySet<string>): FrontMatter | undefined {
  const lines = split.header.split('\n');
  const entries: Array<{ field: string; line: number; first: string; rest: string[] }> = [];
  for (const [index, line] of lines.entries()) {
    const match = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$/.exec(line);
    if (match && knownFields.has(match[1])) {
      entries.push({ field: match[1], line: index + split.headerStartLine, first: match[2] ?? '', rest: [] });
      continue;
    }
    const current = entries.at(-1);
    if (current) current.rest.push(line);
    else if (line.trim() !== '' && !line.trimStart().startsWith('#')) return undefined;
  }
  if (entries.length === 0) return undefined;

  const fields: Record<string, unknown> = {};
  const fieldLines = new Map<string, number>();
  for (const entry of entries) {
    // A repeated field keeps its first value, as a reader of the file would expect.
    if (entry.field in fields) continue;
    fields[entry.field] = readValue(entry.field, entry.first, entry.rest);
    fieldLines.set(entry.field, entry.line);
  }
  return { fields, lineOf: (field) => fieldLines.get(field) };
}

function readValue(field: string, first: string, rest: string[]): unknown {
  try {
    const parsed: unknown = parse([`${field}: ${first}`, ...rest].join('\n'), { prettyErrors: false });
    // More than one key means a continuation line looked like a field of its own: keep the raw text.
    if (typeof parsed === 'object' && parsed !== null && Object.keys(parsed).length === 1 && field in parsed) {
      return (parsed as Record<string, unknown>)[field];
    }
  } catch {
    // Not YAML on its own either: fall through to the plain text.
  }
  return unquote([first, ...rest].join('\n').trim());
}

function unquote(text: string): string {
  const quote = text[0];
  if ((quote === '"' || quote === "'") && text.length >= 2 && text.endsWith(quote)) return text.slice(1, -1);
  return text;
}
