/**
 * What one run file already holds of its tasks' proposals, so that a change to them writes what changed
 * and no more. A proposal's record once carried every file whole (its base and its proposal) at every
 * edit: megabytes a turn for an edit of a big file, written on the event loop (B15 in docs/performance.md).
 * Now each text goes in a `file-text` record of its own and the `proposals` record names it:
 * - a file's base is written once (it stays the same for as long as a task proposes the file), and once
 *   for every task that proposes that file from the same base (ten agents editing one big file);
 * - a proposal that did not change since the last record is named again, not written again;
 * - a changed proposal is written as a delta of the last one of that file (text-delta.ts): an edit's
 *   lines, not the file. A first proposal, and one whose chain of deltas grew long (`wholeAgain`), is a
 *   delta of the file's base; a proposal mostly rewritten, or of a new file, is written whole.
 *
 * Text ids start with a tag drawn anew for each memory, and a memory lasts no longer than the run's file
 * is open in this process (run-storage.ts forgets it when the file is closed, its records lost or the run
 * removed): a record never names a text written by another process or before a reopen, whose line the
 * reader could not tell from a lost one. The reader (run-proposals-read.ts) keeps every base it reads, and
 * drops a proposal's text once no task's latest record names it: this memory names only bases, and
 * proposals the last record of their task named or the records since wrote.
 */
import { randomBytes } from 'node:crypto';
import type { ChangeSetSnapshot, FileChangeSnapshot } from '../changes/types.js';
import type { FileChangeByText, RunRecord, TextReference } from './run-log-records.js';
import { deltaBetween } from './text-delta.js';

interface WrittenText {
  textId: string;
  text: string;
}

interface WrittenFile {
  base: WrittenText | null;
  proposed: WrittenText;
  /** Deltas in the chain that builds the proposal from a whole text, and their characters. */
  deltas: number;
  deltaCharacters: number;
}

/** Deltas in a chain at most: a lost line leaves out that many records of the task's proposals at most. */
const maxDeltasInRow = 50;

/** Adds a record to the run's next write; false when it was not kept (over the size cap). */
export type AddRecord = (record: RunRecord) => boolean;

export class ProposalTextsWritten {
  private readonly tag = randomBytes(6).toString('base64url');
  private written = 0;
  /** Per task, per path: the texts its last record named. */
  private readonly tasks = new Map<string, Map<string, WrittenFile>>();
  /** Per path: the last base written, for the next task that proposes the file from the same base. */
  private readonly bases = new Map<string, WrittenText>();

  /**
   * Adds the records that tell the task's proposals as they are now: the texts not yet in the file, then
   * the `proposals` record naming them (a removed set: a `changes` record of null). A text the writer
   * refuses (over the cap) leaves the task's record unwritten and the task forgotten here, so its next
   * record writes whole.
   */
  addRecords(taskId: string, changeSet: ChangeSetSnapshot | null, add: AddRecord): void {
    if (changeSet === null) {
      this.tasks.delete(taskId);
      add({ type: 'changes', taskId, changeSet: null });
      return;
    }
    const before = this.tasks.get(taskId);
    const now = new Map<string, WrittenFile>();
    const files: FileChangeByText[] = [];
    for (const file of changeSet.files) {
      const written = this.addFile(taskId, file, before?.get(file.path), add);
      if (!written) {
        this.tasks.delete(taskId);
        return;
      }
      now.set(file.path, written);
      const { baseContent: _base, proposedContent: _proposed, ...described } = file;
      files.push({ ...described, baseText: written.base && referenceTo(written.base), proposedText: referenceTo(written.proposed) });
    }
    // Kept even when the record is refused: the texts are in the file, and the next record may name them.
    this.tasks.set(taskId, now);
    add({ type: 'proposals', taskId, changeSet: { ...changeSet, files } });
  }

  private addFile(taskId: string, file: FileChangeSnapshot, before: WrittenFile | undefined, add: AddRecord): WrittenFile | undefined {
    let base: WrittenText | null = null;
    if (file.baseContent !== null) {
      // The same string as last time, mostly: compared by identity first, in no time.
      const written =
        before?.base && before.base.text === file.baseContent ? before.base : this.addBase(taskId, file.path, file.baseContent, add);
      if (!written) return undefined;
      base = written;
    }
    if (before && before.proposed.text === file.proposedContent) return { ...before, base };
    // Built on the file's last proposal, or else on its base: a first proposal, or one whose chain is long.
    const chain =
      before && !wholeAgain(before) ? { from: before.proposed, ...before } : base && { from: base, deltas: 0, deltaCharacters: 0 };
    if (chain) {
      const delta = deltaBetween(chain.from.text, file.proposedContent);
      // A proposal mostly rewritten is as cheap whole, and then the next delta builds on no chain.
      if (delta.text.length <= file.proposedContent.length / 2) {
        const textId = this.nextId();
        const record: RunRecord = {
          type: 'file-text',
          taskId,
          textId,
          text: delta.text,
          delta: { from: chain.from.textId, keepStart: delta.keepStart, keepEnd: delta.keepEnd, length: file.proposedContent.length },
        };
        if (!add(record)) return undefined;
        return {
          base,
          proposed: { textId, text: file.proposedContent },
          deltas: chain.deltas + 1,
          deltaCharacters: chain.deltaCharacters + delta.text.length,
        };
      }
    }
    const proposed = this.addWhole(taskId, file.proposedContent, add);
    return proposed && { base, proposed, deltas: 0, deltaCharacters: 0 };
  }

  private addBase(taskId: string, path: string, content: string, add: AddRecord): WrittenText | undefined {
    const known = this.bases.get(path);
    if (known && known.text === content) return known;
    const written = this.addWhole(taskId, content, add);
    if (written) this.bases.set(path, written);
    return written;
  }

  private addWhole(taskId: string, text: string, add: AddRecord): WrittenText | undefined {
    const textId = this.nextId();
    return add({ type: 'file-text', taskId, textId, text }) ? { textId, text } : undefined;
  }

  private nextId(): string {
    return `${this.tag}-${++this.written}`;
  }
}

/**
 * True when the next change of the file starts a chain afresh (from the base, or whole): after
 * `maxDeltasInRow` deltas, or once the chain's deltas add up to more than the file (reading it back then
 * costs more than the file whole would).
 */
function wholeAgain(file: WrittenFile): boolean {
  return file.deltas >= maxDeltasInRow || file.deltaCharacters > file.proposed.text.length;
}

function referenceTo(text: WrittenText): TextReference {
  return { textId: text.textId, length: text.text.length };
}
