/** Where every task is in its lifecycle: what a stall diagnostic names and the lifecycle tests check. */
import type { TaskPhase } from './task-lifecycle.js';
import type { TaskRecord } from './task-record.js';

export interface LifecycleReport {
  slotsInUse: number;
  /** Tasks in the slot queue (new ones and ones resuming after a wait). */
  queued: number;
  tasks: Array<{
    id: string;
    role: string;
    description: string;
    phase: TaskPhase;
    openWaits: number;
    userWaits: number;
    holdsSlot: boolean;
  }>;
}

export function lifecycleReportOf(records: readonly TaskRecord[], slots: { slotsInUse: number; queued: number }): LifecycleReport {
  return {
    slotsInUse: slots.slotsInUse,
    queued: slots.queued,
    tasks: records.map((record) => ({
      id: record.id,
      role: record.role,
      description: record.description,
      phase: record.phase,
      openWaits: record.openWaits,
      userWaits: record.userWaits,
      holdsSlot: record.holdsSlot,
    })),
  };
}

/** Counts the tasks each run (a root and its tree) has started, and refuses past the limit. */
export class RunSizeLimit {
  private readonly started = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Counts one more task of the run of `rootId`; throws past the limit (the root counts as one). */
  count(rootId: string, refuse: (limit: number) => Error): void {
    const started = this.started.get(rootId) ?? 1;
    if (started >= this.limit) throw refuse(this.limit);
    this.started.set(rootId, started + 1);
  }

  forget(rootId: string): void {
    this.started.delete(rootId);
  }
}
