/**
 * The window's engine core (engine-core.ts), built at activation so the sidebar shows the history at once:
 * the task manager over the window's run history, the change sets, and the one shutdown, in which the run
 * log and then the proposals file are saved after the tasks' last events.
 */
import type { LogOutputChannel } from 'vscode';
import { type Clock, createEngineCore, type EngineCore } from '../engine/index.js';
import type { ChangeSetStore } from './change-store.js';
import type { SettingPrices } from './model-prices-setting.js';
import type { WindowRunHistory } from './window-run-history.js';

export interface WindowCoreParts {
  settings: { maxConcurrentTasks: number; autoBackgroundSeconds: number };
  runHistory: WindowRunHistory;
  /** The proposals file, when the window has storage (made after the core: it holds the core's change sets). */
  changeStore(): ChangeSetStore | undefined;
  clock: Clock;
  prices: SettingPrices;
  log: Pick<LogOutputChannel, 'warn'>;
}

export function windowEngineCore(parts: WindowCoreParts): EngineCore {
  const { runHistory } = parts;
  return createEngineCore({
    maxConcurrent: parts.settings.maxConcurrentTasks,
    autoBackgroundMs: parts.settings.autoBackgroundSeconds * 1000,
    clock: parts.clock,
    history: {
      ...(runHistory.store ? { store: runHistory.store } : {}),
      generateId: runHistory.generateId,
      attach: (taskManager, changes) => runHistory.attach(taskManager, changes),
      close: async () => {
        await runHistory.close();
        await parts.changeStore()?.flush();
      },
    },
    onWarning: (message) => parts.log.warn(message),
    priceOf: (model) => parts.prices.current().priceOf(model),
  });
}
