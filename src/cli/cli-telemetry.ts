/**
 * OpenTelemetry for the CLI: on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `_TRACES_ENDPOINT`) is set, as
 * every OpenTelemetry tool reads it; a bad endpoint is a configuration error (exit 2) before any model is
 * asked. Spans are flushed when the CLI closes its engine, before it exits.
 */
import { ConfigurationError, type EngineTelemetry, errorMessage, startTelemetry, type TaskManager } from '../engine/index.js';

declare const AGENT_TEAM_VERSION: string | undefined;

export async function startCliTelemetry(
  taskManager: TaskManager,
  environment: NodeJS.ProcessEnv,
  secrets: () => readonly string[],
): Promise<EngineTelemetry | undefined> {
  try {
    return await startTelemetry({
      taskManager,
      environment,
      serviceName: 'agent-team-cli',
      ...(typeof AGENT_TEAM_VERSION === 'string' ? { serviceVersion: AGENT_TEAM_VERSION } : {}),
      secrets,
    });
  } catch (error) {
    throw new ConfigurationError(errorMessage(error));
  }
}
