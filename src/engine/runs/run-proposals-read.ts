/**
 * A run's proposals folded from its records, in file order: whole `changes` records (every file held
 * whole, as files written before `proposals` records hold them, and the null of a removed set), and
 * `proposals` records naming the texts of the `file-text` records before them (run-proposal-texts.ts).
 * A record is taken only when every text it names is there and checks out: the length it gives, and a
 * base's `baseHash` (hashed once per text). Otherwise (a line before it was lost or damaged) the task's
 * proposals are left out, with a warning naming the line, until a record of them reads whole again: a
 * wrong file is never built.
 */
import { contentHash } from '../changes/file-change.js';
import type { ChangeSetSnapshot, FileChangeSnapshot } from '../changes/types.js';
import type { ChangeSetByText, RunRecord, TextReference } from './run-log-records.js';
import { applyDelta } from './text-delta.js';

interface TextRead {
  text: string;
  /**
   * How many tasks' latest records name it: a proposal's text at 0 again is named by no later record (the
   * writer forgot it too). A base is kept: another task may name it later (run-proposal-texts.ts).
   */
  namedBy: number;
  isBase?: boolean;
  /** The base hash it was found to match. */
  checkedHash?: string;
}

interface LatestProposals {
  changeSet: ChangeSetSnapshot | null;
  textIds: string[];
}

type FileText = Extract<RunRecord, { type: 'file-text' }>;

export class ProposalsBeingRead {
  private readonly texts = new Map<string, TextRead>();
  /** Texts whose line was read but which could not be built: why. */
  private readonly unbuilt = new Map<string, string>();
  private readonly latest = new Map<string, LatestProposals>();
  /** Tasks whose proposals are left out (warned once until they read whole again). */
  private readonly broken = new Set<string>();

  constructor(
    private readonly name: string,
    private readonly warn: (message: string) => void,
  ) {}

  /** A whole `changes` record (or a removed set). */
  addWhole(taskId: string, changeSet: ChangeSetSnapshot | null): void {
    this.broken.delete(taskId);
    this.replace(taskId, { changeSet, textIds: [] });
  }

  addText(record: FileText, lineNumber: number): void {
    if (!record.delta) return void this.texts.set(record.textId, { text: record.text, namedBy: 0 });
    const { from, length } = record.delta;
    const previous = this.texts.get(from);
    const built =
      previous && applyDelta(previous.text, { keepStart: record.delta.keepStart, keepEnd: record.delta.keepEnd, text: record.text });
    if (built !== undefined && built.length === length) return void this.texts.set(record.textId, { text: built, namedBy: 0 });
    // A delta on a text that could not be built either: the first line at fault is the one to name.
    const why = previous
      ? `the text of line ${lineNumber} does not fit the text it builds on`
      : (this.unbuilt.get(from) ?? `the text of line ${lineNumber} builds on a text no line before it holds`);
    this.unbuilt.set(record.textId, why);
  }

  addByText(taskId: string, byText: ChangeSetByText, lineNumber: number): void {
    const files: FileChangeSnapshot[] = [];
    const textIds: string[] = [];
    for (const file of byText.files) {
      const { baseText, proposedText, ...described } = file;
      const base = baseText ? this.textOf(baseText, { hash: file.baseHash }) : { text: null };
      const proposed = this.textOf(proposedText, undefined);
      if ('problem' in base || 'problem' in proposed) {
        const problem = 'problem' in base ? base.problem : 'problem' in proposed ? proposed.problem : '';
        if (!this.broken.has(taskId))
          this.warn(
            `${this.name}: line ${lineNumber} holds task ${taskId}'s proposals, but ${problem} (a line is missing or damaged); they are left out until they are recorded whole again`,
          );
        this.broken.add(taskId);
        return this.replace(taskId, { changeSet: null, textIds: [] });
      }
      files.push({ ...described, baseContent: base.text, proposedContent: proposed.text });
      if (baseText) textIds.push(baseText.textId);
      textIds.push(proposedText.textId);
    }
    this.broken.delete(taskId);
    this.replace(taskId, { changeSet: { ...byText, files }, textIds });
  }

  /** The latest proposals per task, those not removed (nor left out). */
  changeSets(): ChangeSetSnapshot[] {
    return [...this.latest.values()]
      .map((latest) => latest.changeSet)
      .filter((changeSet): changeSet is ChangeSetSnapshot => changeSet !== null);
  }

  /** The text `reference` names, checked; with `base`, its hash the first time the text is named with it. */
  private textOf(reference: TextReference, base: { hash: string | null } | undefined): { text: string } | { problem: string } {
    const read = this.texts.get(reference.textId);
    if (!read) return { problem: this.unbuilt.get(reference.textId) ?? `the text ${reference.textId} it names is in no line before it` };
    if (read.text.length !== reference.length)
      return { problem: `the text ${reference.textId} is ${read.text.length} characters long, not ${reference.length}` };
    if (!base) return read;
    if (base.hash !== null && read.checkedHash !== base.hash) {
      if (contentHash(read.text) !== base.hash) return { problem: `the base ${reference.textId} does not match its hash` };
      read.checkedHash = base.hash;
    }
    read.isBase = true;
    return read;
  }

  /** The task's latest proposals: the texts they name are kept, those its earlier ones alone named let go. */
  private replace(taskId: string, latest: LatestProposals): void {
    for (const textId of latest.textIds) (this.texts.get(textId) as TextRead).namedBy++;
    for (const textId of this.latest.get(taskId)?.textIds ?? []) {
      const read = this.texts.get(textId);
      if (read && --read.namedBy === 0 && !read.isBase) this.texts.delete(textId);
    }
    this.latest.set(taskId, latest);
  }
}
