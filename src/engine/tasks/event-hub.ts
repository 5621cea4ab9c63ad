/** The task manager's one event stream: the shared emitter (util/emitter.ts), typed for task events. */
import { Emitter, type Listener } from '../util/emitter.js';
import type { TaskEvent } from './types.js';

export type TaskEventListener = Listener<TaskEvent>;

export class EventHub extends Emitter<TaskEvent> {}
