/**
 * One agent's instruction files: at its start the user's own, the workspace root's and Copilot's files
 * that apply everywhere; then, as it works on files in a folder, that folder's (and every folder's
 * between it and the root) AGENTS.md and CLAUDE.md and the Copilot files whose `applyTo` matches, each
 * given once, nearest last (the nearest rules win, as in Codex and Claude Code). All of them together
 * stay under `maxInstructionBytesPerTask`; past it, files are named instead of given.
 */
import { readCopilotInstructions, type ScopedInstructions } from './copilot-instructions.js';
import type { InstructionFile, InstructionReader, ReadOutcome } from './instruction-reader.js';
import { type InstructionSource, maxInstructionBytesPerTask, nestedFiles, rootFiles, userFiles } from './instruction-sources.js';

export interface InstructionBatch {
  files: InstructionFile[];
  /** Files not given: over the task's budget, or unreadable (each with the reason). */
  problems: string[];
}

export class TaskInstructions {
  private readonly given = new Set<string>();
  private readonly checkedFolders = new Set<string>(['']);
  private spent = 0;
  private scoped: ScopedInstructions[] = [];

  constructor(
    private readonly reader: InstructionReader,
    private readonly sources: ReadonlySet<InstructionSource>,
  ) {}

  /** What the agent gets before its first turn. */
  async start(): Promise<InstructionBatch> {
    const outcomes: Array<ReadOutcome | undefined> = [];
    for (const file of userFiles) if (this.sources.has(file.source)) outcomes.push(await this.reader.userFile(file.path));
    for (const file of rootFiles) if (this.sources.has(file.source)) outcomes.push(await this.reader.workspaceFile(file.path));
    const problems: string[] = [];
    if (this.sources.has('copilot')) {
      const copilot = await readCopilotInstructions(this.reader);
      this.scoped = copilot.scoped;
      problems.push(...copilot.problems);
      outcomes.push(...this.scoped.filter((entry) => entry.everywhere).map((entry) => ({ file: entry.file })));
    }
    const batch = this.take(outcomes);
    return { files: batch.files, problems: [...problems, ...batch.problems] };
  }

  /** What applies to these workspace-relative paths (files, or folders) that the agent has not had yet. */
  async forPaths(targets: ReadonlyArray<{ path: string; folder: boolean }>): Promise<InstructionBatch> {
    const outcomes: Array<ReadOutcome | undefined> = [];
    for (const target of targets) {
      const folders = foldersDownTo(target).filter((folder) => !this.checkedFolders.has(folder));
      for (const folder of folders) {
        this.checkedFolders.add(folder);
        for (const file of nestedFiles)
          if (this.sources.has(file.source)) outcomes.push(await this.reader.workspaceFile(`${folder}/${file.name}`));
      }
      if (!target.folder)
        outcomes.push(...this.scoped.filter((entry) => entry.applies(target.path)).map((entry) => ({ file: entry.file })));
    }
    return this.take(outcomes);
  }

  private take(outcomes: ReadonlyArray<ReadOutcome | undefined>): InstructionBatch {
    const batch: InstructionBatch = { files: [], problems: [] };
    for (const outcome of outcomes) {
      if (!outcome) continue;
      if ('problem' in outcome) {
        batch.problems.push(outcome.problem);
        continue;
      }
      const { file } = outcome;
      if (this.given.has(file.label) || file.text === '') continue;
      this.given.add(file.label);
      const bytes = Buffer.byteLength(file.text);
      if (this.spent + bytes > maxInstructionBytesPerTask) {
        batch.problems.push(
          `${file.label} was not given: this agent's instruction files are already at their limit of ${maxInstructionBytesPerTask / 1024} KiB`,
        );
        continue;
      }
      this.spent += bytes;
      batch.files.push(file);
    }
    return batch;
  }
}

/** The file `a/b/c.ts` → `a`, `a/b`; the folder `a/b` → `a`, `a/b`: the folders below the root that hold it. */
function foldersDownTo(target: { path: string; folder: boolean }): string[] {
  const parts = target.path.split('/').filter((part) => part !== '' && part !== '.');
  const folders: string[] = [];
  for (let index = 1; index <= parts.length - (target.folder ? 0 : 1); index++) folders.push(parts.slice(0, index).join('/'));
  return folders;
}
