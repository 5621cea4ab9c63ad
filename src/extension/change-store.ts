/**
 * Keeps the change sets that still have something to review in the workspace's storage, next to the task
 * history, so a window reload loses no proposal. Saves are coalesced; a damaged file is set aside and
 * the review starts empty rather than failing activation.
 */
import * as vscode from 'vscode';
import * as z from 'zod';
import {
  builtOnFirstUse,
  ChangeSet,
  type ChangeSetRegistry,
  type ChangeSetSnapshot,
  changeSetSnapshotSchemas,
  type Clock,
  errorMessage,
  systemClock,
} from '../engine/index.js';
import { ChangeSetBytes, joined } from './change-set-bytes.js';

// The engine's own change-set schema, lenient: fields of a newer version are dropped, not fatal. Built at
// the first read (B5 in docs/performance.md).
const storedSchema = builtOnFirstUse(() => z.object({ version: z.literal(1), changeSets: z.array(changeSetSnapshotSchemas.lenient) }));

export interface ChangeSetStoreOptions {
  /** Quiet time before a save. Default 300 ms. */
  saveDelayMs?: number;
  /** Default `systemClock`. */
  clock?: Clock;
  onWarning: (message: string) => void;
}

export class ChangeSetStore implements vscode.Disposable {
  private cancelTimer: (() => void) | undefined;
  private saving: Promise<void> = Promise.resolve();
  private unsubscribe: (() => void) | undefined;
  /** The saved sets' contents as JSON bytes, kept from one save to the next. */
  private readonly bytes = new ChangeSetBytes();

  constructor(
    private readonly file: vscode.Uri,
    private readonly registry: ChangeSetRegistry,
    private readonly options: ChangeSetStoreOptions,
  ) {}

  /**
   * Restores saved sets into the registry, then saves on every change. Sets the registry already has are
   * kept, and sets of tasks no longer in the history (`isKnownTask` false) are dropped: a new task that
   * got the same id must start with an empty change set.
   */
  async load(isKnownTask: (taskId: string) => boolean = () => true): Promise<void> {
    for (const snapshot of await this.read()) {
      if (this.registry.get(snapshot.taskId) || !isKnownTask(snapshot.taskId)) continue;
      try {
        this.registry.add(ChangeSet.fromSnapshot(snapshot));
      } catch (error) {
        this.options.onWarning(`Could not restore the proposed changes of task ${snapshot.taskId}: ${errorMessage(error)}`);
      }
    }
    this.unsubscribe ??= this.registry.onEvent(() => this.scheduleSave());
  }

  /** Writes now what is pending (on shutdown). */
  async flush(): Promise<void> {
    if (this.cancelTimer) {
      this.cancelTimer();
      this.cancelTimer = undefined;
      this.queueSave();
    }
    await this.saving;
  }

  /** Saves soon (after a removal, say, which the registry does not announce). */
  scheduleSave(): void {
    this.cancelTimer?.();
    this.cancelTimer = (this.options.clock ?? systemClock).setTimer(() => {
      this.cancelTimer = undefined;
      this.queueSave();
    }, this.options.saveDelayMs ?? 300);
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private queueSave(): void {
    this.saving = this.saving
      .then(() => this.write())
      .catch((error: unknown) => {
        this.options.onWarning(`Could not save the proposed changes: ${errorMessage(error)}`);
      });
  }

  private async read(): Promise<ChangeSetSnapshot[]> {
    let bytes: Uint8Array;
    try {
      bytes = await vscode.workspace.fs.readFile(this.file);
    } catch {
      return []; // nothing saved yet
    }
    try {
      return storedSchema().parse(JSON.parse(new TextDecoder().decode(bytes))).changeSets;
    } catch (error) {
      this.options.onWarning(
        `The saved proposed changes are damaged (${errorMessage(error)}); they were moved aside to ${this.file.path}.corrupt.`,
      );
      await Promise.resolve(
        vscode.workspace.fs.rename(this.file, this.file.with({ path: `${this.file.path}.corrupt` }), { overwrite: true }),
      ).catch(() => undefined);
      return [];
    }
  }

  private async write(): Promise<void> {
    // `{ version: 1, changeSets }` of the sets with pending files as JSON, without holding the event loop
    // (change-set-bytes.ts). A set that changes meanwhile is saved again by the save its change schedules.
    const comma = new TextEncoder().encode(',');
    const parts: Uint8Array[] = [new TextEncoder().encode('{"version":1,"changeSets":[')];
    const saved = new Set<string>();
    for (const changeSet of this.registry.list()) {
      const snapshot = changeSet.snapshot();
      if (!snapshot.files.some((file) => file.status === 'pending')) continue;
      if (saved.size > 0) parts.push(comma);
      parts.push(...(await this.bytes.of(snapshot)));
      saved.add(snapshot.taskId);
    }
    this.bytes.keepOnly(saved);
    parts.push(new TextEncoder().encode(']}'));
    const temporary = this.file.with({ path: `${this.file.path}.tmp` });
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(this.file, '..'));
    // Written aside, then renamed over the old file, so a crash leaves the old or the new, never a mix.
    await vscode.workspace.fs.writeFile(temporary, await joined(parts));
    await vscode.workspace.fs.rename(temporary, this.file, { overwrite: true });
  }
}
