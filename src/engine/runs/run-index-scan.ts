/**
 * The fast path of reading the index (B14): a line exactly as the index writes it (`JSON.stringify` of a
 * summary: these fields in this order, no spaces) is checked by one regular expression, about eight times
 * faster than `JSON.parse`, and only what every open needs of it (the run, its time and size) is taken
 * from the match: its tasks are split out when first asked for, the rest parsed whole (`readSummary`)
 * when a run is asked for. Most of an open's cost was the garbage and the survivors of 10,000 summaries. Any other line
 * goes the slow way (run-index-line.ts), so the pattern accepts only lines that `parseIndexLine` accepts,
 * and yields the same values: JSON's own string grammar (no raw control characters, only its escapes),
 * integers without sign, fraction, exponent or leading zero, the statuses and run ids it allows.
 */
import { parseIndexLine, type RunSummary } from './run-index-line.js';

const jsonCharacter = String.raw`(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})`;
const count = String.raw`(?:0|[1-9][0-9]{0,15})`;
const writtenLine = new RegExp(
  String.raw`^\{"runId":"([A-Za-z0-9_-]{1,100})","description":"${jsonCharacter}*","role":"${jsonCharacter}*",` +
    String.raw`"status":"(?:queued|running|waiting|completed|failed|stopped|interrupted)","createdAt":${count},` +
    String.raw`"updatedAt":(${count}),"bytes":(${count}),"taskIds":\[((?:"${jsonCharacter}+")(?:,"${jsonCharacter}+")*)?\]` +
    String.raw`(?:,"openTasks":${count})?\}$`,
);

/** A run's summary as the scan left it: what the index's order and totals need; its tasks and the rest on demand. */
export class UnreadSummary {
  private split: string[] | undefined;

  constructor(
    readonly runId: string,
    readonly updatedAt: number,
    readonly bytes: number,
    /** The task ids as written, `"a","b"` (undefined: none). */
    private readonly taskList: string | undefined,
    /** The line, parsed whole by `readSummary`. */
    readonly line: string,
  ) {}

  get taskIds(): string[] {
    return (this.split ??= taskIdsOf(this.taskList));
  }
}

export type IndexEntry = RunSummary | UnreadSummary;

/**
 * Longer lines go the slow way: the pattern's engine keeps a backtracking entry per character and gives up
 * (a RangeError) somewhere past a megabyte. An index line holds a few hundred characters, more only for a
 * run of thousands of tasks.
 */
const maxScannedCharacters = 64 * 1024;

/** The line's summary, unread, when it is exactly as the index writes one; undefined for any other line. */
export function scanIndexLine(line: string): UnreadSummary | undefined {
  if (line.length > maxScannedCharacters) return undefined;
  let match: RegExpExecArray | null;
  try {
    match = writtenLine.exec(line);
  } catch {
    return undefined; // The engine could not finish: the checked parse decides.
  }
  if (match === null) return undefined;
  const [, runId, updatedAt, bytes, taskList] = match;
  return new UnreadSummary(runId!, Number(updatedAt), Number(bytes), taskList, line);
}

/** The task ids of `"a","b"`: split on the quotes between them (a raw quote is never inside one), unless one has an escape. */
function taskIdsOf(list: string | undefined): string[] {
  if (list === undefined) return [];
  if (list.includes('\\')) return JSON.parse(`[${list}]`) as string[];
  return list.slice(1, -1).split('","');
}

/** The entry as a summary: an unread one parsed as `parseIndexLine` parses it (the scan accepted it, so it does too). */
export function readSummary(entry: IndexEntry): RunSummary {
  if (!(entry instanceof UnreadSummary)) return entry;
  const summary = parseIndexLine(entry.line);
  if (summary === undefined || 'removed' in summary) throw new Error(`index line of run ${entry.runId} scanned but not parsed`);
  return summary;
}
