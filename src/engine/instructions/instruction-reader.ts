/**
 * Reads instruction files through the one confined reader (../workspace/confined-file-reader.ts): a
 * workspace's only from inside it and by the same rules as `Read` (a link is judged by where it leads:
 * `AGENTS.md -> .env` is a secret, not instructions), the user's from their home by the same rules; never
 * more than `maxInstructionFileBytes` of one, a longer one cut with a note.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ConfinedFileReader, type ConfinedReadOutcome, notReadProblem } from '../workspace/confined-file-reader.js';
import { formatBytes } from '../workspace/text-file.js';
import { maxInstructionFileBytes } from './instruction-sources.js';

/** A file read, as an agent will see it. */
export interface InstructionFile {
  /** How it is named to the agent and the user: workspace-relative, or `~/…` for the user's own. */
  label: string;
  text: string;
}

/** A file that exists, read or not; undefined from the reader when there is no such file. */
export type ReadOutcome = { file: InstructionFile } | { problem: string };

export class InstructionReader {
  private readonly workspace: ConfinedFileReader;
  private readonly userFolder: ConfinedFileReader | undefined;

  constructor(
    readonly root: string,
    readonly home: string | undefined,
  ) {
    this.workspace = new ConfinedFileReader(root);
    this.userFolder =
      home === undefined ? undefined : new ConfinedFileReader(home, { folderName: 'your home folder', refuseLinksToIgnored: false });
  }

  /** A file of the workspace (`/`-separated, relative to the root). */
  async workspaceFile(relative: string): Promise<ReadOutcome | undefined> {
    return described(await this.workspace.read(relative, maxInstructionFileBytes), relative);
  }

  /** A file of the user's home (`/`-separated, relative to it). */
  async userFile(relative: string): Promise<ReadOutcome | undefined> {
    if (this.userFolder === undefined) return undefined;
    return described(await this.userFolder.read(relative, maxInstructionFileBytes), `~/${relative}`);
  }

  /** The names of the regular entries of a workspace folder; none when it is missing. */
  async list(relativeFolder: string): Promise<string[]> {
    const entries = await readdir(path.join(this.root, ...relativeFolder.split('/')), { withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => !entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  }
}

/** The reader's outcome as an agent and the user see it: the text (cut with a note), or why it was not read. */
function described(outcome: ConfinedReadOutcome, label: string): ReadOutcome | undefined {
  if (outcome === undefined) return undefined;
  if ('refused' in outcome) return { problem: notReadProblem(label, outcome.refused) };
  const { read } = outcome;
  const note = read.cut
    ? `\n\n[${label} is cut here: it has ${formatBytes(read.size)}, and only the first ${formatBytes(maxInstructionFileBytes)} of an instruction file are given.]`
    : '';
  return { file: { label, text: `${read.text.trim()}${note}` } };
}
