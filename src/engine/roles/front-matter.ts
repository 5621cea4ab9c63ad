import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { echoFreeYamlMessage } from '../workspace/echo-free-parse.js';

/** A role file split into its YAML header and its Markdown body. */
export interface SplitFile {
  /** The text between the `---` lines. */
  header: string;
  /** 1-based file line of the header's first line. */
  headerStartLine: number;
  body: string;
}

/** The parsed header: its top-level fields, and where each one is. */
export interface FrontMatter {
  fields: Record<string, unknown>;
  /** 1-based file line of a top-level field, when it is present. */
  lineOf(field: string): number | undefined;
}

export type Outcome<Value> = { ok: true; value: Value } | { ok: false; message: string; line?: number };

/** Separates `---`-delimited front matter from the body. The file must begin with `---`. */
export function splitFrontMatter(text: string): Outcome<SplitFile> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') {
    return {
      ok: false,
      line: 1,
      message: "has no front matter: the file must start with a '---' line, then YAML fields (at least description), then '---'",
    };
  }
  // YAML also allows '...' to end a document; accept it as the closing line.
  const closing = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (closing === -1) {
    return { ok: false, line: 1, message: "front matter opened with '---' on line 1 is never closed: add a '---' line after the fields" };
  }
  return {
    ok: true,
    value: { header: lines.slice(1, closing).join('\n'), headerStartLine: 2, body: lines.slice(closing + 1).join('\n') },
  };
}

/** Parses the header as strict YAML; it must be a mapping (or empty). */
export function parseYamlHeader(split: SplitFile): Outcome<FrontMatter> {
  const lineCounter = new LineCounter();
  const document = parseDocument(split.header, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const fileLine = (offset: number) => lineCounter.linePos(offset).line + split.headerStartLine - 1;
  const [error] = document.errors;
  if (error) {
    const line = fileLine(error.pos[0]);
    // The parser's words, without the text they quote: a role file may be a link to a secret.
    return { ok: false, line, message: `front matter is not valid YAML: ${echoFreeYamlMessage(error.message)}` };
  }
  let fields: unknown;
  try {
    fields = document.toJS() ?? {};
  } catch (conversionError) {
    return {
      ok: false,
      message: `front matter is not valid YAML: ${echoFreeYamlMessage(conversionError instanceof Error ? conversionError.message : String(conversionError))}`,
    };
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    return {
      ok: false,
      line: split.headerStartLine,
      message: "front matter must be YAML fields ('key: value' lines), not a list or a single value",
    };
  }
  const lines = new Map<string, number>();
  if (isMap(document.contents)) {
    for (const pair of document.contents.items) {
      if (isScalar(pair.key) && pair.key.range) lines.set(String(pair.key.value), fileLine(pair.key.range[0]));
    }
  }
  return { ok: true, value: { fields: fields as Record<string, unknown>, lineOf: (field) => lines.get(field) } };
}
