/**
 * Stopping a task and everything unfinished below it. All of them are marked stopped first, then aborted,
 * announced and freed, so no queued task of the tree can grab a slot freed by another part of the same stop; a hung
 * work function does not keep its slot (it is freed now, not when the work returns).
 */
import type { StopReason } from '../errors.js';
import { isActivePhase, transition } from './task-lifecycle.js';
import type { TaskRecord } from './task-record.js';
import type { TaskScheduler } from './task-scheduler.js';
import type { TaskTree } from './task-tree.js';
import { descendantReason } from './work-outcome.js';

export interface TreeStopHost {
  tree: TaskTree;
  scheduler: TaskScheduler;
  /** Sets the outcome `stopped` with its reason (and the end time, the partial output). */
  decideStopped(record: TaskRecord, reason: StopReason): void;
  /** A stopped task that had no work to wait for: its `task-end` goes out now. */
  announceEnd(record: TaskRecord): void;
  /** A stopped task whose work is still returning: an update now, its end after the grace period. */
  awaitWork(record: TaskRecord): void;
}

export function stopTree(host: TreeStopHost, top: TaskRecord, reason: StopReason): void {
  const stopped: Array<{ record: TaskRecord; reason: StopReason }> = [];
  const visit = (record: TaskRecord, stopperId: string | null) => {
    let nextStopper = stopperId;
    if (record.phase === 'queued' || isActivePhase(record.phase)) {
      // Frozen: the same object is the signal's reason for the work and the snapshot's stop reason.
      const own: StopReason = Object.freeze(stopperId === null ? { ...reason } : descendantReason(reason, stopperId));
      host.decideStopped(record, own);
      if (record.phase === 'queued' || record.phase === 'resuming') host.scheduler.dequeue(record);
      transition(record, 'stop');
      stopped.push({ record, reason: own });
      nextStopper = record.id;
    }
    for (const child of host.tree.childrenOf(record)) visit(child, nextStopper);
  };
  visit(top, null);
  // Aborted before anyone is told: the requests close first (B3 measures the gap), listeners of the
  // updates below (the sidebar, the history) cannot delay them.
  for (const { record, reason: own } of stopped) record.controller?.abort(own);
  for (const { record } of stopped) {
    if (record.phase === 'ended')
      host.announceEnd(record); // It was queued: there is no work to wait for.
    else host.awaitWork(record);
  }
  for (const { record } of stopped) host.scheduler.leave(record);
}
