/**
 * The engine's long-lived core: the task manager and the change sets, with the run history that records
 * them, and the shutdown that ends them. `createEngine` builds it; a host that shows tasks before the
 * engine proper exists (the extension's sidebar, from activation) builds it first with `createEngineCore`
 * and hands it to `createEngine`, which then owns it. No host constructs these parts itself
 * (test/architecture/composition.test.ts).
 */
import { ChangeSetRegistry } from '../changes/registry.js';
import type { Clock } from '../clock.js';
import type { ModelPrice } from '../model/model-prices.js';
import { TaskManager } from '../tasks/task-manager.js';
import type { TaskStore } from '../tasks/task-store.js';
import { EngineShutdown } from './engine-shutdown.js';

/** The host's history store port: where tasks are loaded from and recorded to. */
export interface EngineHistory {
  /** The tasks the manager starts from. Default: none. */
  store?: TaskStore;
  /** Ids no task of the history has. Default: the manager's own sequence. */
  generateId?: () => string;
  /** Follows the manager's events and the proposals (the run log's recorder), before the history loads. */
  attach?(taskManager: TaskManager, changes: ChangeSetRegistry): void | Promise<void>;
  /** The same, once the tasks are loaded instead (the CLI's: the run it goes on with is read back, not re-archived). */
  attachAfterLoad?(taskManager: TaskManager, changes: ChangeSetRegistry): void;
  /** Writes what is pending; run in the shutdown's `history` stage, after every task has ended. */
  close?(): Promise<void>;
}

export interface EngineCorePorts {
  /** Tasks running at once. Default: the manager's (`defaultLimits`). */
  maxConcurrent?: number;
  /** When a foreground delegation goes to the background. Default: the manager's. */
  autoBackgroundMs?: number;
  /** Default `systemClock`. */
  clock?: Clock;
  /** Default: memory only (nothing outlives the process). */
  history?: EngineHistory;
  /** The models' prices, for tasks' costs. Default: none (costs unknown). */
  priceOf?: (model: string | undefined) => ModelPrice | undefined;
  /** Hears the manager's and the shutdown's problems. */
  onWarning(message: string): void;
}

export interface EngineCore {
  readonly taskManager: TaskManager;
  readonly changes: ChangeSetRegistry;
  /** Where every part registers its step of the one shutdown sequence (engine-shutdown.ts). */
  readonly shutdown: EngineShutdown;
  /** Attaches the history's recorder and loads its tasks; once (later calls return the first's promise). */
  load(): Promise<void>;
  /** The whole shutdown (`shutdown.close()`): idempotent. */
  close(): Promise<void>;
}

export function createEngineCore(ports: EngineCorePorts): EngineCore {
  const { history } = ports;
  const taskManager = new TaskManager({
    ...(ports.maxConcurrent === undefined ? {} : { maxConcurrent: ports.maxConcurrent }),
    ...(ports.autoBackgroundMs === undefined ? {} : { autoBackgroundMs: ports.autoBackgroundMs }),
    ...(ports.clock ? { clock: ports.clock } : {}),
    ...(history?.store ? { store: history.store } : {}),
    ...(history?.generateId ? { generateId: history.generateId } : {}),
    ...(ports.priceOf ? { priceOf: ports.priceOf } : {}),
    onWarning: ports.onWarning,
  });
  const changes = new ChangeSetRegistry();
  const shutdown = new EngineShutdown(ports.onWarning);
  shutdown.add('tasks', () => taskManager.close());
  if (history?.close) shutdown.add('history', () => history.close!());
  let loading: Promise<void> | undefined;
  return {
    taskManager,
    changes,
    shutdown,
    load: () =>
      (loading ??= (async () => {
        await history?.attach?.(taskManager, changes);
        await taskManager.load();
        history?.attachAfterLoad?.(taskManager, changes);
      })()),
    close: () => shutdown.close(),
  };
}
