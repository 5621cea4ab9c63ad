/** What telemetry is started with, and what it gives the engine (start-telemetry.ts). */
import type { Model } from '../model/types.js';
import type { TaskManager } from '../tasks/task-manager.js';

export interface TelemetryOptions {
  taskManager: TaskManager;
  /** Where `OTEL_*` variables are read. */
  environment: Readonly<Record<string, string | undefined>>;
  /** The host's endpoint setting, used when the environment names none. Default: none. */
  endpoint?: string;
  /** The host's content setting; the environment's variable also turns it on. Default false. */
  captureContent?: boolean;
  /** `service.name` of the spans: `agent-team-cli`, `agent-team-vscode`. */
  serviceName: string;
  serviceVersion?: string;
  /** Kept out of captured content. */
  secrets(): readonly string[];
}

export interface EngineTelemetry {
  /** The traces endpoint spans go to. */
  readonly url: string;
  /** The task's model, with a `chat` span around each request. */
  observeModel(taskId: string, model: Model): Model;
  /** Ends what is open and sends what is pending (the CLI before it exits, the extension on deactivation). */
  shutdown(): Promise<void>;
}
