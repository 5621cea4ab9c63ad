/**
 * The last line of defence against a run that can no longer make progress. When Node's event loop runs
 * dry while a run is still waiting (nothing queued, no timer, no request in flight), Node would exit 0
 * without a word; `beforeExit` fires first, and this turns it into a loud failure naming the stuck tasks.
 * It can only fire on a bug in Agent Team: a correct run always has something pending until it ends.
 */
import type { LifecycleReport } from '../engine/index.js';

export interface StallWatchedProcess {
  on(event: 'beforeExit', listener: () => void): unknown;
  off(event: 'beforeExit', listener: () => void): unknown;
}

export class StallGuard {
  /** Resolves with a diagnostic if the event loop runs dry before `dispose`. */
  readonly stalled: Promise<string>;
  private readonly listener: () => void;

  constructor(
    private readonly process: StallWatchedProcess,
    report: () => LifecycleReport,
    maxConcurrent: number,
  ) {
    let resolve: (diagnostic: string) => void = () => {};
    this.stalled = new Promise((settle) => (resolve = settle));
    this.listener = () => resolve(describeStall(report(), maxConcurrent));
    process.on('beforeExit', this.listener);
  }

  dispose(): void {
    this.process.off('beforeExit', this.listener);
  }
}

export function describeStall(report: LifecycleReport, maxConcurrent: number): string {
  const stuck = report.tasks.filter((task) => task.phase !== 'ended');
  const lines = stuck.map(
    (task) =>
      `  ${task.id} ${task.role} "${task.description}": ${task.phase}${task.openWaits > 0 ? `, waiting on ${task.openWaits}` : ''}${task.holdsSlot ? ', holds a slot' : ''}`,
  );
  return [
    `the run stopped making progress with ${stuck.length} task(s) unfinished and nothing left to wait for (${report.slotsInUse} of ${maxConcurrent} slots in use, ${report.queued} queued). This is a bug in Agent Team; please report it with these lines:`,
    ...lines,
  ].join('\n');
}
