/**
 * Reads instruction files: a workspace's only from inside it (a link that leads out is refused, as for
 * role files: the file would make whatever it points at the agents' orders), the user's from their home;
 * never more than `maxInstructionFileBytes` of one, a longer one cut with a note.
 */
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../errors.js';
import { readBounded } from '../workspace/bounded-read.js';
import { formatBytes } from '../workspace/text-file.js';
import { isInside } from '../workspace/paths.js';
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
  private realRoot: Promise<string> | undefined;

  constructor(
    readonly root: string,
    readonly home: string | undefined,
  ) {}

  /** A file of the workspace (`/`-separated, relative to the root). */
  async workspaceFile(relative: string): Promise<ReadOutcome | undefined> {
    const absolute = path.join(this.root, ...relative.split('/'));
    const real = await realpath(absolute).catch(() => undefined);
    if (real === undefined) return undefined;
    this.realRoot ??= realpath(this.root);
    if (!isInside(await this.realRoot, real)) return { problem: `${relative} was not read: it is a link that leads outside the workspace` };
    return this.read(real, relative);
  }

  /** A file of the user's home (`/`-separated, relative to it). */
  async userFile(relative: string): Promise<ReadOutcome | undefined> {
    if (this.home === undefined) return undefined;
    const real = await realpath(path.join(this.home, ...relative.split('/'))).catch(() => undefined);
    return real === undefined ? undefined : this.read(real, `~/${relative}`);
  }

  /** The names of the regular entries of a workspace folder; none when it is missing. */
  async list(relativeFolder: string): Promise<string[]> {
    const entries = await readdir(path.join(this.root, ...relativeFolder.split('/')), { withFileTypes: true }).catch(() => []);
    return entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name).sort();
  }

  private async read(real: string, label: string): Promise<ReadOutcome> {
    try {
      const read = await readBounded(real, maxInstructionFileBytes);
      const note = read.cut ? `\n\n[${label} is cut here: it has ${formatBytes(read.size)}, and only the first ${formatBytes(maxInstructionFileBytes)} of an instruction file are given.]` : '';
      return { file: { label, text: `${read.text.trim()}${note}` } };
    } catch (error) {
      return { problem: `${label} was not read: ${errorMessage(error)}` };
    }
  }
}
