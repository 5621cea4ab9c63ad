/** The task manager: runs work it is handed as tasks in a tree, with stop, budgets and history. */
export { TaskManager } from './task-manager.js';
export type { WaitOptions } from './task-wait.js';
export type { TaskManagerOptions } from './options.js';
export type { StartTaskOptions, StartTaskResult, TaskMode, TaskWork, TaskWorkContext, TaskWorkResult } from './work.js';
export { type TaskNotice, formatNotice, noticeFor } from './notifications.js';
export { TaskError, type TaskErrorKind } from './task-error.js';
export { InMemoryTaskStore, type PersistedHistory, type PersistedTask, type TaskStore, emptyHistory } from './task-store.js';
export {
  JsonFileTaskStore,
  type JsonFileTaskStoreOptions,
  type TaskStoreFileSystem,
  type WritableFile,
  nodeTaskStoreFileSystem,
} from './json-file-task-store.js';
export { createSequentialIds } from './ids.js';
export { type CombinedSignal, combineSignals, linkSignals, onAbort, raceWithSignal, throwIfStopped } from '../abort.js';
export type { TaskEventListener } from './event-hub.js';
export type { ArchivedTranscript, TranscriptArchive } from './transcript-archive.js';
export * from './types.js';
