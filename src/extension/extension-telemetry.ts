/**
 * OpenTelemetry in the extension: on when `agentTeam.otlpEndpoint` (user settings; a folder must not send
 * its prompts elsewhere) or the extension host's `OTEL_EXPORTER_OTLP_ENDPOINT` names an OTLP/HTTP
 * collector. Content (prompts, outputs, tool arguments) only with `agentTeam.otlpCaptureContent`. Read
 * when the engine starts: a change applies after a window reload.
 */
import * as vscode from 'vscode';
import { type EngineTelemetry, errorMessage, startTelemetry, type TaskManager } from '../engine/index.js';

export async function extensionTelemetry(
  taskManager: TaskManager,
  environment: Readonly<Record<string, string | undefined>>,
  secrets: () => readonly string[],
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>,
): Promise<EngineTelemetry | undefined> {
  const configuration = vscode.workspace.getConfiguration('agentTeam');
  const endpoint = configuration.inspect<unknown>('otlpEndpoint')?.globalValue;
  const captureContent = configuration.inspect<unknown>('otlpCaptureContent')?.globalValue === true;
  try {
    const telemetry = await startTelemetry({
      taskManager,
      environment,
      ...(typeof endpoint === 'string' && endpoint.trim() !== '' ? { endpoint } : {}),
      captureContent,
      serviceName: 'agent-team-vscode',
      secrets,
    });
    if (telemetry) log.info(`OpenTelemetry: spans go to ${telemetry.url}${captureContent ? ', with prompts and outputs' : ''}`);
    return telemetry;
  } catch (error) {
    log.warn(`OpenTelemetry is off: ${errorMessage(error)}`);
    return undefined;
  }
}
