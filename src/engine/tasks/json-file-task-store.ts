/**
 * Task history in one JSON file, written so that a crash at any moment leaves either the old file or the
 * new one, never a mix: the new content goes to a temp file in the same directory, is fsynced, then
 * renamed over the old one (rename within a directory is atomic). Saves are coalesced: at most one write
 * is in flight, and any saves made meanwhile collapse into one more write of the latest state.
 */
import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import * as path from 'node:path';
import { errorMessage } from '../errors.js';
import { type Deferred, createDeferred } from '../util/deferred.js';
import { parsePersistedHistory } from './history-schema.js';
import { TaskError } from './task-error.js';
import { type PersistedHistory, type TaskStore, emptyHistory } from './task-store.js';

/** The file operations the store uses; tests inject failing ones to simulate a crash mid-write. */
export interface TaskStoreFileSystem {
  readFile(filePath: string): Promise<string>;
  mkdir(directory: string): Promise<void>;
  /** Opens a file for writing, truncating it (`'w'`). */
  openForWriting(filePath: string): Promise<WritableFile>;
  /** Opens a directory so it can be fsynced (for the rename to be durable); may throw where unsupported. */
  openDirectory(directory: string): Promise<{ sync(): Promise<void>; close(): Promise<void> }>;
  rename(from: string, to: string): Promise<void>;
  /** Gives `from` the name `to` only if nothing has that name yet; rejects with code `EEXIST` otherwise. */
  renameWithoutOverwriting(from: string, to: string): Promise<void>;
  unlink(filePath: string): Promise<void>;
}

export interface WritableFile {
  write(text: string): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export const nodeTaskStoreFileSystem: TaskStoreFileSystem = {
  readFile: (filePath) => nodeFs.readFile(filePath, 'utf8'),
  mkdir: async (directory) => {
    await nodeFs.mkdir(directory, { recursive: true });
  },
  openForWriting: async (filePath) => {
    const handle = await nodeFs.open(filePath, 'w');
    return { write: (text) => handle.writeFile(text, 'utf8'), sync: () => handle.sync(), close: () => handle.close() };
  },
  openDirectory: (directory) => nodeFs.open(directory, 'r'),
  rename: (from, to) => nodeFs.rename(from, to),
  // A hard link cannot replace an existing name, so an earlier copy is never overwritten, even by a race.
  renameWithoutOverwriting: async (from, to) => {
    await nodeFs.link(from, to);
    await nodeFs.unlink(from);
  },
  unlink: (filePath) => nodeFs.unlink(filePath),
};

/** Damaged copies kept side by side at most; past this the newest damaged file is left where it is. */
const maxCorruptCopies = 20;

export interface JsonFileTaskStoreOptions {
  /** Hears about unreadable or damaged history. Default: `console.warn`. */
  onWarning?: (message: string, cause?: unknown) => void;
  /** Default: Node's `fs/promises`. */
  fileSystem?: TaskStoreFileSystem;
}

interface PendingWrite {
  text: string;
  done: Deferred<void>;
}

export class JsonFileTaskStore implements TaskStore {
  private readonly fileSystem: TaskStoreFileSystem;
  private readonly warn: (message: string, cause?: unknown) => void;
  private next: PendingWrite | null = null;
  private writing = false;
  /** Completed writes, for tests and diagnostics. */
  writes = 0;

  constructor(
    readonly filePath: string,
    options: JsonFileTaskStoreOptions = {},
  ) {
    this.fileSystem = options.fileSystem ?? nodeTaskStoreFileSystem;
    this.warn = options.onWarning ?? ((message, cause) => console.warn(message, cause ?? ''));
  }

  /**
   * Never throws: no file is an empty history; an unreadable or damaged one is an empty history with a
   * warning, and an unusable file — or one with damaged records the next save would drop — is first moved
   * aside to `<file>.corrupt` so the next save loses nothing that could still be rescued by hand. Stray temp files from a crashed write are ignored.
   */
  async load(): Promise<PersistedHistory> {
    let text: string;
    try {
      text = await this.fileSystem.readFile(this.filePath);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT') {
        this.warn(`Could not read task history ${this.filePath}: ${errorMessage(error)}; starting with an empty history.`, error);
      }
      return emptyHistory();
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const kept = await this.setAside();
      this.warn(`Task history ${this.filePath} is damaged (${errorMessage(error)}); starting with an empty history${kept}.`, error);
      return emptyHistory();
    }
    let recordsSkipped = false;
    const history = parsePersistedHistory(value, (message) => {
      recordsSkipped = true;
      this.warn(`${message} (${this.filePath})`);
    });
    if (history) {
      // The next save would drop the damaged records for good: the file as it was is kept beside it first.
      if (recordsSkipped) {
        const kept = await this.setAside();
        if (kept) this.warn(`The task history with its damaged records was kept${kept}.`);
      }
      return history;
    }
    const kept = await this.setAside();
    if (kept) this.warn(`The unusable task history was kept${kept}.`);
    return emptyHistory();
  }

  /** Resolves once a write containing this history (or a later one) is on disk. */
  save(history: PersistedHistory): Promise<void> {
    // Serialized now: the caller may change its objects before the write starts.
    const text = JSON.stringify(history);
    if (this.next) {
      this.next.text = text;
      return this.next.done.promise;
    }
    this.next = { text, done: createDeferred<void>() };
    const promise = this.next.done.promise;
    if (!this.writing) void this.drain();
    return promise;
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.next) {
        const write = this.next;
        this.next = null;
        try {
          await this.writeAtomically(write.text);
          this.writes++;
          write.done.resolve();
        } catch (error) {
          write.done.reject(
            new TaskError('store', `Could not save task history to ${this.filePath}: ${errorMessage(error)}`, { cause: error }),
          );
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeAtomically(text: string): Promise<void> {
    const directory = path.dirname(this.filePath);
    await this.fileSystem.mkdir(directory);
    const tempPath = path.join(directory, `.${path.basename(this.filePath)}.${randomBytes(6).toString('hex')}.tmp`);
    let file: WritableFile | undefined;
    try {
      file = await this.fileSystem.openForWriting(tempPath);
      await file.write(text);
      await file.sync();
      await file.close();
      file = undefined;
      await this.fileSystem.rename(tempPath, this.filePath);
    } catch (error) {
      await file?.close().catch(() => {});
      await this.fileSystem.unlink(tempPath).catch(() => {});
      throw error;
    }
    await this.syncDirectory(directory);
  }

  /** Makes the rename itself durable where the platform allows it (not on Windows); best effort. */
  private async syncDirectory(directory: string): Promise<void> {
    try {
      const handle = await this.fileSystem.openDirectory(directory);
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch {
      // Directory fsync is unsupported on some platforms; the rename has happened either way.
    }
  }

  /**
   * Moves an unusable file to `<file>.corrupt` (or `.corrupt-2`, `-3`, … when earlier copies exist: an
   * earlier damaged history is never overwritten); returns words for the warning ('' when it could not).
   */
  private async setAside(): Promise<string> {
    for (let copy = 1; copy <= maxCorruptCopies; copy++) {
      const asidePath = copy === 1 ? `${this.filePath}.corrupt` : `${this.filePath}.corrupt-${copy}`;
      try {
        await this.fileSystem.renameWithoutOverwriting(this.filePath, asidePath);
        return ` (the old file is kept as ${asidePath})`;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        this.warn(`Could not move the damaged task history aside: ${errorMessage(error)}`, error);
        return '';
      }
    }
    this.warn(`Could not move the damaged task history aside: ${maxCorruptCopies} damaged copies are kept already; delete old ones.`);
    return '';
  }
}
